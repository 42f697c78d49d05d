/**
 * /insured-applicants (spec 000 s.2, "applicants of a health-insurance partner"; side menu
 * Configurations → partner applicants): the people the partner referred, as it sent them, whether each
 * awaits a policy or carries one; searched, filtered by status and day received, and exported to Excel.
 */
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare';
import { Link, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { PARTNER_APPLICANT_STATUSES } from '@server/domain/applicants/values';
import { listPartnerApplicants, READ_PARTNER_APPLICANTS } from '~/lib/applicants.server';
import { partnerApplicantsQuerySchema } from '~/lib/schemas.server';
import { pageLoader } from '~/lib/loaders.server';
import { pageTitle } from '~/lib/meta';
import { formatDate } from '~/lib/dates';
import { localePath } from '~/i18n/config';
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
import { StatusBadge } from '~/components/ui/status-badge';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: READ_PARTNER_APPLICANTS,
    query: partnerApplicantsQuerySchema,
    async load({ ctx, request, context, query }) {
      return {
        title: pageTitle(context, request, 'partner_applicants.title'),
        list: await listPartnerApplicants(ctx, query),
      };
    },
  })(args);

type Row = ReturnType<typeof useLoaderData<typeof loader>>['list']['items'][number];

export default function PartnerApplicants() {
  const { t, i18n } = useTranslation();
  const { list } = useLoaderData<typeof loader>();
  const exportHref = useExportHref();
  const columns: Column<Row>[] = [
    {
      key: 'name',
      card: 'title',
      header: t('partner_applicants.columns.name'),
      className: 'min-w-[13rem]',
      render: (r) => (
        <span className="block min-w-0">
          <span className="block font-medium text-slate-900">
            {r.first_name} {r.last_name}
          </span>
          {r.email ? <span className="block break-words text-xs text-slate-500">{r.email}</span> : null}
        </span>
      ),
    },
    {
      key: 'status',
      card: 'status',
      header: t('partner_applicants.columns.status'),
      render: (r) => (
        <StatusBadge tone={r.status === 'enrolled' ? 'green' : 'amber'}>
          {t(`partner_applicants.statuses.${r.status}`)}
        </StatusBadge>
      ),
    },
    {
      key: 'reference',
      card: 'figure',
      header: t('partner_applicants.columns.reference'),
      render: (r) => r.partner_reference,
    },
    {
      key: 'dob',
      card: 'hidden',
      header: t('partner_applicants.columns.date_of_birth'),
      className: 'whitespace-nowrap',
      render: (r) => formatDate(r.date_of_birth),
    },
    {
      key: 'school',
      card: 'hidden',
      header: t('partner_applicants.columns.school'),
      render: (r) => r.school_name ?? '—',
    },
    {
      key: 'cover',
      card: 'figure',
      header: t('partner_applicants.columns.cover'),
      render: (r) => (
        <>
          <span className="whitespace-nowrap">{formatDate(r.start_date)} –</span>{' '}
          <span className="whitespace-nowrap">{formatDate(r.end_date)}</span>
        </>
      ),
    },
    {
      key: 'policy',
      card: 'figure',
      header: t('partner_applicants.columns.policy'),
      render: (r) =>
        r.policy ? (
          <Link
            to={localePath(i18n.language, `/insureds/${r.policy.id}/insured_details`)}
            className="font-medium text-primary-700 underline"
          >
            {r.policy.policy_number}
          </Link>
        ) : (
          '—'
        ),
    },
    {
      key: 'received',
      card: 'hidden',
      header: t('partner_applicants.columns.received'),
      className: 'whitespace-nowrap',
      render: (r) => <time dateTime={r.received_at}>{formatDate(r.received_at)}</time>,
    },
  ];
  return (
    <div className="mx-auto max-w-7xl">
      <PageHeader title={t('partner_applicants.title')} description={t('partner_applicants.intro')} />
      <FiltersBar exportHref={exportHref}>
        <FilterSearch
          label={t('partner_applicants.filters.search')}
          placeholder={t('partner_applicants.filters.search_placeholder')}
        />
        <FilterSelect
          name="status"
          label={t('partner_applicants.filters.status')}
          any={t('partner_applicants.filters.any_status')}
          options={PARTNER_APPLICANT_STATUSES.map((s) => ({
            value: s,
            label: t(`partner_applicants.statuses.${s}`),
          }))}
        />
        <FilterDate name="from" label={t('partner_applicants.filters.from')} />
        <FilterDate name="to" label={t('partner_applicants.filters.to')} />
      </FiltersBar>
      <DataTable
        rows={list.items}
        columns={columns}
        rowId={(r) => r.id}
        meta={list.meta}
        caption={t('partner_applicants.title')}
        empty={<EmptyState message={t('partner_applicants.empty')} />}
      />
    </div>
  );
}
