/**
 * The logs tab of any entity: who did what and when, and for each changed field its value before and
 * after. Rows come from `activityFeed` (workers/domain/activity/feed.ts). Action and field names are
 * looked up in activity.json (`activity.actions.*`, then the audit trail's `audit.actions.*`; `activity.fields.*`); an area may pass its own
 * labels, and anything unknown is shown humanised ("return_policy" → "Return policy").
 */
import { useTranslation } from 'react-i18next';
import type { ActivityRow } from '@server/domain/activity/feed';
import type { ListMeta } from '@server/domain/list-query';
import { Pagination } from '~/components/ui/data-table';
import { formatDateTime } from '~/lib/dates';

export function humanize(key: string): string {
  const text = key.replace(/[._]+/g, ' ').trim();
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function useValueText() {
  const { t } = useTranslation();
  const text = (value: unknown): string => {
    if (value === null || value === undefined || value === '') return t('activity.empty_value');
    if (typeof value === 'boolean') return value ? t('activity.yes') : t('activity.no');
    if (Array.isArray(value)) return value.map(text).join(', ');
    if (typeof value === 'object')
      return Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== null && v !== undefined && v !== '')
        .map(([k, v]) => `${humanize(k)}: ${text(v)}`)
        .join('; ');
    return String(value);
  };
  return text;
}

/** A row as it reaches the page (JSON): the values of a change may be absent. */
export type ActivityRowView = Omit<ActivityRow, 'changes' | 'on_behalf_of'> & {
  on_behalf_of?: string | null;
  changes: { field: string; before?: unknown; after?: unknown }[];
};

export function ActivityLog({
  rows,
  meta,
  actionLabels = {},
  fieldLabels = {},
  formatValue,
}: {
  rows: ActivityRowView[];
  meta: ListMeta;
  actionLabels?: Record<string, string>;
  fieldLabels?: Record<string, string>;
  /** The area's own wording of a stored value (an enum's label); undefined falls back to the value. */
  formatValue?: (field: string, value: unknown) => string | undefined;
}) {
  const { t } = useTranslation();
  const plain = useValueText();
  const text = (value: unknown, field = '') =>
    (value !== null && value !== undefined && formatValue?.(field, value)) || plain(value);
  const actionLabel = (a: string) =>
    actionLabels[a] ??
    t(`activity.actions.${a}`, { defaultValue: t(`audit.actions.${a}`, { defaultValue: humanize(a) }) });
  const fieldLabel = (f: string) =>
    fieldLabels[f] ?? t(`activity.fields.${f}`, { defaultValue: humanize(f) });
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
              {row.changes.length ? (
                <dl className="mt-2 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[minmax(8rem,auto)_1fr]">
                  {row.changes.map((c) => (
                    <div key={c.field} className="contents">
                      <dt className="text-slate-500">{fieldLabel(c.field)}</dt>
                      <dd className="break-words text-slate-800">
                        {c.before !== null && c.before !== undefined ? (
                          <>
                            <span className="text-slate-500 line-through decoration-slate-300">
                              {text(c.before)}
                            </span>
                            <span aria-hidden="true" className="mx-1.5 text-slate-400">
                              →
                            </span>
                            <span className="sr-only"> {t('activity.after')}: </span>
                          </>
                        ) : null}
                        <span>{text(c.after, c.field)}</span>
                      </dd>
                    </div>
                  ))}
                </dl>
              ) : null}
            </li>
          ))}
        </ol>
      )}
      {meta.total > meta.per_page ? <Pagination meta={meta} /> : null}
    </div>
  );
}
