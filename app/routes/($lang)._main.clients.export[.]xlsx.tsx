import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { exportClients } from '@server/domain/clients/queries';
import { translate } from '@server/platform/i18n';
import { clientPageQuerySchema } from '~/lib/schemas.server';
import { xlsxResponse } from '~/lib/lists.server';
import { pageLoader } from '~/lib/loaders.server';

/**
 * GET /clients/export.xlsx?{the list's filters}: the filtered client list as an Excel file (cells that
 * look like formulas are neutralised by buildWorkbook). A resource route, so the browser gets the file.
 */
export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_client',
    query: clientPageQuerySchema,
    async load({ ctx, lang, query }) {
      const h = (key: string) => translate(lang, `clients.${key}`);
      const rows = await exportClients(ctx, query);
      return xlsxResponse('clients.xlsx', {
        name: h('export_sheet'),
        columns: [
          { header: h('columns.name'), key: 'name', width: 32 },
          { header: h('columns.id'), key: 'id', width: 18 },
          { header: h('columns.type'), key: 'type' },
          { header: h('columns.status'), key: 'status', width: 20 },
          { header: h('columns.company'), key: 'company', width: 28 },
          { header: h('columns.account_manager'), key: 'account_manager', width: 22 },
          { header: h('columns.owner'), key: 'owner', width: 22 },
          { header: h('columns.owner_email'), key: 'owner_email', width: 28 },
          { header: h('columns.phone'), key: 'phone', width: 18 },
          { header: h('columns.website'), key: 'website', width: 28 },
          { header: h('columns.payment_terms'), key: 'payment_terms', width: 18 },
          { header: h('columns.campuses'), key: 'campuses' },
          { header: h('columns.created_at'), key: 'created_at', width: 14 },
        ],
        rows: rows.map((r) => ({
          ...r,
          type: h(`types.${r.type}`),
          status: h(`statuses.${r.status}`),
          account_manager: r.account_manager?.name ?? '',
          owner: r.owner_contact.name ?? '',
          owner_email: r.owner_contact.email ?? '',
          phone: r.phone_number ? `${r.phone_country ?? ''} ${r.phone_number}`.trim() : '',
          payment_terms: h(`payment_terms.${r.payment_terms}`),
          created_at: r.created_at.slice(0, 10),
        })),
      });
    },
  })(args);
