import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { exportCompanies } from '@server/domain/companies/service';
import { translate } from '@server/platform/i18n';
import { companyListSchema } from '~/lib/schemas.server';
import { formatDate } from '~/lib/dates';
import { xlsxResponse } from '~/lib/lists.server';
import { pageLoader } from '~/lib/loaders.server';

/**
 * GET /manage-company/export.xlsx?{the list's filters}: the filtered company list as an Excel file. A
 * resource route, so the browser gets the file.
 */
export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_company',
    query: companyListSchema,
    async load({ ctx, query, lang }) {
      const h = (key: string) => translate(lang, `companies.fields.${key}`);
      const rows = await exportCompanies(ctx, query);
      return xlsxResponse('companies.xlsx', {
        name: translate(lang, 'companies.title'),
        columns: [
          { header: h('name'), key: 'name', width: 32 },
          { header: h('country_id'), key: 'country_name', width: 20 },
          { header: h('registration_number'), key: 'registration_number', width: 20 },
          { header: h('currency'), key: 'currency' },
          { header: h('payment_gateway'), key: 'gateway', width: 22 },
          { header: translate(lang, 'companies.summary.users'), key: 'users_count' },
          { header: translate(lang, 'companies.summary.clients'), key: 'clients_count' },
          { header: h('status'), key: 'status' },
          { header: h('created_at'), key: 'created', width: 14 },
        ],
        rows: rows.map((r) => ({
          ...r,
          gateway: translate(lang, `companies.gateways.${r.payment_gateway ?? 'none'}`),
          status: translate(lang, `companies.statuses.${r.status}`),
          created: formatDate(r.created_at),
        })),
      });
    },
  })(args);
