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
import { InvoiceLink } from '~/components/invoices/invoice-link';
import { ActivityLog, ChangeList } from '~/components/activity/activity-log';
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
  const { action, entity } = useAuditLabels();
  const rows = list.items.map((r) => ({ ...r, changes: shownChanges(r.changes) }));
  const subject = (r: Row) => (
    <span>
      <span className="block text-xs text-slate-500">
        {entity(r.entity_type)} #{r.entity_id}
      </span>
      {r.entity_name && r.entity_type === 'invoice' ? (
        <InvoiceLink number={r.entity_name} variant="value" />
      ) : r.entity_name ? (
        <span className="font-medium text-slate-900">{r.entity_name}</span>
      ) : null}
    </span>
  );
  const columns: Column<Row>[] = [
    {
      key: 'when',
      card: 'figure',
      header: t('audit.columns.when'),
      className: 'whitespace-nowrap',
      render: (r) => <time dateTime={r.created_at}>{formatDateTime(r.created_at)}</time>,
    },
    {
      key: 'who',
      card: 'title',
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
    { key: 'entity', card: 'figure', header: t('audit.columns.entity'), render: subject },
    { key: 'action', card: 'status', header: t('audit.columns.action'), render: (r) => action(r.action) },
    {
      key: 'changes',
      card: 'wide',
      header: t('audit.columns.changes'),
      className: 'min-w-[20rem]',
      render: (r) =>
        r.changes.length ? <ChangeList row={r} changes={r.changes} className="text-xs" /> : '—',
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
      {/* On a phone each change is a card; the table's columns would not fit. */}
      <div className="sm:hidden">
        <ActivityLog rows={rows} meta={list.meta} subject={(r) => subject(r as Row)} />
      </div>
      <div className="hidden sm:block">
        <DataTable
          rows={rows}
          columns={columns}
          rowId={(r) => String(r.id)}
          meta={list.meta}
          caption={t('audit.title')}
          empty={<EmptyState message={t('audit.empty')} />}
        />
      </div>
    </div>
  );
}
