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
import { PRODUCT_STATUSES, TERRITORIAL_LIMITS } from '@server/domain/products/values';
import {
  idSchema,
  productGroupListQuerySchema,
  productListQuerySchema,
  productStatusSchema,
} from '~/lib/schemas.server';
import {
  bulkSetProductStatus,
  listProducts,
  productFormOptions,
  productSummary,
  setProductStatus,
} from '@server/domain/products/service';
import { listProductGroups } from '@server/domain/products/groups';
import { msg } from '@server/domain/messages';
import { intentAction, unreachable } from '~/lib/actions';
import { bulkSchema, lenientQuery, queryOf } from '~/lib/lists.server';
import { pageTitle } from '~/lib/meta';
import { formatDate } from '~/lib/dates';
import { localePath } from '~/i18n/config';
import { AppForm, FormErrors } from '~/components/fields';
import { ButtonLink } from '~/components/ui/button';
import { PageHeader } from '~/components/ui/card';
import { DataTable, type Column } from '~/components/ui/data-table';
import {
  BulkActionBar,
  FilterCheckbox,
  FilterDate,
  FilterSearch,
  FilterSelect,
  FiltersBar,
  useExportHref,
  useSelection,
} from '~/components/ui/list-controls';
import { SummaryTiles } from '~/components/ui/summary-tiles';
import { ProductStatusBadge } from '~/components/products/product-badges';
import { pageLoader } from '~/lib/loaders.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_product',
    async load({ ctx, request, context }) {
      const raw = queryOf(request);
      const view = raw.view === 'groups' && can(ctx.actor, 'read_product_group') ? 'groups' : 'products';
      const query = lenientQuery(productListQuerySchema, raw);
      const [list, summary, options, groups] = await Promise.all([
        view === 'products' ? listProducts(ctx, query) : null,
        productSummary(ctx),
        productFormOptions(ctx),
        view === 'groups' ? listProductGroups(ctx, lenientQuery(productGroupListQuerySchema, raw)) : null,
      ]);
      return json({
        view,
        list,
        groups,
        summary,
        insurers: options.insurers,
        canCreate: can(ctx.actor, 'create_product'),
        canArchive: canArchive(ctx.actor, 'product'),
        canReadGroups: can(ctx.actor, 'read_product_group'),
        canCreateGroup: can(ctx.actor, 'create_product_group'),
        title: pageTitle(context, request, 'products.title'),
      });
    },
  })(args);

const bulk = { schema: bulkSchema, permission: 'archive_product' };

/** Archive or activate one product from its row, or the selected ones (or all matching) in bulk. */
export const action = (args: ActionFunctionArgs) =>
  intentAction({
    intents: {
      status: {
        schema: idSchema.merge(productStatusSchema),
        permission: 'archive_product',
      },
      bulk_activate: bulk,
      bulk_archive: {
        ...bulk,
        confirm: { question: 'products.bulk_archive_confirm', button: 'products.archive' },
      },
    },
    async handle(input, { ctx }) {
      switch (input.intent) {
        case 'status':
          await setProductStatus(ctx, input.id, input.status);
          return {
            toast: input.status === 'active' ? 'products.messages.activated' : 'products.messages.archived',
          };
        case 'bulk_activate':
        case 'bulk_archive': {
          const status = input.intent === 'bulk_activate' ? 'active' : 'archived';
          const query = lenientQuery(productListQuerySchema, input.filters);
          const { changed } = await bulkSetProductStatus(ctx, input.selection, query, status);
          const key = status === 'active' ? 'products.bulk_activated' : 'products.bulk_archived';
          return { toast: msg(key, { count: changed }) };
        }
        default:
          return unreachable(input);
      }
    },
  })(args);

type Row = NonNullable<Awaited<ReturnType<typeof listProducts>>>['items'][number];
type GroupRow = Awaited<ReturnType<typeof listProductGroups>>['items'][number];

