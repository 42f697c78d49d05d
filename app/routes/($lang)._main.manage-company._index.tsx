import {
  json,
  type LoaderFunctionArgs,
  type MetaFunction,
  type ActionFunctionArgs,
} from '@remix-run/cloudflare';
import { Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { can } from '@server/domain/access/actor';
import { canArchive } from '@server/domain/access/archiving';
import { COMPANY_CURRENCIES } from '@server/domain/companies/values';
import { companyListSchema, companyStatusSchema, idSchema } from '~/lib/schemas.server';
import {
  companiesSummary,
  getCompany,
  listCompanies,
  updateCompanyStatus,
} from '@server/domain/companies/service';
import { formAction } from '~/lib/actions';
import { pageTitle } from '~/lib/meta';
import { useMessage } from '~/lib/messages';
import { localePath } from '~/i18n/config';
import { AppForm } from '~/components/fields';
import { ButtonLink } from '~/components/ui/button';
import { Alert, PageHeader } from '~/components/ui/card';
import { DataTable, type Column } from '~/components/ui/data-table';
import {
  EmptyState,
  FilterSearch,
  FilterSelect,
  FiltersBar,
  useExportHref,
} from '~/components/ui/list-controls';
import { StatusBadge, statusTone } from '~/components/ui/status-badge';
import { SummaryTiles } from '~/components/ui/summary-tiles';
import { ConfirmButton } from '~/components/ui/confirm';
import { pageLoader } from '~/lib/loaders.server';
import { msg } from '@server/domain/messages';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_company',
    query: companyListSchema,
    async load({ ctx, request, context, query }) {
      const [list, summary] = await Promise.all([listCompanies(ctx, query), companiesSummary(ctx)]);
      return json({
        list,
        summary,
        allCompanies: ctx.actor.selected_company_id === null,
        canCreate: can(ctx.actor, 'create_company'),
        canArchive: canArchive(ctx.actor, 'company'),
        title: pageTitle(context, request, 'companies.title'),
      });
    },
  })(args);

/** Activate or archive one company from its row. */
export const action = (args: ActionFunctionArgs) =>
  formAction({
    schema: idSchema.merge(companyStatusSchema),
    permission: 'archive_company|update_company',
    // Archiving takes the company out of the switcher: it asks first; activating does not.
    confirm: {
      question: async ({ id }: { id: string }, { ctx }) =>
        msg('companies.archive_confirm', { name: (await getCompany(ctx, id)).name }),
      button: 'companies.archive',
      when: (input: { status: string }) => input.status === 'archived',
    },
    async handle(input, { ctx }) {
      await updateCompanyStatus(ctx, input.id, input.status);
      return { toast: input.status === 'active' ? 'companies.activated' : 'companies.archived' };
    },
  })(args);

type Row = ReturnType<typeof useLoaderData<typeof loader>>['list']['items'][number];

