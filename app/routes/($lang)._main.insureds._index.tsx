/**
 * /insureds, the default landing page (spec 001 s.2 "Insureds list"): every issued policy the user may
 * see, the spec's filters (plus client, campus, group name and type for company users), the summary by
 * status as chips, sorting and paging, the selection (rows or all matching) and the bulk actions. Each
 * bulk action is a page of its own (`action`), which receives the selection.
 */
import { json, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare';
import { Link, useLoaderData, useSearchParams } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { can } from '@server/domain/access/actor';
import { APPLICANT_TYPES } from '@db/schema/ordering-enums';
import { policyListQuerySchema } from '@server/domain/policies/list-query';
import { POLICY_LIST_STATUSES } from '@server/domain/policies/status';
import { policyOverview } from '@server/domain/policies/overview';
import { listPolicies, policyFilterOptions, type PolicyListRow } from '@server/domain/policies/service';
import { lenientQuery, queryOf } from '~/lib/lists.server';
import { pageTitle } from '~/lib/meta';
import { formatDate } from '~/lib/dates';
import { localePath } from '~/i18n/config';
import { ButtonLink } from '~/components/ui/button';
import { PageHeader } from '~/components/ui/card';
import { DataTable, type Column } from '~/components/ui/data-table';
import {
  BulkActionBar,
  type BulkAction,
  EmptyState,
  FilterDate,
  FilterSearch,
  FilterSelect,
  FiltersBar,
  useExportHref,
  useSelection,
} from '~/components/ui/list-controls';
import { PolicyStatusBadge, StatusChips, TripDates } from '~/components/insureds/insured-bits';
import { pageLoader } from '~/lib/loaders.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_policy',
    async load({ ctx, request, context }) {
      const query = lenientQuery(policyListQuerySchema, queryOf(request));
      const [list, { summary, group_names: groups }, options] = await Promise.all([
        listPolicies(ctx, query),
        policyOverview(ctx),
        policyFilterOptions(ctx),
      ]);
      const a = ctx.actor;
      return json({
        list,
        summary,
        options,
        groups,
        staff: a.user_type === 'company',
        can: {
          order: can(a, 'create_insured'),
          amend: can(a, 'update_policy'),
          cancel: can(a, 'update_policy'),
          documents: can(a, 'download_policy_document'),
          welcome: can(a, 'update_insured'),
          note: can(a, 'update_insured'),
        },
        title: pageTitle(context, request, 'insureds.title'),
      });
    },
  })(args);

/** The filters under "More filters" (open when one of them is set). */
const MORE_FILTERS = [
  'residence_country',
  'product',
  'client',
  'campus',
  'group_name',
  'type',
  'start_from',
  'start_to',
  'end_from',
  'end_to',
  'issued_from',
  'issued_to',
  'booking_from',
  'booking_to',
];

