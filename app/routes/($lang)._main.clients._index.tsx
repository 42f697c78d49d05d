import {
  json,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/cloudflare';
import { Link, useActionData, useLoaderData, useLocation, useSearchParams } from '@remix-run/react';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { can, canAny } from '@server/domain/access/actor';
import {
  CLIENT_ACTIONS,
  CLIENT_TABS,
  CLIENT_TYPES,
  PAYMENT_TERMS,
  clientListQuerySchema,
  type ClientAction,
  type ClientTab,
} from '@server/domain/clients/schema';
import {
  clientMetadata,
  clientSummary,
  listClients,
  ownClientsOnly,
  type ClientListRow,
} from '@server/domain/clients/queries';
import { CLIENT_SAVE_FAILED } from '@server/domain/clients/saving';
import { bulkClientAction } from '@server/domain/clients/status';
import { clientBulkActionsFor } from '@server/domain/clients/tabs';
import { isDomainError, type DomainError, ValidationFailed } from '@server/domain/errors';
import { requirePermissions } from '~/lib/guards.server';
import { bulkSelectionOf, queryOf } from '~/lib/lists.server';
import { pageTitle } from '~/lib/meta';
import { formatDate } from '~/lib/dates';
import { useMessage } from '~/lib/messages';
import { localePath } from '~/i18n/config';
import { Label, inputClass } from '~/components/forms';
import { ButtonLink } from '~/components/ui/button';
import { Alert, PageHeader } from '~/components/ui/card';
import { DataTable, type Column, type Selection } from '~/components/ui/data-table';
import { BulkActionBar, FiltersBar, useExportHref } from '~/components/ui/list-controls';
import { useActionSnack } from '~/components/ui/snackbar';
import { SummaryTiles } from '~/components/ui/summary-tiles';
import { ClientStatusBadge, LinkTabs } from '~/components/clients/client-bits';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const ctx = requirePermissions(request, context, 'read_client');
  const raw = queryOf(request);
  const query = clientListQuerySchema.parse({ ...raw, tab: raw.tab ?? 'active' });
  const [list, summary, metadata] = await Promise.all([
    listClients(ctx, query),
    clientSummary(ctx, query),
    clientMetadata(ctx),
  ]);
  const actions = clientBulkActionsFor(ctx.actor, query.tab as ClientTab);
  return json({
    list,
    summary,
    tab: query.tab as ClientTab,
    managers: metadata.account_managers.map((m) => ({ id: m.id, name: m.name })),
    ownListOnly: ownClientsOnly(ctx.actor, query),
    canCreate: can(ctx.actor, 'create_client'),
    canAddContract: canAny(ctx.actor, 'create_service_agreement'),
    actions,
    title: pageTitle(context, request, 'clients.title'),
  });
}

/** The bulk actions of the bar (archive, activate, reactivate, delete, request onboarding). */
export async function action({ request, context }: ActionFunctionArgs) {
  const ctx = requirePermissions(request, context, 'read_client');
  const form = await request.formData();
  const intent = String(form.get('intent') ?? '') as ClientAction;
  if (!CLIENT_ACTIONS.includes(intent))
    return json(
      { ok: false as const, error: 'clients.errors.action_invalid', result: null },
      { status: 400 },
    );
  const { selection, filters } = bulkSelectionOf(form);
  try {
    const result = await bulkClientAction(ctx, {
      action: intent,
      ids: selection.all_matching ? undefined : selection.ids,
      all_matching: selection.all_matching,
      // The list's default tab is active: 'all matching' without a tab means the active tab.
      filters: { tab: 'active', ...filters },
    });
    return json({ ok: true as const, error: null, result });
  } catch (e) {
    if (!isDomainError(e)) throw e;
    const message = e instanceof ValidationFailed ? e.errors[0]?.message : (e as DomainError).message;
    return json(
      { ok: false as const, error: message ?? CLIENT_SAVE_FAILED, result: null },
      { status: e.status },
    );
  }
}

