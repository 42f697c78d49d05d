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
import { REGION_CODES } from '@db/enums';
import { countryListSchema, countryStatusSchema, rowIdSchema } from '~/lib/schemas.server';
import { countriesSummary, listCountries, updateCountryStatus } from '@server/domain/countries/service';
import { formAction } from '~/lib/actions';
import { pageTitle } from '~/lib/meta';
import { localePath } from '~/i18n/config';
import { AppForm, FormErrors } from '~/components/fields';
import { ButtonLink } from '~/components/ui/button';
import { PageHeader } from '~/components/ui/card';
import { DataTable, type Column } from '~/components/ui/data-table';
import {
  EmptyState,
  FilterSearch,
  FilterSelect,
  FiltersBar,
  useExportHref,
} from '~/components/ui/list-controls';
import { StatusBadge, statusTone } from '~/components/ui/status-badge';
import { taxLabel } from '~/components/countries/country-bits';
import { SummaryTiles } from '~/components/ui/summary-tiles';
import { pageLoader } from '~/lib/loaders.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_country',
    query: countryListSchema,
    async load({ ctx, request, context, query }) {
      const [list, summary] = await Promise.all([listCountries(ctx, query), countriesSummary(ctx)]);
      return json({
        list,
        summary,
        canCreate: can(ctx.actor, 'create_country'),
        canArchive: canArchive(ctx.actor, 'country'),
        title: pageTitle(context, request, 'countries.title'),
      });
    },
  })(args);

/** Activate or archive one country from its row. */
export const action = (args: ActionFunctionArgs) =>
  formAction({
    schema: rowIdSchema.merge(countryStatusSchema),
    permission: 'archive_country|update_country',
    async handle(input, { ctx }) {
      await updateCountryStatus(ctx, input.id, input.status);
      return { toast: input.status === 'active' ? 'countries.activated' : 'countries.archived' };
    },
  })(args);

type Row = Awaited<ReturnType<typeof listCountries>>['items'][number];

export default function ManageCountries() {
  const { t, i18n } = useTranslation();
  const { list, summary, canCreate, canArchive } = useLoaderData<typeof loader>();
  const done = useActionData<typeof action>();
  const exportHref = useExportHref();
  const busy = useNavigation().state === 'submitting';
  const to = (path: string) => localePath(i18n.language, path);
  const columns: Column<Row>[] = [
    {
      key: 'name',
      card: 'title',
      header: t('countries.name'),
      sort: 'name',
      render: (r) => (
        <Link to={to(`/manage-countries/${r.id}`)} className="font-medium text-primary-800 hover:underline">
          {r.name}
        </Link>
      ),
    },
    {
      key: 'abbreviation',
      card: 'hidden',
      header: t('countries.abbreviation'),
      sort: 'abbreviation',
      render: (r) => r.abbreviation,
    },
    { key: 'code', card: 'figure', header: t('countries.code'), sort: 'code', render: (r) => r.code },
    {
      key: 'region',
      card: 'hidden',
      header: t('countries.region'),
      sort: 'region_code',
      render: (r) => (r.region_code ? t(`countries.regions.${r.region_code}`) : '—'),
    },
    {
      key: 'currency',
      card: 'figure',
      header: t('countries.currency'),
      sort: 'currency_code',
      render: (r) => (r.currency_code ? `${r.currency_code} ${r.currency_symbol ?? ''}`.trim() : '—'),
    },
    { key: 'tax', card: 'figure', header: t('countries.tax'), render: (r) => taxLabel(r) ?? '—' },
    {
      key: 'status',
      card: 'status',
      header: t('countries.status'),
      sort: 'status',
      render: (r) => (
        <StatusBadge tone={statusTone(r.status)}>{t(`countries.statuses.${r.status}`)}</StatusBadge>
      ),
    },
    {
      key: 'actions',
      card: 'actions',
      header: <span className="sr-only">{t('countries.actions')}</span>,
      className: 'text-right',
      render: (r) => (
        <div className="flex justify-end gap-3">
          <Link to={to(`/manage-countries/${r.id}`)} className="font-medium text-primary-800 hover:underline">
            {t('countries.edit')}
          </Link>
          {canArchive ? (
            <AppForm method="post" preventScrollReset>
              <input type="hidden" name="id" value={r.id} />
              <input type="hidden" name="status" value={r.status === 'active' ? 'archived' : 'active'} />
              <button
                type="submit"
                disabled={busy}
                className="font-medium text-slate-600 hover:text-slate-900 hover:underline"
                aria-label={t(
                  r.status === 'active' ? 'countries.archive_named' : 'countries.activate_named',
                  {
                    name: r.name,
                  },
                )}
              >
                {t(r.status === 'active' ? 'countries.archive' : 'countries.activate')}
              </button>
            </AppForm>
          ) : null}
        </div>
      ),
    },
  ];
  return (
    <div className="mx-auto max-w-7xl">
      <PageHeader
        title={t('countries.title')}
        description={t('countries.intro')}
        actions={
          canCreate ? <ButtonLink to={to('/manage-countries/new')}>{t('countries.add')}</ButtonLink> : null
        }
      />
      <SummaryTiles
        tiles={[
          { label: t('countries.summary.total'), value: summary.total },
          { label: t('countries.summary.active'), value: summary.active },
          { label: t('countries.summary.archived'), value: summary.archived },
          { label: t('countries.summary.with_tax_rate'), value: summary.with_tax_rate },
        ]}
      />
      {done && !done.ok && done.error ? <FormErrors errors={[done.error]} /> : null}
      <FiltersBar exportHref={exportHref}>
        <FilterSearch label={t('countries.search')} placeholder={t('countries.search_placeholder')} />
        <FilterSelect
          name="status"
          label={t('countries.status')}
          any={t('countries.statuses.all')}
          options={(['active', 'archived'] as const).map((v) => ({
            value: v,
            label: t(`countries.statuses.${v}`),
          }))}
        />
        <FilterSelect
          name="region_code"
          label={t('countries.region')}
          any={t('countries.all_regions')}
          options={REGION_CODES.map((v) => ({ value: v, label: t(`countries.regions.${v}`) }))}
        />
      </FiltersBar>
      <DataTable
        rows={list.items}
        columns={columns}
        rowId={(r) => String(r.id)}
        meta={list.meta}
        caption={t('countries.title')}
        empty={
          <EmptyState
            message={t('table.empty')}
            action={
              canCreate ? (
                <Link
                  to={to('/manage-countries/new')}
                  className="font-medium text-primary-800 hover:underline"
                >
                  {t('countries.add')}
                </Link>
              ) : null
            }
          />
        }
      />
    </div>
  );
}