export default function Insureds() {
  const [params] = useSearchParams();
  const { t, i18n } = useTranslation();
  const data = useLoaderData<typeof loader>();
  const exportHref = useExportHref();
  const { selection, onChange, form } = useSelection();
  const to = (path: string) => localePath(i18n.language, path);
  const { staff } = data;

  // Status right after the name, where it is read first; client and campus a quiet line under the name;
  // the figures a person scans next (trip dates, group) before the ones they seldom need.
  const columns: Column<PolicyListRow>[] = [
    {
      key: 'policy_number',
      header: t('insureds.fields.policy_id'),
      sort: 'policy_number',
      card: 'figure',
      render: (r) => (
        <Link
          to={to(`/insureds/${r.id}/insured_details`)}
          className="font-mono text-xs font-semibold text-primary-800 hover:underline"
        >
          {r.policy_number}
        </Link>
      ),
    },
    {
      key: 'name',
      header: t('insureds.fields.name'),
      sort: 'full_name',
      card: 'title',
      render: (r) => (
        <>
          <Link
            to={to(`/insureds/${r.id}/insured_details`)}
            className="whitespace-nowrap font-medium text-slate-900 hover:underline"
          >
            {r.last_name}, {r.first_name}
          </Link>
          <span
            className="block max-w-64 truncate text-xs font-normal text-slate-500"
            title={`${r.client.name} · ${r.campus.name}`}
          >
            {r.client.name} · {r.campus.name}
          </span>
        </>
      ),
    },
    {
      key: 'status',
      header: t('insureds.fields.status'),
      card: 'status',
      render: (r) => <PolicyStatusBadge status={r.status} />,
    },
    {
      key: 'trip',
      header: t('insureds.fields.trip_dates'),
      sort: 'start_date',
      card: 'figure',
      render: (r) => <TripDates start={r.start_date} end={r.end_date} />,
    },
    {
      key: 'group_name',
      header: t('insureds.fields.group_name'),
      card: 'figure',
      render: (r) => <span className="whitespace-nowrap">{r.group_name ?? '—'}</span>,
    },
    {
      key: 'product',
      header: t('insureds.fields.product'),
      card: 'hidden',
      render: (r) => <span className="whitespace-nowrap">{r.product.name}</span>,
    },
    {
      key: 'type',
      header: t('insureds.fields.type'),
      card: 'hidden',
      render: (r) => <span className="whitespace-nowrap">{t(`insureds.types.${r.type}`)}</span>,
    },
    {
      key: 'date_of_birth',
      header: t('insureds.fields.date_of_birth'),
      card: 'hidden',
      render: (r) => <span className="whitespace-nowrap">{formatDate(r.date_of_birth)}</span>,
    },
  ];

  // The common actions first (the bar shows two as buttons, the rest under "More"); cancelling last.
  const bulk: BulkAction[] = [
    ...(data.can.amend
      ? [{ intent: 'extend', label: t('insureds.bulk.extend'), action: to('/insureds/amend/extend') }]
      : []),
    ...(data.can.documents
      ? [{ intent: 'documents', label: t('insureds.bulk.documents'), action: to('/insureds/documents') }]
      : []),
    ...(data.can.amend
      ? [
          {
            intent: 'trip_dates',
            label: t('insureds.bulk.trip_dates'),
            action: to('/insureds/amend/trip-dates'),
          },
          {
            intent: 'group_name',
            label: t('insureds.bulk.group_name'),
            action: to('/insureds/amend/group-name'),
          },
          {
            intent: 'group_leader',
            label: t('insureds.bulk.group_leader'),
            action: to('/insureds/amend/group-leader'),
          },
        ]
      : []),
    ...(data.can.welcome
      ? [
          {
            intent: 'welcome_email',
            label: t('insureds.bulk.welcome_email'),
            action: to('/insureds/welcome-email'),
          },
        ]
      : []),
    ...(data.can.note
      ? [{ intent: 'add_note_select', label: t('insureds.bulk.add_note'), action: to('/insureds/add-note') }]
      : []),
    ...(data.can.cancel
      ? [
          {
            intent: 'cancel',
            label: t('insureds.bulk.cancel'),
            tone: 'danger' as const,
            action: to('/insureds/amend/cancel'),
          },
        ]
      : []),
  ];

  return (
    <div className="mx-auto max-w-7xl">
      <PageHeader
        title={t('insureds.title')}
        description={t('insureds.intro')}
        actions={
          <>
            {data.can.cancel ? (
              <ButtonLink to={to('/insureds/cancel')} variant="secondary">
                {t('insureds.cancel_by_spreadsheet')}
              </ButtonLink>
            ) : null}
            <ButtonLink to={to('/insureds/confirm-enrolment')} variant="secondary">
              {t('reminders.enrolment.title')}
            </ButtonLink>
            {data.can.order ? (
              <ButtonLink to={to('/insureds/order')}>{t('insureds.order')}</ButtonLink>
            ) : null}
          </>
        }
      />
      <StatusChips summary={data.summary} />
      <FiltersBar exportHref={exportHref}>
        <FilterSearch name="policy_id" label={t('insureds.fields.policy_id')} placeholder="P00000001" />
        <FilterSearch name="first_name" label={t('insureds.fields.first_name')} />
        <FilterSearch name="last_name" label={t('insureds.fields.last_name')} />
        <FilterSelect
          name="status"
          label={t('insureds.fields.status')}
          any={t('insureds.statuses.all')}
          options={POLICY_LIST_STATUSES.map((s) => ({ value: s, label: t(`insureds.statuses.${s}`) }))}
        />
        <details
          className="sm:col-span-2 lg:col-span-4"
          open={MORE_FILTERS.some((f) => params.get(f)) || undefined}
        >
          <summary className="cursor-pointer text-sm font-semibold text-primary-800">
            {t('insureds.filters.more')}
          </summary>
          <div className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            <FilterSelect
              name="residence_country"
              label={t('insureds.fields.residence_country')}
              any={t('insureds.filters.any')}
              options={data.options.countries.map((c) => ({ value: c.id, label: c.name }))}
            />
            <FilterSelect
              name="product"
              label={t('insureds.fields.product')}
              any={t('insureds.filters.any')}
              options={data.options.products.map((p) => ({ value: p.id, label: p.name }))}
            />
            {staff ? (
              <FilterSelect
                name="client"
                label={t('insureds.fields.client')}
                any={t('insureds.filters.any')}
                options={data.options.clients.map((c) => ({ value: c.id, label: c.name }))}
              />
            ) : null}
            {staff || data.options.campuses.length > 1 ? (
              <FilterSelect
                name="campus"
                label={t('insureds.fields.campus')}
                any={t('insureds.filters.any')}
                options={data.options.campuses.map((c) => ({
                  value: c.id,
                  label: staff ? `${c.client} · ${c.name}` : c.name,
                }))}
              />
            ) : null}
            {staff ? (
              <>
                <FilterSelect
                  name="group_name"
                  label={t('insureds.fields.group_name')}
                  any={t('insureds.filters.any')}
                  options={data.groups.map((g) => ({ value: g, label: g }))}
                />
                <FilterSelect
                  name="type"
                  label={t('insureds.fields.type')}
                  any={t('insureds.filters.any')}
                  options={APPLICANT_TYPES.map((v) => ({ value: v, label: t(`insureds.types.${v}`) }))}
                />
              </>
            ) : null}
            <FilterDate name="start_from" label={t('insureds.filters.start_from')} />
            <FilterDate name="start_to" label={t('insureds.filters.start_to')} />
            <FilterDate name="end_from" label={t('insureds.filters.end_from')} />
            <FilterDate name="end_to" label={t('insureds.filters.end_to')} />
            <FilterDate name="issued_from" label={t('insureds.filters.issued_from')} />
            <FilterDate name="issued_to" label={t('insureds.filters.issued_to')} />
            <FilterDate name="booking_from" label={t('insureds.filters.booking_from')} />
            <FilterDate name="booking_to" label={t('insureds.filters.booking_to')} />
          </div>
        </details>
      </FiltersBar>
      <DataTable
        rows={data.list.items}
        columns={columns}
        rowId={(r) => r.id}
        meta={data.list.meta}
        selectable={bulk.length > 0}
        bulkForm={form}
        onSelectionChange={onChange}
        caption={t('insureds.title')}
        empty={
          <EmptyState
            message={t('insureds.empty')}
            action={
              data.can.order ? (
                <Link to={to('/insureds/order')} className="font-medium text-primary-800 hover:underline">
                  {t('insureds.order')}
                </Link>
              ) : undefined
            }
          />
        }
      />
      <BulkActionBar form={form} selection={selection} total={data.list.meta.total} actions={bulk} />
    </div>
  );
}
