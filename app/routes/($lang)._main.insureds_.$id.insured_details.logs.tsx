/**
 * The insured page's logs tab: the policy's transactions (every change to the policy: issue, extension,
 * trip dates, details, group, group leader, cancellation, with its fields before and after and the money
 * it moved), then the activity log (notes added and other actions on the insured).
 */
import { json, type LoaderFunctionArgs } from '@remix-run/cloudflare';
import { useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { policyActivities } from '@server/domain/policies/details';
import { policyTransactionsOf } from '@server/domain/policies/service';
import { requireInsuredTab } from '~/lib/insureds.server';
import { ActivityLog } from '~/components/activity/activity-log';
import { Card } from '~/components/ui/card';
import { formatMoney } from '~/lib/money';
import { pageLoader } from '~/lib/loaders.server';
import { idSchema, insuredLogsQuerySchema } from '~/lib/schemas.server';

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_policy',
    params: idSchema,
    query: insuredLogsQuerySchema,
    async load({ ctx, params, query }) {
      requireInsuredTab(ctx, 'logs');
      const [transactions, activity] = await Promise.all([
        policyTransactionsOf(ctx, params.id, query.page),
        policyActivities(ctx, params.id, query.activity_page),
      ]);
      return json({ transactions, activity });
    },
  })(args);

export default function InsuredLogsTab() {
  const { t } = useTranslation();
  const { transactions, activity } = useLoaderData<typeof loader>();
  const rows = transactions.items.map((x) => {
    const fields = [...new Set([...Object.keys(x.before ?? {}), ...Object.keys(x.after ?? {})])];
    const money =
      x.premium_diff || x.tax_diff
        ? [
            {
              field: 'premium_diff',
              after: `${formatMoney(x.premium_diff, x.currency)} + ${formatMoney(x.tax_diff, x.currency)}${x.tax_rate !== null ? ` (${(x.tax_rate * 100).toFixed(2)} %)` : ''}`,
            },
          ]
        : [];
    return {
      id: x.document_version,
      entity_type: 'policy',
      currency: x.currency,
      action: x.kind,
      actor: x.user,
      actor_email: null,
      created_at: x.created_at,
      changes: [
        { field: 'effective_date', after: x.effective_date },
        ...fields.map((f) => ({ field: f, before: x.before?.[f], after: x.after?.[f] })),
        ...money,
        { field: 'document_version', after: x.document_version },
      ],
    };
  });
  const actionLabels = Object.fromEntries(
    ['issue', 'extension', 'trip_dates', 'details', 'group_name', 'group_leader', 'cancellation'].map((k) => [
      k,
      t(`insureds.logs.kinds.${k}`),
    ]),
  );
  const fieldLabels = {
    effective_date: t('insureds.logs.effective_date'),
    premium_diff: t('insureds.logs.premium_diff'),
    document_version: t('insureds.fields.version'),
  };
  return (
    <div className="space-y-6">
      <Card>
        <h2 className="mb-4 text-base font-semibold text-slate-900">{t('insureds.logs.transactions')}</h2>
        <ActivityLog
          rows={rows}
          meta={transactions.meta}
          actionLabels={actionLabels}
          fieldLabels={fieldLabels}
        />
      </Card>
      <Card>
        <h2 className="mb-4 text-base font-semibold text-slate-900">{t('insureds.logs.activity')}</h2>
        <ActivityLog rows={activity.items} meta={activity.meta} />
      </Card>
    </div>
  );
}
