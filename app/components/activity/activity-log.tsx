/**
 * The logs tab of any entity: who did what and when, and for each changed field its value before and
 * after. Rows come from `activityFeed` (workers/domain/activity/feed.ts). Action names are looked up in
 * activity.json (`activity.actions.*`, then the audit trail's `audit.actions.*`); fields and their
 * values read by app/lib/logged-changes.ts. An area may pass its own labels; anything unknown is shown
 * humanised ("return_policy" → "Return policy").
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActivityRow } from '@server/domain/activity/feed';
import type { ListMeta } from '@server/domain/list-query';
import { loggedFieldKind } from '@server/domain/audit/fields';
import { Pagination } from '~/components/ui/data-table';
import { InvoiceLink } from '~/components/invoices/invoice-link';
import { formatDateTime } from '~/lib/dates';
import { describeChange, firstOf, humanize, type LoggedChange } from '~/lib/logged-changes';

export { humanize };

/** A row as it reaches the page (JSON): the values of a change may be absent. */
export type ActivityRowView = Omit<ActivityRow, 'changes' | 'on_behalf_of' | 'entity_type' | 'currency'> & {
  entity_type?: string | null;
  currency?: string | null;
  on_behalf_of?: string | null;
  changes: LoggedChange[];
};

/**
 * The changed fields of one logged change: label, then the value before (struck through) and after. A
 * field that had no value before (a new record) shows its value only. Long values wrap.
 */
export function ChangeList({
  row,
  changes,
  labels,
  className = '',
}: {
  row: { entity_type?: string | null; currency?: string | null };
  changes: LoggedChange[];
  labels?: Record<string, string>;
  className?: string;
}) {
  const { t } = useTranslation();
  return (
    <dl
      className={`grid min-w-0 gap-x-4 gap-y-1 sm:grid-cols-[minmax(7rem,auto)_minmax(0,1fr)] ${className}`}
    >
      {changes.map((change) => {
        const c = describeChange(t, change, row, labels);
        return (
          <div key={c.field} className="contents" data-testid="logged-change">
            <dt className="text-slate-500">{c.label}</dt>
            <dd className="min-w-0 text-slate-800 [overflow-wrap:anywhere]">
              {c.before !== null ? (
                <>
                  <span className="sr-only">{t('activity.before')}: </span>
                  <del className="text-slate-500 decoration-slate-300">{c.before}</del>
                  <span aria-hidden="true" className="mx-1.5 text-slate-400">
                    →
                  </span>
                  <span className="sr-only"> {t('activity.after')}: </span>
                </>
              ) : null}
              {loggedFieldKind(row.entity_type, change.field).kind === 'invoice_number' ? (
                <InvoiceLink number={c.after} variant="value" />
              ) : (
                <span>{c.after}</span>
              )}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}

export function ActivityLog({
  rows,
  meta,
  actionLabels = {},
  fieldLabels,
  subject,
}: {
  rows: ActivityRowView[];
  meta: ListMeta;
  actionLabels?: Record<string, string>;
  fieldLabels?: Record<string, string>;
  /** What each row changed, when the list mixes entities (the audit trail on a phone). */
  subject?: (row: ActivityRowView) => ReactNode;
}) {
  const { t } = useTranslation();
  const actionLabel = (a: string) =>
    actionLabels[a] ?? firstOf(t, [`activity.actions.${a}`, `audit.actions.${a}`], humanize(a));
  return (
    <div className="overflow-hidden rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
      {rows.length === 0 ? (
        <p className="px-6 py-12 text-center text-sm text-slate-500">{t('activity.empty')}</p>
      ) : (
        <ol className="divide-y divide-slate-100" aria-label={t('activity.title')}>
          {rows.map((row) => (
            <li key={row.id} className="px-4 py-4 sm:px-6" data-testid="activity-row">
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <p className="text-sm">
                  <span className="font-semibold text-slate-900">{actionLabel(row.action)}</span>
                  <span className="text-slate-500">
                    {' · '}
                    {row.actor && row.on_behalf_of
                      ? t('audit.on_behalf_of', { actor: row.actor, user: row.on_behalf_of })
                      : (row.actor ?? t('activity.system'))}
                  </span>
                </p>
                <time dateTime={row.created_at} className="text-xs text-slate-500">
                  {formatDateTime(row.created_at)}
                </time>
              </div>
              {subject ? <div className="mt-1 text-sm">{subject(row)}</div> : null}
              {row.changes.length ? (
                <ChangeList row={row} changes={row.changes} labels={fieldLabels} className="mt-2 text-sm" />
              ) : null}
            </li>
          ))}
        </ol>
      )}
      {meta.total > meta.per_page ? <Pagination meta={meta} /> : null}
    </div>
  );
}
