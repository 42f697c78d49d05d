import {
  json,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/cloudflare';
import { useActionData, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { can } from '@server/domain/access/actor';
import { canArchive } from '@server/domain/access/archiving';
import { noticeOptions } from '@server/domain/notices/options';
import {
  getNotice,
  listNoticeRecipients,
  remindNotice,
  updateNotice,
  updateNoticeStatus,
} from '@server/domain/notices/service';
import {
  constraintsOf,
  emptySchema,
  idSchema,
  noticeRecipientsQuerySchema,
  noticeSchema,
  noticeStatusSchema,
} from '~/lib/schemas.server';
import { msg } from '@server/domain/messages';
import { intentAction, unreachable } from '~/lib/actions';
import { pageTitle } from '~/lib/meta';
import { formatDateTime } from '~/lib/dates';
import { AppForm } from '~/components/fields';
import { Button } from '~/components/ui/button';
import { ConfirmButton } from '~/components/ui/confirm';
import { Card, PageHeader } from '~/components/ui/card';
import { DataTable, type Column } from '~/components/ui/data-table';
import { EmptyState, FilterSearch, FilterSelect, FiltersBar } from '~/components/ui/list-controls';
import { StatusBadge, statusTone } from '~/components/ui/status-badge';
import { SummaryTiles } from '~/components/ui/summary-tiles';
import { NoticeEditor } from '~/components/notices/notice-editor';
import { pageLoader } from '~/lib/loaders.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

/** One notice: its editor, archive or reactivate, and who acknowledged it (with a reminder for the rest). */
export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_notice',
    params: idSchema,
    query: noticeRecipientsQuerySchema,
    async load({ ctx, request, context, params, query }) {
      const notice = await getNotice(ctx, params.id);
      const [recipients, options] = await Promise.all([
        listNoticeRecipients(ctx, params.id, query),
        noticeOptions(ctx),
      ]);
      return json({
        notice,
        recipients,
        options,
        constraint: constraintsOf(noticeSchema),
        canUpdate: can(ctx.actor, 'update_notice'),
        canArchive: canArchive(ctx.actor, 'notice'),
        title: pageTitle(context, request, 'notices.edit'),
      });
    },
  })(args);

export const action = (args: ActionFunctionArgs) =>
  intentAction({
    params: idSchema,
    intents: {
      update: { schema: noticeSchema, permission: 'update_notice' },
      status: { schema: noticeStatusSchema, permission: 'archive_notice|update_notice' },
      remind: {
        schema: emptySchema,
        permission: 'update_notice',
        confirm: { question: msg('notices.remind_confirm'), button: 'notices.remind', tone: 'primary' },
      },
    },
    async handle(input, { ctx, params, redirect }) {
      switch (input.intent) {
        case 'update':
          await updateNotice(ctx, params.id, input);
          return redirect(`/notices/${params.id}`, 'notices.updated');
        case 'status':
          await updateNoticeStatus(ctx, params.id, input.status);
          return { toast: input.status === 'active' ? 'notices.reactivated' : 'notices.archived' };
        case 'remind': {
          const { reminded } = await remindNotice(ctx, params.id);
          return { toast: msg('notices.reminded', { count: reminded }) };
        }
        default:
          return unreachable(input);
      }
    },
  })(args);

type Recipient = ReturnType<typeof useLoaderData<typeof loader>>['recipients']['items'][number];

export default function NoticePage() {
  const { t } = useTranslation();
  const { notice, recipients, options, constraint, canUpdate, canArchive } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const pendingCount = notice.recipients - notice.acknowledged;
  const columns: Column<Recipient>[] = [
    {
      key: 'name',
      card: 'title',
      header: t('notices.recipients.name'),
      render: (r) => `${r.first_name} ${r.last_name}`,
    },
    { key: 'email', card: 'figure', header: t('notices.recipients.email'), render: (r) => r.email },
    { key: 'client', card: 'figure', header: t('notices.recipients.client'), render: (r) => r.client_name },
    {
      key: 'state',
      card: 'status',
      header: t('notices.recipients.state'),
      render: (r) =>
        r.acknowledged_at ? (
          <StatusBadge tone="green">{t('notices.recipients.acknowledged')}</StatusBadge>
        ) : (
          <StatusBadge tone="amber">{t('notices.recipients.pending')}</StatusBadge>
        ),
    },
    {
      key: 'when',
      card: 'figure',
      header: t('notices.recipients.when'),
      render: (r) => (r.acknowledged_at ? formatDateTime(r.acknowledged_at) : '—'),
    },
    {
      key: 'reminded',
      card: 'hidden',
      header: t('notices.recipients.reminded'),
      render: (r) => (r.reminded_at ? formatDateTime(r.reminded_at) : '—'),
    },
  ];
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <PageHeader
        title={notice.title}
        description={
          <StatusBadge tone={statusTone(notice.status)}>{t(`notices.statuses.${notice.status}`)}</StatusBadge>
        }
        actions={
          canArchive ? (
            <AppForm method="post">
              <input type="hidden" name="status" value={notice.status === 'active' ? 'archived' : 'active'} />
              <Button type="submit" name="intent" value="status" variant="secondary">
                {t(notice.status === 'active' ? 'notices.archive' : 'notices.reactivate')}
              </Button>
            </AppForm>
          ) : null
        }
      />
      <SummaryTiles
        tiles={[
          { label: t('notices.summary.recipients'), value: notice.recipients },
          { label: t('notices.summary.acknowledged'), value: notice.acknowledged },
          { label: t('notices.summary.pending'), value: pendingCount },
        ]}
      />
      <section aria-labelledby="recipients-heading" className="space-y-3">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="recipients-heading" className="text-lg font-semibold text-slate-900">
            {t('notices.recipients.title')}
          </h2>
          {canUpdate && notice.status === 'active' && pendingCount > 0 ? (
            <AppForm method="post">
              <ConfirmButton
                name="intent"
                value="remind"
                tone="primary"
                question={t('notices.remind_confirm')}
              >
                {t('notices.remind_count', { count: pendingCount })}
              </ConfirmButton>
            </AppForm>
          ) : null}
        </div>
        <FiltersBar>
          <FilterSearch
            label={t('notices.recipients.search')}
            placeholder={t('notices.recipients.search_placeholder')}
          />
          <FilterSelect
            name="acknowledged"
            label={t('notices.recipients.state')}
            any={t('notices.recipients.all')}
            options={[
              { value: 'yes', label: t('notices.recipients.acknowledged') },
              { value: 'no', label: t('notices.recipients.pending') },
            ]}
          />
        </FiltersBar>
        <DataTable
          rows={recipients.items}
          columns={columns}
          rowId={(r) => r.id}
          meta={recipients.meta}
          caption={t('notices.recipients.title')}
          empty={<EmptyState message={t('notices.recipients.empty')} />}
        />
      </section>
      {canUpdate ? (
        <Card>
          <h2 className="mb-4 text-lg font-semibold text-slate-900">{t('notices.edit')}</h2>
          <NoticeEditor
            key={String(notice.updated_at)}
            id="notice"
            intent="update"
            defaults={notice}
            options={options}
            constraint={constraint}
            lastResult={answer?.intent === 'update' ? answer.submission : undefined}
            submitLabel={t('notices.save')}
          />
        </Card>
      ) : null}
    </div>
  );
}
