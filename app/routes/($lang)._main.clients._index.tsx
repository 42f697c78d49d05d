import {
  json,
  type LoaderFunctionArgs,
  type MetaFunction,
  type ActionFunctionArgs,
} from '@remix-run/cloudflare';
import { Link, useActionData, useLoaderData, useLocation, useSearchParams } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { can, canAny } from '@server/domain/access/actor';
import type { ClientAction } from '@server/domain/clients/schema';
import { clientPageQuerySchema } from '~/lib/schemas.server';
import { CLIENT_TABS, type ClientTab } from '@server/domain/clients/values';
import { CLIENT_TYPES, PAYMENT_TERMS } from '@db/enums';
import {
  clientMetadata,
  clientSummary,
  listClients,
  ownClientsOnly,
  type ClientListRow,
} from '@server/domain/clients/queries';
import { bulkClientAction, CLIENT_ACTION_PERMISSIONS } from '@server/domain/clients/status';
import { clientBulkActionsFor, contractClientOf } from '@server/domain/clients/tabs';
import { msg } from '@server/domain/messages';
import { bulkSchema } from '~/lib/lists.server';
import { intentAction, unreachable } from '~/lib/actions';
import { pageTitle } from '~/lib/meta';
import { formatDate } from '~/lib/dates';
import { useMessage } from '~/lib/messages';
import { localePath } from '~/i18n/config';
import { ButtonLink } from '~/components/ui/button';
import { Alert, PageHeader } from '~/components/ui/card';
import { DataTable, type Column } from '~/components/ui/data-table';
import {
  type BulkAction,
  BulkActionBar,
  EmptyState,
  FilterCheckbox,
  FilterDate,
  FilterSearch,
  FilterSelect,
  FiltersBar,
  useExportHref,
  useSelection,
} from '~/components/ui/list-controls';
import { SummaryTiles } from '~/components/ui/summary-tiles';
import { ClientStatusBadge, LinkTabs } from '~/components/clients/client-bits';
import { pageLoader } from '~/lib/loaders.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_client',
    query: clientPageQuerySchema,
    async load({ ctx, request, context, query }) {
      const [list, summary, metadata] = await Promise.all([
        listClients(ctx, query),
        clientSummary(ctx, query),
        clientMetadata(ctx),
      ]);
      const actions = clientBulkActionsFor(ctx.actor, query.tab);
      return json({
        list,
        summary,
        tab: query.tab,
        managers: metadata.account_managers.map((m) => ({ id: m.id, name: m.name })),
        ownListOnly: ownClientsOnly(ctx.actor, query),
        canCreate: can(ctx.actor, 'create_client'),
        canAddContract: canAny(ctx.actor, 'create_service_agreement'),
        canSendMessage: can(ctx.actor, 'create_message'),
        actions,
        title: pageTitle(context, request, 'clients.title'),
      });
    },
  })(args);

/** What asks before acting: deleting, and archiving (which ends the clients' use of the portal). */
const CONFIRM: Partial<Record<ClientAction, string>> = {
  archive: 'clients.bulk.confirm_archive',
  delete: 'clients.bulk.confirm_delete',
};

const bulk = (action: ClientAction) => ({
  schema: bulkSchema,
  permission: CLIENT_ACTION_PERMISSIONS[action],
  confirm: CONFIRM[action]
    ? { question: CONFIRM[action], button: `clients.bulk.confirm_${action}_button` }
    : undefined,
});

/** The status actions' intents. A function, so that no schema is built when the page's scripts load. */
const statusIntents = () =>
  ({
    archive: bulk('archive'),
    activate: bulk('activate'),
    reactivate: bulk('reactivate'),
    request_onboarding: bulk('request_onboarding'),
    delete: bulk('delete'),
  }) satisfies Record<ClientAction, unknown>;

/**
 * The bulk actions of the bar (archive, activate, reactivate, delete, request onboarding), and "Add
 * contract…", which opens the new service agreement of the one client selected.
 */
