import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { translate } from '@server/platform/i18n';
import { exportPartnerApplicants, READ_PARTNER_APPLICANTS } from '~/lib/applicants.server';
import { partnerApplicantsQuerySchema } from '~/lib/schemas.server';
import { xlsxResponse } from '~/lib/lists.server';
import { pageLoader } from '~/lib/loaders.server';

/**
 * GET /insured-applicants/export.xlsx?{the search}: the partner applicants of the search as an Excel
 * file, newest first, up to one sheet's worth (5000).
 */
export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: READ_PARTNER_APPLICANTS,
    query: partnerApplicantsQuerySchema,
    async load({ ctx, query, lang }) {
      const h = (key: string) => translate(lang, `partner_applicants.${key}`);
      const rows = await exportPartnerApplicants(ctx, query);
      return xlsxResponse('partner-applicants.xlsx', {
        name: h('title'),
        columns: [
          { header: h('columns.reference'), key: 'reference', width: 16 },
          { header: h('export.first_name'), key: 'first_name', width: 18 },
          { header: h('export.last_name'), key: 'last_name', width: 18 },
          { header: h('columns.date_of_birth'), key: 'date_of_birth', width: 14 },
          { header: h('export.email'), key: 'email', width: 28 },
          { header: h('export.nationality'), key: 'nationality', width: 12 },
          { header: h('columns.school'), key: 'school', width: 28 },
          { header: h('export.start_date'), key: 'start_date', width: 14 },
          { header: h('export.end_date'), key: 'end_date', width: 14 },
          { header: h('columns.status'), key: 'status', width: 14 },
          { header: h('columns.policy'), key: 'policy', width: 14 },
          { header: h('columns.received'), key: 'received', width: 20 },
        ],
        rows: rows.map((r) => ({
          reference: r.partner_reference,
          first_name: r.first_name,
          last_name: r.last_name,
          date_of_birth: r.date_of_birth,
          email: r.email ?? '',
          nationality: r.nationality ?? '',
          school: r.school_name ?? '',
          start_date: r.start_date,
          end_date: r.end_date,
          status: h(`statuses.${r.status}`),
          policy: r.policy?.policy_number ?? '',
          received: r.received_at.replace('T', ' ').slice(0, 19),
        })),
      });
    },
  })(args);
