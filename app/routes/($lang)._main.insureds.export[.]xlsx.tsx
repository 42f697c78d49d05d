import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { isDomainError } from '@server/domain/errors';
import { policyListQuerySchema } from '@server/domain/policies/list-query';
import { exportPolicies } from '@server/domain/policies/service';
import { translate } from '@server/platform/i18n';
import { redirectWithToast } from '~/lib/actions.server';
import { lenientQuery, queryOf, xlsxResponse } from '~/lib/lists.server';
import { pageLoader } from '~/lib/loaders.server';

/**
 * GET /insureds/export.xlsx?{the list's filters}: every insured matching the filters as an Excel file.
 * A refusal (too many rows) sends the user back to the list with 'An error occurred while downloading
 * insureds' (spec 001 s.8).
 */
export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_policy',
    async load({ ctx, request, context, lang }) {
      const query = lenientQuery(policyListQuerySchema, queryOf(request));
      const rows = await exportPolicies(ctx, query).catch((e: unknown) => {
        if (isDomainError(e)) return null;
        throw e;
      });
      if (!rows) {
        const back = new URL(request.url).search;
        return redirectWithToast(context, lang, `/insureds${back}`, 'insureds.errors.download_failed', {
          type: 'error',
        });
      }
      const h = (key: string) => translate(lang, `insureds.${key}`);
      const staff = ctx.actor.user_type === 'company';
      return xlsxResponse('insureds.xlsx', {
        name: h('title'),
        columns: [
          { header: h('fields.policy_id'), key: 'policy_number', width: 14 },
          { header: h('fields.first_name'), key: 'first_name', width: 20 },
          { header: h('fields.last_name'), key: 'last_name', width: 20 },
          { header: h('fields.type'), key: 'type', width: 16 },
          { header: h('fields.date_of_birth'), key: 'date_of_birth', width: 14 },
          { header: h('fields.email'), key: 'email', width: 28 },
          { header: h('fields.residence_country'), key: 'residence', width: 20 },
          ...(staff ? [{ header: h('fields.client'), key: 'client', width: 28 }] : []),
          { header: h('fields.campus'), key: 'campus', width: 24 },
          { header: h('fields.product'), key: 'product', width: 24 },
          { header: h('fields.start_date'), key: 'start_date', width: 14 },
          { header: h('fields.end_date'), key: 'end_date', width: 14 },
          { header: h('fields.booking_date'), key: 'booking_date', width: 14 },
          { header: h('fields.issued_at'), key: 'issued', width: 14 },
          { header: h('fields.status'), key: 'status', width: 14 },
          { header: h('fields.group_name'), key: 'group_name', width: 20 },
          { header: h('fields.premium'), key: 'premium', width: 12 },
          { header: h('fields.currency'), key: 'currency', width: 10 },
        ],
        rows: rows.map((r) => ({
          ...r,
          type: h(`types.${r.type}`),
          residence: r.residence_country?.name ?? '',
          client: r.client.name,
          campus: r.campus.name,
          product: r.product.name,
          issued: r.issued_at.slice(0, 10),
          status: h(`statuses.${r.status}`),
          group_name: r.group_name ?? '',
        })),
      });
    },
  })(args);