export const action = (args: ActionFunctionArgs) =>
  intentAction({
    intents: {
      ...statusIntents(),
      add_contract: { schema: bulkSchema, permission: 'create_service_agreement' },
    },
    async handle(input, { ctx, redirect }) {
      switch (input.intent) {
        case 'add_contract':
          return redirect(`/clients/${contractClientOf(input.selection)}/service-agreement/create`);
        case 'archive':
        case 'activate':
        case 'reactivate':
        case 'request_onboarding':
        case 'delete': {
          const { selection, filters } = input;
          const result = await bulkClientAction(ctx, {
            action: input.intent,
            ids: selection.all_matching ? undefined : selection.ids,
            all_matching: selection.all_matching,
            // The list's default tab is active: 'all matching' without a tab means the active tab.
            filters: { tab: 'active', ...filters },
          });
          const key = input.intent === 'delete' ? 'clients.bulk.done_delete' : 'clients.bulk.done';
          return { data: result, toast: result.done > 0 ? msg(key, { count: result.done }) : undefined };
        }
        default:
          return unreachable(input);
      }
    },
  })(args);

export default function ClientsList() {
  const { t, i18n } = useTranslation();
  const m = useMessage();
  const { list, summary, tab, managers, ownListOnly, canCreate, canAddContract, canSendMessage, actions } =
    useLoaderData<typeof loader>();
  const done = useActionData<typeof action>();
  const [params] = useSearchParams();
  const location = useLocation();
  // Without a tab in the address both the list and its export show the active tab.
  const exportHref = useExportHref();
  const { selection, onChange: onSelection, form } = useSelection();
  const to = (path: string) => localePath(i18n.language, path);
  const result = done?.ok ? done.data : null;

  const tabHref = (key: string) => {
    const next = new URLSearchParams();
    next.set('tab', key);
    return `${location.pathname}?${next}`;
  };
  const columns: Column<ClientListRow>[] = [
    {
      key: 'name',
      card: 'title',
      header: t('clients.columns.name'),
      sort: 'name',
      render: (r) => (
        <div>
          <Link to={to(`/clients/${r.id}`)} className="font-medium text-primary-800 hover:underline">
            {r.name}
          </Link>
          <p className="text-xs text-slate-500">{r.company}</p>
        </div>
      ),
    },
    {
      key: 'type',
      card: 'figure',
      header: t('clients.columns.type'),
      sort: 'type',
      render: (r) => t(`clients.types.${r.type}`),
    },
    {
      key: 'status',
      card: 'status',
      header: t('clients.columns.status'),
      sort: 'status',
      render: (r) => <ClientStatusBadge status={r.status} />,
    },
    {
      key: 'owner',
      card: 'hidden',
      header: t('clients.columns.owner'),
      render: (r) =>
        r.owner_contact.name ? (
          <div>
            <p>{r.owner_contact.name}</p>
            {r.owner_contact.email ? <p className="text-xs text-slate-500">{r.owner_contact.email}</p> : null}
          </div>
        ) : (
          '—'
        ),
    },
    {
      key: 'account_manager',
      card: 'figure',
      header: t('clients.columns.account_manager'),
      render: (r) => r.account_manager?.name ?? '—',
    },
    {
      key: 'campuses',
      card: 'figure',
      header: t('clients.columns.campuses'),
      sort: 'campuses',
      className: 'text-right',
      render: (r) => r.campuses,
    },
    {
      key: 'created_at',
      card: 'hidden',
      header: t('clients.columns.created_at'),
      sort: 'created_at',
      render: (r) => formatDate(r.created_at),
    },
  ];
  const bulkActions: BulkAction[] = [
    // A page of its own for the one client selected; first, as it builds where the others undo.
    ...(canAddContract ? [{ intent: 'add_contract', label: t('clients.bulk.add_contract'), one: true }] : []),
    // One conversation per selected client, asked for on a page of its own.
    ...(canSendMessage
      ? [
          {
            intent: 'send_message_select',
            label: t('clients.bulk.send_message'),
            action: to('/message-centre/send'),
          },
        ]
      : []),
    ...actions.map((a) => ({
      intent: a,
      label: t(`clients.bulk.${a}`),
      tone: a === 'delete' || a === 'archive' ? ('danger' as const) : undefined,
      confirm: CONFIRM[a] ? t(CONFIRM[a]) : undefined,
    })),
  ];

  return (
    <div>
      <PageHeader
        title={t('clients.title')}
        actions={canCreate ? <ButtonLink to={to('/clients/new')}>{t('clients.add')}</ButtonLink> : null}
      />
      <SummaryTiles
        tiles={[
          { label: t('clients.summary.total'), value: summary.total },
          { label: t('clients.summary.active'), value: summary.active },
          { label: t('clients.summary.onboarding'), value: summary.onboarding },
          { label: t('clients.summary.archived'), value: summary.archived },
        ]}
      />
      <LinkTabs
        label={t('clients.title')}
        current={tab}
        tabs={(Object.keys(CLIENT_TABS) as ClientTab[]).map((key) => ({
          key,
          label: t(`clients.tabs.${key}`),
          href: tabHref(key),
          count: summary[key],
        }))}
      />
      {done && !done.ok && done.error ? (
        <div className="mb-4">
          <Alert>{m(done.error)}</Alert>
        </div>
      ) : null}
      {result?.skipped.length ? (
        <div className="mb-4">
          <Alert tone={result.done ? 'info' : 'error'}>
            <p className="font-medium">
              {result.done ? '' : `${t('clients.bulk.none_done')} `}
              {t('clients.bulk.skipped', { count: result.skipped.length })}
            </p>
            <ul className="mt-1 list-disc pl-5">
              {result.skipped.slice(0, 20).map((s) => (
                <li key={s.id}>
                  {s.name}: {m(s.reason)}
                </li>
              ))}
            </ul>
          </Alert>
        </div>
      ) : null}
      <FiltersBar exportHref={exportHref}>
        <input type="hidden" name="tab" value={tab} />
        <FilterSearch
          label={t('clients.filters.search')}
          placeholder={t('clients.filters.search_placeholder')}
        />
        <FilterSelect
          name="status"
          label={t('clients.filters.status')}
          any={t('clients.filters.any')}
          options={CLIENT_TABS[tab].map((v) => ({ value: v, label: t(`clients.statuses.${v}`) }))}
        />
        <FilterSelect
          name="type"
          label={t('clients.filters.type')}
          any={t('clients.filters.any')}
          options={CLIENT_TYPES.map((v) => ({ value: v, label: t(`clients.types.${v}`) }))}
        />
        <FilterSelect
          name="payment_terms"
          label={t('clients.filters.payment_terms')}
          any={t('clients.filters.any')}
          options={PAYMENT_TERMS.map((v) => ({ value: v, label: t(`clients.payment_terms.${v}`) }))}
        />
        {!ownListOnly ? (
          <FilterSelect
            name="account_manager"
            label={t('clients.filters.account_manager')}
            any={t('clients.filters.any')}
            options={managers.map((mgr) => ({ value: mgr.id, label: mgr.name }))}
          />
        ) : null}
        <FilterDate name="created_from" label={t('clients.filters.created_from')} />
        <FilterDate name="created_to" label={t('clients.filters.created_to')} />
        {!ownListOnly ? (
          <FilterCheckbox name="account_manager_clients" label={t('clients.filters.my_clients')} />
        ) : null}
      </FiltersBar>
      <DataTable
        rows={list.items}
        columns={columns}
        rowId={(r) => r.id}
        meta={list.meta}
        selectable={bulkActions.length > 0}
        bulkForm={form}
        onSelectionChange={onSelection}
        caption={t('clients.title')}
        empty={
          params.toString() && params.toString() !== `tab=${tab}` ? (
            <EmptyState message={t('clients.empty')} />
          ) : (
            <EmptyState
              message={t('clients.empty_tab')}
              action={
                canCreate && tab !== 'archived' ? (
                  <Link to={to('/clients/new')} className="font-medium text-primary-800 hover:underline">
                    {t('clients.add')}
                  </Link>
                ) : null
              }
            />
          )
        }
      />
      <BulkActionBar form={form} selection={selection} total={list.meta.total} actions={bulkActions} />
    </div>
  );
}