function Tabs({ view, canReadGroups }: { view: string; canReadGroups: boolean }) {
  const { t, i18n } = useTranslation();
  if (!canReadGroups) return null;
  const tab = (key: string, to: string, label: string) => (
    <Link
      to={localePath(i18n.language, to)}
      aria-current={view === key ? 'page' : undefined}
      className={`-mb-px border-b-2 px-4 py-2 text-sm font-semibold ${
        view === key
          ? 'border-primary-700 text-primary-800'
          : 'border-transparent text-slate-600 hover:text-slate-900'
      }`}
    >
      {label}
    </Link>
  );
  return (
    <nav className="mb-4 flex gap-2 border-b border-slate-200" aria-label={t('products.views')}>
      {tab('products', '/products', t('products.tabs_list.products'))}
      {tab('groups', '/products?view=groups', t('products.tabs_list.groups'))}
    </nav>
  );
}

export default function Products() {
  const { t, i18n } = useTranslation();
  const data = useLoaderData<typeof loader>();
  const done = useActionData<typeof action>();
  const exportHref = useExportHref();
  const busy = useNavigation().state === 'submitting';
  const { selection, onChange: onSelection, form } = useSelection();
  const to = (path: string) => localePath(i18n.language, path);
  const { summary } = data;

  const columns: Column<Row>[] = [
    {
      key: 'code',
      card: 'hidden',
      header: t('products.fields.code'),
      sort: 'code',
      render: (r) => <span className="font-mono text-xs">{r.code}</span>,
    },
    {
      key: 'name',
      card: 'title',
      header: t('products.fields.name'),
      sort: 'name',
      render: (r) => (
        <Link to={to(`/products/${r.id}`)} className="font-medium text-primary-800 hover:underline">
          {r.name}
        </Link>
      ),
    },
    {
      key: 'insurer',
      card: 'figure',
      header: t('products.fields.insurer'),
      sort: 'insurer',
      render: (r) => r.insurer?.name ?? '—',
    },
    {
      key: 'territorial_limit',
      card: 'hidden',
      header: t('products.fields.territorial_limit'),
      sort: 'territorial_limit',
      render: (r) => (r.territorial_limit ? t(`products.territorial_limits.${r.territorial_limit}`) : '—'),
    },
    {
      key: 'period',
      card: 'figure',
      header: t('products.list.effective'),
      sort: 'effective_start_date',
      render: (r) => (
        <span className="whitespace-nowrap">
          {formatDate(r.effective_start_date)}
          <br />
          <span className="text-slate-500">
            {r.effective_end_date ? formatDate(r.effective_end_date) : t('products.open_ended')}
          </span>
        </span>
      ),
    },
    {
      key: 'prices',
      card: 'hidden',
      header: t('products.list.prices'),
      className: 'text-right',
      render: (r) => r.prices_count,
    },
    {
      key: 'status',
      card: 'status',
      header: t('products.fields.status'),
      sort: 'status',
      render: (r) => <ProductStatusBadge status={r.status} />,
    },
    {
      key: 'actions',
      card: 'actions',
      header: <span className="sr-only">{t('products.actions')}</span>,
      className: 'text-right',
      render: (r) => (
        <div className="flex justify-end gap-3">
          <Link to={to(`/products/${r.id}`)} className="font-medium text-primary-800 hover:underline">
            {t('products.view')}
          </Link>
          {data.canArchive ? (
            <AppForm method="post" preventScrollReset>
              <input type="hidden" name="intent" value="status" />
              <input type="hidden" name="id" value={r.id} />
              <input type="hidden" name="status" value={r.status === 'active' ? 'archived' : 'active'} />
              <button
                type="submit"
                disabled={busy}
                className="font-medium text-slate-600 hover:text-slate-900 hover:underline"
                aria-label={t(r.status === 'active' ? 'products.archive_named' : 'products.activate_named', {
                  name: r.name,
                })}
              >
                {t(r.status === 'active' ? 'products.archive' : 'products.activate')}
              </button>
            </AppForm>
          ) : null}
        </div>
      ),
    },
  ];

  const groupColumns: Column<GroupRow>[] = [
    {
      key: 'name',
      card: 'title',
      header: t('products.groups.name'),
      sort: 'name',
      render: (g) => (
        <Link to={to(`/product-groups/${g.id}`)} className="font-medium text-primary-800 hover:underline">
          {g.name}
        </Link>
      ),
    },
    {
      key: 'scheme',
      card: 'figure',
      header: t('products.groups.scheme'),
      sort: 'scheme',
      render: (g) => g.scheme ?? '—',
    },
    {
      key: 'type',
      card: 'figure',
      header: t('products.groups.type'),
      sort: 'type',
      render: (g) => g.type ?? '—',
    },
    { key: 'company', card: 'hidden', header: t('products.fields.company'), render: (g) => g.company.name },
    {
      key: 'count',
      card: 'figure',
      header: t('products.groups.products'),
      className: 'text-right',
      render: (g) => g.products_count,
    },
  ];

  return (
    <div className="mx-auto max-w-7xl">
      <PageHeader
        title={t('products.title')}
        description={t('products.intro')}
        actions={
          <>
            {data.canCreateGroup ? (
              <ButtonLink to={to('/product-groups/new')} variant="secondary">
                {t('products.groups.add')}
              </ButtonLink>
            ) : null}
            {data.canCreate ? <ButtonLink to={to('/products/new')}>{t('products.add')}</ButtonLink> : null}
          </>
        }
      />
      <SummaryTiles
        tiles={[
          { label: t('products.summary.active'), value: summary.active },
          { label: t('products.summary.archived'), value: summary.archived },
          {
            label: t('products.summary.expiring', { days: summary.expiring_within_days }),
            value: summary.expiring,
          },
        ]}
      />
      <Tabs view={data.view} canReadGroups={data.canReadGroups} />
      {done && !done.ok && done.error ? <FormErrors errors={[done.error]} /> : null}
      {data.view === 'groups' && data.groups ? (
        <>
          <FiltersBar>
            <input type="hidden" name="view" value="groups" />
            <FilterSearch
              className="sm:col-span-2"
              label={t('products.search')}
              placeholder={t('products.groups.search_placeholder')}
            />
          </FiltersBar>
          <DataTable
            rows={data.groups.items}
            columns={groupColumns}
            rowId={(g) => g.id}
            meta={data.groups.meta}
            caption={t('products.tabs_list.groups')}
            empty={t('products.groups.empty')}
          />
        </>
      ) : data.list ? (
        <>
          <FiltersBar exportHref={exportHref}>
            <FilterSearch label={t('products.search')} placeholder={t('products.search_placeholder')} />
            <FilterSelect
              name="status"
              label={t('products.fields.status')}
              any={t('products.statuses.all')}
              options={PRODUCT_STATUSES.map((v) => ({ value: v, label: t(`products.statuses.${v}`) }))}
            />
            <FilterSelect
              name="insurer"
              label={t('products.fields.insurer')}
              any={t('products.all_insurers')}
              options={data.insurers.map((i) => ({ value: i.id, label: i.name }))}
            />
            <FilterSelect
              name="territorial_limit"
              label={t('products.fields.territorial_limit')}
              any={t('products.all_territories')}
              options={TERRITORIAL_LIMITS.map((v) => ({
                value: v,
                label: t(`products.territorial_limits.${v}`),
              }))}
            />
            <FilterDate name="effective_from" label={t('products.filters.effective_from')} />
            <FilterDate name="effective_to" label={t('products.filters.effective_to')} />
            <FilterCheckbox
              name="expiring"
              label={t('products.filters.expiring', { days: summary.expiring_within_days })}
            />
          </FiltersBar>
          <DataTable
            rows={data.list.items}
            columns={columns}
            rowId={(r) => r.id}
            meta={data.list.meta}
            selectable={data.canArchive}
            bulkForm={form}
            onSelectionChange={onSelection}
            caption={t('products.title')}
            empty={t('products.empty')}
          />
          {data.canArchive ? (
            <BulkActionBar
              form={form}
              selection={selection}
              total={data.list.meta.total}
              actions={[
                { intent: 'bulk_activate', label: t('products.activate') },
                {
                  intent: 'bulk_archive',
                  label: t('products.bulk_archive'),
                  tone: 'danger',
                  confirm: t('products.bulk_archive_confirm'),
                },
              ]}
            />
          ) : null}
        </>
      ) : null}
    </div>
  );
}
