/** Small pieces of the insureds pages: the status badge, the summary chips that filter by status. */
import { Link, useLocation, useSearchParams } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { POLICY_LIST_STATUSES, type PolicyListStatus } from '@server/domain/policies/status';
import type { PolicySummary, PolicySummaryRow } from '@server/domain/policies/service';
import { localePath } from '~/i18n/config';
import { CountChips } from '~/components/ui/count-chips';
import { ScrollBox } from '~/components/ui/data-table';
import { StatusBadge } from '~/components/ui/status-badge';
import { formatDate } from '~/lib/dates';

const TONES = { active: 'green', not_started: 'blue', expired: 'slate', cancelled: 'red' } as const;

export function PolicyStatusBadge({ status }: { status: PolicyListStatus }) {
  const { t } = useTranslation();
  return <StatusBadge tone={TONES[status]}>{t(`insureds.statuses.${status}`)}</StatusBadge>;
}

/** Trip dates on two lines ("from" above "to"). */
export function TripDates({ start, end }: { start: string; end: string }) {
  return (
    <span className="whitespace-nowrap">
      {formatDate(start)}
      <br />
      <span className="text-slate-500">{formatDate(end)}</span>
    </span>
  );
}

/**
 * The summary of the list (`insureds/summary`): a chip per status with its count; a chip sets the status
 * filter (the other filters kept), the open one clears it.
 */
export function StatusChips({ summary }: { summary: PolicySummary }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const location = useLocation();
  const current = params.get('status') ?? '';
  const href = (status: string) => {
    const next = new URLSearchParams(params);
    next.delete('page');
    if (status) next.set('status', status);
    else next.delete('status');
    return `${location.pathname}?${next}`;
  };
  const chips = [
    { key: '', label: t('insureds.statuses.all'), count: summary.total },
    ...POLICY_LIST_STATUSES.map((s) => ({ key: s, label: t(`insureds.statuses.${s}`), count: summary[s] })),
  ];
  return (
    <div className="mb-4">
      <CountChips
        chips={chips.map((c) => ({ ...c, to: href(c.key) }))}
        current={current}
        label={t('insureds.summary_label')}
        testId="status-chips"
      />
    </div>
  );
}

/** A short table of related policies (family, led insureds, the same person's other policies). */
export function RelatedPolicies({
  rows,
  empty,
  caption,
}: {
  rows: readonly PolicySummaryRow[];
  empty: string;
  caption: string;
}) {
  const { t, i18n } = useTranslation();
  if (!rows.length) return <p className="text-sm text-slate-500">{empty}</p>;
  return (
    <ScrollBox label={caption}>
      <table className="min-w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="text-xs uppercase tracking-wide text-slate-500">
          <tr>
            <th scope="col" className="py-2 pr-4">
              {t('insureds.fields.policy_id')}
            </th>
            <th scope="col" className="py-2 pr-4">
              {t('insureds.fields.name')}
            </th>
            <th scope="col" className="py-2 pr-4">
              {t('insureds.fields.type')}
            </th>
            <th scope="col" className="py-2 pr-4">
              {t('insureds.fields.product')}
            </th>
            <th scope="col" className="py-2 pr-4">
              {t('insureds.fields.trip_dates')}
            </th>
            <th scope="col" className="py-2">
              {t('insureds.fields.status')}
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((r) => (
            <tr key={r.id}>
              <td className="py-2 pr-4">
                <Link
                  to={localePath(i18n.language, `/insureds/${r.id}/insured_details`)}
                  className="font-mono text-xs font-semibold text-primary-800 hover:underline"
                >
                  {r.policy_number}
                </Link>
              </td>
              <td className="py-2 pr-4">{r.full_name}</td>
              <td className="py-2 pr-4">{t(`insureds.types.${r.type}`)}</td>
              <td className="py-2 pr-4">{r.product.name}</td>
              <td className="py-2 pr-4">
                <TripDates start={r.start_date} end={r.end_date} />
              </td>
              <td className="py-2">
                <PolicyStatusBadge status={r.status} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollBox>
  );
}
