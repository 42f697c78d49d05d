import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { exportInsurers } from '@server/domain/insurers/service';
import { translate } from '@server/platform/i18n';
import { insurerListSchema } from '~/lib/schemas.server';
import { xlsxResponse } from '~/lib/lists.server';
import { pageLoader } from '~/lib/loaders.server';

/**
 * GET /manage-insurers/export.xlsx?{the list's filters}: the filtered insurer list as an Excel file. A
 * resource route, so the browser gets the file; the trailing `_` keeps it out of the insurers page,
 * which is a page of its own rather than a layout.
 */
export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_insurer',
    query: insurerListSchema,
    async load({ ctx, query, lang }) {
      const h = (key: string) => translate(lang, `insurers.${key}`);
      const rows = await exportInsurers(ctx, query);
      return xlsxResponse('insurers.xlsx', {
        name: h('title'),
        columns: [
          { header: h('name'), key: 'name', width: 30 },
          { header: h('code'), key: 'code' },
          { header: h('email'), key: 'email', width: 28 },
          { header: h('phone'), key: 'phone', width: 18 },
          { header: h('website'), key: 'website', width: 28 },
          { header: h('company'), key: 'company_name', width: 28 },
          { header: h('status'), key: 'status' },
        ],
        rows: rows.map((r) => ({
          ...r,
          phone: r.phone_number ? `${r.phone_country ?? ''} ${r.phone_number}`.trim() : '',
          status: translate(lang, `insurers.statuses.${r.status}`),
        })),
      });
    },
  })(args);