export default function ManageCompanies() {
  const { t, i18n } = useTranslation();
  const m = useMessage();
  const { list, summary, allCompanies, canCreate, canArchive } = useLoaderData<typeof loader>();
  const done = useActionData<typeof action>();
  const exportHref = useExportHref();
  const busy = useNavigation().state === 'submitting';
  const to = (path: string) => localePath(i18n.language, path);
  const columns: Column<Row>[] = [
    {
      key: 'name',
      card: 'title',
      header: t('companies.fields.name'),
      sort: 'name',
      render: (r) => (
        <Link
          to={to(`/manage-company/${r.id}/edit`)}
          className="font-medium text-primary-800 hover:underline"
        >
          {r.name}
        </Link>
      ),
    },
    {
      key: 'country',
      card: 'figure',
      header: t('companies.fields.country_id'),
      render: (r) => r.country_name ?? '—',
    },
    {
      key: 'registration',
      card: 'hidden',
      header: t('companies.fields.registration_number'),
      render: (r) => r.registration_number ?? '—',
    },
    {
      key: 'currency',
      card: 'figure',
      header: t('companies.fields.currency'),
      sort: 'currency',
      render: (r) => r.currency,
    },
    {
      key: 'gateway',
      card: 'hidden',
      header: t('companies.fields.payment_gateway'),
      render: (r) => t(`companies.gateways.${r.payment_gateway ?? 'none'}`),
    },
    {
      key: 'users',
      card: 'hidden',
      header: t('companies.summary.users'),
      className: 'text-right',
      render: (r) => r.users_count,
    },
    {
      key: 'clients',
      card: 'figure',
      header: t('companies.summary.clients'),
      className: 'text-right',
      render: (r) => r.clients_count,
    },
    {
      key: 'status',
      card: 'status',
      header: t('companies.fields.status'),
      sort: 'status',
      render: (r) => (
        <StatusBadge tone={statusTone(r.status)}>{t(`companies.statuses.${r.status}`)}</StatusBadge>
      ),
    },
    {
      key: 'actions',
      card: 'actions',
      header: <span className="sr-only">{t('companies.actions')}</span>,
      className: 'text-right',
      render: (r) => (
        <div className="flex justify-end gap-3 whitespace-nowrap">
          <Link
            to={to(`/manage-company/${r.id}/edit`)}
            className="font-medium text-primary-800 hover:underline"
          >
            {t('companies.edit')}
          </Link>
          {canArchive ? (
            <AppForm method="post" preventScrollReset>
              <input type="hidden" name="id" value={r.id} />
              <input type="hidden" name="status" value={r.status === 'active' ? 'archived' : 'active'} />
              {r.status === 'active' ? (
                <ConfirmButton
                  disabled={busy}
                  className="font-medium text-slate-600 hover:text-slate-900 hover:underline"
                  question={t('companies.archive_confirm', { name: r.name })}
                >
                  {t('companies.archive')}
                </ConfirmButton>
              ) : (
                <button
                  type="submit"
                  disabled={busy}
                  className="font-medium text-slate-600 hover:text-slate-900 hover:underline"
                >
                  {t('companies.activate')}
                </button>
              )}
            </AppForm>
          ) : null}
        </div>
      ),
    },
  ];
  return (
    <div className="mx-auto max-w-7xl">
      <PageHeader
        title={t('companies.title')}
        description={allCompanies ? t('companies.intro_all') : t('companies.intro_selected')}
        actions={
          canCreate ? <ButtonLink to={to('/manage-company/new')}>{t('companies.add')}</ButtonLink> : null
        }
      />
      <SummaryTiles
        tiles={[
          { label: t('companies.summary.total'), value: summary.total },
          { label: t('companies.summary.active'), value: summary.active },
          { label: t('companies.summary.archived'), value: summary.archived },
        ]}
      />
      {done && !done.ok && done.error ? (
        <div className="mb-4">
          <Alert>
            <p className="font-semibold">{t('companies.status_failed')}</p>
            <p>{m(done.error)}</p>
          </Alert>
        </div>
      ) : null}
      <FiltersBar exportHref={exportHref}>
        <FilterSearch label={t('companies.search')} placeholder={t('companies.search_placeholder')} />
        <FilterSelect
          name="status"
          label={t('companies.fields.status')}
          any={t('companies.statuses.all')}
          options={(['active', 'archived'] as const).map((v) => ({
            value: v,
            label: t(`companies.statuses.${v}`),
          }))}
        />
        <FilterSelect
          name="currency"
          label={t('companies.fields.currency')}
          any={t('companies.all_currencies')}
          options={COMPANY_CURRENCIES.map((c) => ({ value: c, label: c }))}
        />
      </FiltersBar>
      <DataTable
        rows={list.items}
        columns={columns}
        rowId={(r) => r.id}
        meta={list.meta}
        caption={t('companies.title')}
        empty={
          <EmptyState
            message={t('table.empty')}
            action={
              canCreate ? (
                <Link to={to('/manage-company/new')} className="font-medium text-primary-800 hover:underline">
                  {t('companies.add')}
                </Link>
              ) : null
            }
          />
        }
      />
    </div>
  );
}
