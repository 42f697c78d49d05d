/**
 * /message-centre: the inbox of conversations between the insurer's staff and the schools, with its
 * folders (inbox, flagged, archived), search over subject and text, filters by client, campus and
 * status, and paging. Unread threads are bold and say so to screen readers.
 */
import { json, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare';
import { Link, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { can } from '@server/domain/access/actor';
import { listConversations } from '@server/domain/conversations/inbox';
import { conversationTargets } from '@server/domain/conversations/options';
import { CONVERSATION_STATUSES } from '@server/domain/conversations/values';
import { inboxQuerySchema } from '~/lib/schemas.server';
import { pageTitle } from '~/lib/meta';
import { localePath } from '~/i18n/config';
import { formatDateTime } from '~/lib/dates';
import { PageHeader } from '~/components/ui/card';
import { ButtonLink } from '~/components/ui/button';
import { DataTable, type Column } from '~/components/ui/data-table';
import {
  EmptyState,
  FilterCheckbox,
  FilterSearch,
  FilterSelect,
  FiltersBar,
} from '~/components/ui/list-controls';
import {
  ConversationStatusBadge,
  FlagMark,
  FolderLinks,
  otherSide,
} from '~/components/messages/conversation-bits';
import { pageLoader } from '~/lib/loaders.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_message',
    query: inboxQuerySchema,
    async load({ ctx, request, context, query }) {
      const [list, targets] = await Promise.all([listConversations(ctx, query), conversationTargets(ctx)]);
      return json({
        list,
        folder: query.folder,
        side: targets.side,
        clients: targets.side === 'company' ? targets.clients : [],
        campuses: targets.campuses,
        canStart: can(ctx.actor, 'create_message'),
        title: pageTitle(context, request, 'conversations.title'),
      });
    },
  })(args);

type Row = ReturnType<typeof useLoaderData<typeof loader>>['list']['items'][number];

export default function MessageCentre() {
  const { t, i18n } = useTranslation();
  const data = useLoaderData<typeof loader>();
  const to = (path: string) => localePath(i18n.language, path);
  const staff = data.side === 'company';
  const columns: Column<Row>[] = [
    {
      key: 'subject',
      card: 'title',
      header: t('conversations.fields.subject'),
      render: (r) => (
        <div className="min-w-0 max-w-xl">
          <Link
            to={to(`/message-centre/${r.id}`)}
            className={`text-primary-800 hover:underline ${r.read ? 'font-normal' : 'font-bold'}`}
            data-testid="conversation-link"
            data-unread={r.read ? undefined : ''}
          >
            {r.read ? null : <span className="sr-only">{t('conversations.unread_marker')} </span>}
            {r.subject}
          </Link>
          <p className={`truncate text-xs ${r.read ? 'text-slate-500' : 'text-slate-700'}`}>{r.summary}</p>
        </div>
      ),
    },
    {
      key: 'with',
      card: 'figure',
      header: t('conversations.fields.with'),
      render: (r) => otherSide(t, staff, r),
    },
    {
      key: 'date',
      card: 'figure',
      header: t('conversations.fields.last_message'),
      render: (r) => <span className={r.read ? undefined : 'font-semibold'}>{formatDateTime(r.date)}</span>,
    },
    {
      key: 'status',
      card: 'status',
      header: t('conversations.fields.status'),
      render: (r) => <ConversationStatusBadge status={r.status} />,
    },
    {
      key: 'flag',
      card: 'figure',
      header: <span className="sr-only">{t('conversations.fields.flag')}</span>,
      label: t('conversations.fields.flag'),
      render: (r) => (r.flagged ? <FlagMark /> : null),
    },
  ];
  const campusLabel = (c: (typeof data.campuses)[number]) =>
    staff ? `${c.client_name} · ${c.name}` : c.name;
  return (
    <div className="mx-auto max-w-7xl">
      <PageHeader
        title={t('conversations.title')}
        description={staff ? t('conversations.intro_staff') : t('conversations.intro_school')}
        actions={
          data.canStart ? (
            <ButtonLink to={to('/message-centre/new')}>{t('conversations.new')}</ButtonLink>
          ) : null
        }
      />
      <FolderLinks />
      <FiltersBar>
        <input type="hidden" name="folder" value={data.folder} />
        <FilterSearch label={t('conversations.search')} placeholder={t('conversations.search_placeholder')} />
        {staff ? (
          <FilterSelect
            name="client_id"
            label={t('conversations.fields.client')}
            any={t('conversations.any_client')}
            options={data.clients.map((c) => ({ value: c.id, label: c.name }))}
          />
        ) : null}
        {data.campuses.length ? (
          <FilterSelect
            name="campus_id"
            label={t('conversations.fields.campus')}
            any={t('conversations.any_campus')}
            options={data.campuses.map((c) => ({ value: c.id, label: campusLabel(c) }))}
          />
        ) : null}
        <FilterSelect
          name="status"
          label={t('conversations.fields.status')}
          any={t('conversations.any_status')}
          options={CONVERSATION_STATUSES.map((s) => ({ value: s, label: t(`conversations.statuses.${s}`) }))}
        />
        <FilterCheckbox name="unread" label={t('conversations.only_unread')} />
      </FiltersBar>
      <DataTable
        rows={data.list.items}
        columns={columns}
        rowId={(r) => r.id}
        meta={data.list.meta}
        caption={t('conversations.title')}
        empty={<EmptyState message={t('conversations.empty')} />}
      />
    </div>
  );
}
