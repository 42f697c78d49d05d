import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { exportProducts } from '@server/domain/products/service';
import { translate } from '@server/platform/i18n';
import { productListQuerySchema } from '~/lib/schemas.server';
import { lenientQuery, queryOf, xlsxResponse } from '~/lib/lists.server';
import { pageLoader } from '~/lib/loaders.server';

/**
 * GET /products/export.xlsx?{the list's filters}: the filtered product list as an Excel file (the
 * products view; product groups have no export). A resource route, so the browser gets the file.
 */
export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_product',
    async load({ ctx, request, lang }) {
      const query = lenientQuery(productListQuerySchema, queryOf(request));

      const h = (key: string) => translate(lang, `products.${key}`);
      const rows = await exportProducts(ctx, query);
      return xlsxResponse('products.xlsx', {
        name: h('title'),
        columns: [
          { header: h('fields.code'), key: 'code', width: 16 },
          { header: h('fields.name'), key: 'name', width: 32 },
          { header: h('fields.company'), key: 'company', width: 28 },
          { header: h('fields.insurer'), key: 'insurer', width: 28 },
          { header: h('fields.type'), key: 'type' },
          { header: h('fields.scheme'), key: 'scheme' },
          { header: h('fields.territorial_limit'), key: 'territorial_limit', width: 18 },
          { header: h('fields.currency'), key: 'currency' },
          { header: h('fields.effective_start_date'), key: 'effective_start_date', width: 16 },
          { header: h('fields.effective_end_date'), key: 'effective_end_date', width: 16 },
          { header: h('list.prices'), key: 'prices_count' },
          { header: h('fields.status'), key: 'status' },
        ],
        rows: rows.map((r) => ({
          ...r,
          company: r.company.name,
          insurer: r.insurer?.name ?? '',
          territorial_limit: r.territorial_limit ? h(`territorial_limits.${r.territorial_limit}`) : '',
          status: h(`statuses.${r.status}`),
        })),
      });
    },
  })(args);