export default function ClientsList() {
  const { t, i18n } = useTranslation();
  const m = useMessage();
  const { list, summary, tab, managers, ownListOnly, canCreate, canAddContract, actions } =
    useLoaderData<typeof loader>();
  const done = useActionData<typeof action>();
  const [params] = useSearchParams();
  const location = useLocation();
  // Without a tab in the address both the list and its export show the active tab.
  const exportHref = useExportHref();
  const [selection, setSelection] = useState<Selection>({ ids: [], allMatching: false });
  const onSelection = useCallback((s: Selection) => setSelection(s), []);
  const to = (path: string) => localePath(i18n.language, path);
  useActionSnack(
    done?.ok && done.result && done.result.done > 0 ? done : null,
    'success',
    done?.ok && done.result
      ? t(done.result.action === 'delete' ? 'clients.bulk.done_delete' : 'clients.bulk.done', {
          count: done.result.done,
        })
      : null,
  );

  const tabHref = (key: string) => {
    const next = new URLSearchParams();
    next.set('tab', key);
    return `${location.pathname}?${next}`;
  };
  const columns: Column<ClientListRow>[] = [
    {
      key: 'name',
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
      header: t('clients.columns.type'),
      sort: 'type',
      render: (r) => t(`clients.types.${r.type}`),
    },
    {
      key: 'status',
      header: t('clients.columns.status'),
      sort: 'status',
      render: (r) => <ClientStatusBadge status={r.status} />,
    },
    {
      key: 'owner',
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
      header: t('clients.columns.account_manager'),
      render: (r) => r.account_manager?.name ?? '—',
    },
    {
      key: 'campuses',
      header: t('clients.columns.campuses'),
      sort: 'campuses',
      className: 'text-right',
      render: (r) => r.campuses,
    },
    {
      key: 'created_at',
      header: t('clients.columns.created_at'),
      sort: 'created_at',
      render: (r) => formatDate(r.created_at),
    },
  ];
  const bulkActions = actions.map((a) => ({
    intent: a,
    label: t(`clients.bulk.${a}`),
    tone: a === 'delete' ? ('danger' as const) : ('secondary' as const),
    confirm:
      a === 'delete'
        ? t('clients.bulk.confirm_delete')
        : a === 'archive'
          ? t('clients.bulk.confirm_archive')
          : undefined,
  }));
  const single = !selection.allMatching && selection.ids.length === 1 ? selection.ids[0] : null;
  const selectValue = (name: string) => params.get(name) ?? '';

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
      {done?.ok && done.result?.skipped.length ? (
        <div className="mb-4">
          <Alert tone={done.result.done ? 'info' : 'error'}>
            <p className="font-medium">
              {done.result.done ? '' : `${t('clients.bulk.none_done')} `}
              {t('clients.bulk.skipped', { count: done.result.skipped.length })}
            </p>
            <ul className="mt-1 list-disc pl-5">
              {done.result.skipped.slice(0, 20).map((s) => (
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
        <div>
          <Label htmlFor="f-search">{t('clients.filters.search')}</Label>
          <input
            id="f-search"
            name="search"
            type="search"
            defaultValue={selectValue('search')}
            placeholder={t('clients.filters.search_placeholder')}
            className={inputClass}
          />
        </div>
        <div>
          <Label htmlFor="f-status">{t('clients.filters.status')}</Label>
          <select id="f-status" name="status" defaultValue={selectValue('status')} className={inputClass}>
            <option value="">{t('clients.filters.any')}</option>
            {CLIENT_TABS[tab].map((s) => (
              <option key={s} value={s}>
                {t(`clients.statuses.${s}`)}
              </option>
            ))}
          </select>
        </div>
        <div>
          <Label htmlFor="f-type">{t('clients.filters.type')}</Label>
          <select id="f-type" name="type" defaultValue={selectValue('type')} className={inputClass}>
            <option value="">{t('clients.filters.any')}</option>
            {CLIENT_TYPES.map((v) => (
              <option key={v} value={v}>
                {t(`clients.types.${v}`)}
              </option>
            ))}
          </select>
        </div>
        <div>
          <Label htmlFor="f-terms">{t('clients.filters.payment_terms')}</Label>
          <select
            id="f-terms"
            name="payment_terms"
            defaultValue={selectValue('payment_terms')}
            className={inputClass}
          >
            <option value="">{t('clients.filters.any')}</option>
            {PAYMENT_TERMS.map((v) => (
              <option key={v} value={v}>
                {t(`clients.payment_terms.${v}`)}
              </option>
            ))}
          </select>
        </div>
        {!ownListOnly ? (
          <div>
            <Label htmlFor="f-manager">{t('clients.filters.account_manager')}</Label>
            <select
              id="f-manager"
              name="account_manager"
              defaultValue={selectValue('account_manager')}
              className={inputClass}
            >
              <option value="">{t('clients.filters.any')}</option>
              {managers.map((mgr) => (
                <option key={mgr.id} value={mgr.id}>
                  {mgr.name}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        <div>
          <Label htmlFor="f-from">{t('clients.filters.created_from')}</Label>
          <input
            id="f-from"
            name="created_from"
            type="date"
            defaultValue={selectValue('created_from')}
            className={inputClass}
          />
        </div>
        <div>
          <Label htmlFor="f-to">{t('clients.filters.created_to')}</Label>
          <input
            id="f-to"
            name="created_to"
            type="date"
            defaultValue={selectValue('created_to')}
            className={inputClass}
          />
        </div>
        <label className="flex items-center gap-2 self-end pb-2.5 text-sm text-slate-700">
          {/* Unchecked sends the 0, checked the 1 after it: an account manager can clear their default. */}
          <input type="hidden" name="account_manager_clients" value="0" />
          <input
            type="checkbox"
            name="account_manager_clients"
            value="1"
            defaultChecked={ownListOnly}
            className="h-4 w-4 rounded border-slate-300 text-primary-700"
          />
          {t('clients.filters.my_clients')}
        </label>
      </FiltersBar>
      {single && canAddContract ? (
        <div className="mb-3 flex justify-end">
          <ButtonLink to={to(`/clients/${single}/service-agreement/create`)} variant="secondary">
            {t('clients.bulk.add_contract')}
          </ButtonLink>
        </div>
      ) : null}
      <DataTable
        rows={list.items}
        columns={columns}
        rowId={(r) => r.id}
        meta={list.meta}
        selectable={bulkActions.length > 0 || canAddContract}
        onSelectionChange={onSelection}
        caption={t('clients.title')}
        empty={
          params.toString() && params.toString() !== `tab=${tab}`
            ? t('clients.empty')
            : t('clients.empty_tab')
        }
      />
      <BulkActionBar selection={selection} total={list.meta.total} actions={bulkActions} />
    </div>
  );
}
