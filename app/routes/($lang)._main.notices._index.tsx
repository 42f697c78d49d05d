import {
  json,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/cloudflare';
import { Link, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { can } from '@server/domain/access/actor';
import { listNotices } from '@server/domain/notices/service';
import { acknowledgeNotice, myNotices } from '@server/domain/notices/recipients';
import { idSchema, noticeListSchema } from '~/lib/schemas.server';
import { formAction } from '~/lib/actions';
import { pageTitle } from '~/lib/meta';
import { localePath } from '~/i18n/config';
import { formatDate } from '~/lib/dates';
import { PageHeader } from '~/components/ui/card';
import { ButtonLink } from '~/components/ui/button';
import { DataTable, type Column } from '~/components/ui/data-table';
import {
  EmptyState,
  FilterSearch,
  FilterSelect,
  FiltersBar,
  useExportHref,
} from '~/components/ui/list-controls';
import { StatusBadge, statusTone } from '~/components/ui/status-badge';
import { NoticeCards } from '~/components/notices/notice-cards';
import { pageLoader } from '~/lib/loaders.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

/**
 * /notices: staff who manage notices see the company's notices; every other signed-in user sees the
 * notices addressed to them and acknowledges them here.
 */
export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: null,
    query: noticeListSchema,
    async load({ ctx, request, context, query }) {
      const title = pageTitle(context, request, 'notices.title');
      if (ctx.actor.user_type === 'company' && can(ctx.actor, 'read_notice')) {
        return json({
          view: 'staff' as const,
          list: await listNotices(ctx, query),
          canCreate: can(ctx.actor, 'create_notice'),
          title,
        });
      }
      return json({ view: 'mine' as const, mine: await myNotices(ctx), title });
    },
  })(args);

/** A recipient acknowledges one of their notices. */
export const action = (args: ActionFunctionArgs) =>
  formAction({
    schema: idSchema,
    permission: null,
    async handle(input, { ctx }) {
      await acknowledgeNotice(ctx, input.id);
      return { toast: 'notices.acknowledged' };
    },
  })(args);

export default function Notices() {
  const data = useLoaderData<typeof loader>();
  return data.view === 'staff' ? <StaffNotices /> : <MyNotices />;
}

function MyNotices() {
  const { t } = useTranslation();
  const data = useLoaderData<typeof loader>();
  const mine = data.view === 'mine' ? data.mine : [];
  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader title={t('notices.title')} description={t('notices.mine_intro')} />
      {mine.length ? <NoticeCards notices={mine} /> : <EmptyState message={t('notices.mine_empty')} />}
    </div>
  );
}

type Row = Extract<
  ReturnType<typeof useLoaderData<typeof loader>>,
  { view: 'staff' }
>['list']['items'][number];

function StaffNotices() {
  const { t, i18n } = useTranslation();
  const data = useLoaderData<typeof loader>();
  const exportHref = useExportHref();
  if (data.view !== 'staff') return null;
  const to = (path: string) => localePath(i18n.language, path);
  const columns: Column<Row>[] = [
    {
      key: 'title',
      card: 'title',
      header: t('notices.fields.title'),
      sort: 'title',
      render: (r) => (
        <Link to={to(`/notices/${r.id}`)} className="font-medium text-primary-800 hover:underline">
          {r.title}
        </Link>
      ),
    },
    {
      key: 'acknowledged',
      card: 'figure',
      header: t('notices.acknowledged_column'),
      render: (r) => t('notices.acknowledged_of', { done: r.acknowledged, total: r.recipients }),
    },
    {
      key: 'created_at',
      card: 'figure',
      header: t('notices.fields.created_at'),
      sort: 'created_at',
      render: (r) => formatDate(r.created_at),
    },
    {
      key: 'status',
      card: 'status',
      header: t('notices.fields.status'),
      sort: 'status',
      render: (r) => (
        <StatusBadge tone={statusTone(r.status)}>{t(`notices.statuses.${r.status}`)}</StatusBadge>
      ),
    },
  ];
  return (
    <div className="mx-auto max-w-7xl">
      <PageHeader
        title={t('notices.title')}
        description={t('notices.intro')}
        actions={data.canCreate ? <ButtonLink to={to('/notices/new')}>{t('notices.add')}</ButtonLink> : null}
      />
      <FiltersBar exportHref={exportHref}>
        <FilterSearch label={t('notices.search')} placeholder={t('notices.search_placeholder')} />
        <FilterSelect
          name="status"
          label={t('notices.fields.status')}
          any={t('notices.statuses.all')}
          options={(['active', 'archived'] as const).map((v) => ({
            value: v,
            label: t(`notices.statuses.${v}`),
          }))}
        />
      </FiltersBar>
      <DataTable
        rows={data.list.items}
        columns={columns}
        rowId={(r) => r.id}
        meta={data.list.meta}
        caption={t('notices.title')}
        empty={<EmptyState message={t('notices.empty')} />}
      />
    </div>
  );
}
