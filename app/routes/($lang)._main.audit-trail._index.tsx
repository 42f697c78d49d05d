/**
 * /audit-trail (ours: the spec names activity logs but no page; docs/decisions/roles-and-users.md "Roles"): every change
 * the user may see, who made it, when, and each changed field before and after; searched by user, entity,
 * action and day, and exported to Excel. Senior admins see the companies in view; a school master user
 * sees its own school.
 */
import { json, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare';
import { useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { auditQuerySchema } from '~/lib/schemas.server';
import { auditChoices, searchAuditTrail } from '@server/domain/audit/trail';
import { pageTitle } from '~/lib/meta';
import { formatDateTime } from '~/lib/dates';
import { PageHeader } from '~/components/ui/card';
import { DataTable, type Column } from '~/components/ui/data-table';
import {
  EmptyState,
  FilterDate,
  FilterSearch,
  FilterSelect,
  FiltersBar,
  useExportHref,
} from '~/components/ui/list-controls';
import { useAuditLabels } from '~/components/audit/audit-labels';
import { useValueText } from '~/components/activity/activity-log';
import { pageLoader } from '~/lib/loaders.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_audit_trail',
    query: auditQuerySchema,
    async load({ ctx, request, context, query }) {
      const [list, choices] = await Promise.all([searchAuditTrail(ctx, query), auditChoices(ctx)]);
      return json({ list, choices, title: pageTitle(context, request, 'audit.title') });
    },
  })(args);

/**
 * A role's permission change shows what was added and removed; the whole lists before and after stay in
 * the log and the export.
 */
function shownChanges<C extends { field: string }>(changes: C[]): C[] {
  const summarised = changes.some((c) => c.field === 'added' || c.field === 'removed');
  return summarised ? changes.filter((c) => c.field !== 'permissions') : changes;
}

type Row = ReturnType<typeof useLoaderData<typeof loader>>['list']['items'][number];

export default function AuditTrail() {
  const { t } = useTranslation();
  const { list, choices } = useLoaderData<typeof loader>();
  const exportHref = useExportHref();
  const { action, entity, field } = useAuditLabels();
  const text = useValueText();
  const columns: Column<Row>[] = [
    {
      key: 'when',
      header: t('audit.columns.when'),
      className: 'whitespace-nowrap',
      render: (r) => <time dateTime={r.created_at}>{formatDateTime(r.created_at)}</time>,
    },
    {
      key: 'who',
      header: t('audit.columns.who'),
      render: (r) =>
        r.actor ? (
          <span>
            <span className="font-medium text-slate-900">
              {r.on_behalf_of ? t('audit.on_behalf_of', { actor: r.actor, user: r.on_behalf_of }) : r.actor}
            </span>
            <span className="block text-xs text-slate-500">{r.actor_email}</span>
          </span>
        ) : (
          t('audit.system')
        ),
    },
    {
      key: 'entity',
      header: t('audit.columns.entity'),
      render: (r) => (
        <span>
          <span className="block text-xs text-slate-500">
            {entity(r.entity_type)} #{r.entity_id}
          </span>
          {r.entity_name ? <span className="font-medium text-slate-900">{r.entity_name}</span> : null}
        </span>
      ),
    },
    { key: 'action', header: t('audit.columns.action'), render: (r) => action(r.action) },
    {
      key: 'changes',
      header: t('audit.columns.changes'),
      render: (r) =>
        r.changes.length ? (
          <dl className="grid gap-x-3 gap-y-0.5 text-xs sm:grid-cols-[minmax(6rem,auto)_1fr]">
            {shownChanges(r.changes).map((c) => (
              <div key={c.field} className="contents">
                <dt className="font-medium text-slate-700">{field(c.field)}</dt>
                <dd className="break-words text-slate-600">
                  <span className="line-through decoration-slate-400">{text(c.before)}</span>
                  <span aria-hidden="true"> → </span>
                  <span className="sr-only">{t('audit.columns.after')}: </span>
                  <span className="text-slate-900">{text(c.after)}</span>
                </dd>
              </div>
            ))}
          </dl>
        ) : (
          '—'
        ),
    },
  ];
  return (
    <div className="mx-auto max-w-7xl">
      <PageHeader title={t('audit.title')} description={t('audit.intro')} />
      <FiltersBar exportHref={exportHref}>
        <FilterSearch
          name="user"
          label={t('audit.filters.user')}
          placeholder={t('audit.filters.user_placeholder')}
        />
        <FilterSelect
          name="entity_type"
          label={t('audit.filters.entity')}
          any={t('audit.filters.any_entity')}
          options={choices.entity_types.map((v) => ({ value: v, label: entity(v) }))}
        />
        <FilterSelect
          name="action"
          label={t('audit.filters.action')}
          any={t('audit.filters.any_action')}
          options={choices.actions.map((v) => ({ value: v, label: action(v) }))}
        />
        <FilterDate name="from" label={t('audit.filters.from')} />
        <FilterDate name="to" label={t('audit.filters.to')} />
      </FiltersBar>
      <DataTable
        rows={list.items}
        columns={columns}
        rowId={(r) => String(r.id)}
        meta={list.meta}
        caption={t('audit.title')}
        empty={<EmptyState message={t('audit.empty')} />}
      />
    </div>
  );
}
