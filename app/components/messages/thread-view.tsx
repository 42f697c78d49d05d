/**
 * One conversation's page: its header (subject, status, whom it is with, what it is about), the reader's
 * own actions (flag, archive or move to the inbox, mark unread), the status form, the messages oldest
 * first and the reply form. A message's text is rendered as text (React escapes it; `whitespace-pre-line`
 * keeps its line breaks): nothing a message holds is ever markup or a link.
 */
import { getFormProps, type SubmissionResult } from '@conform-to/react';
import { Link, useLocation, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { CONVERSATION_STATUSES } from '@server/domain/conversations/values';
import type { MessageView, ThreadView as Thread } from '@server/domain/conversations/inbox';
import type { ListMeta } from '@server/domain/list-query';
import { localePath } from '~/i18n/config';
import { formatDateTime } from '~/lib/dates';
import { useSchemaForm, type Constraints } from '~/lib/schema-form';
import { AppForm, FormErrors, Label, Select, TextAreaField, errorsOf } from '~/components/forms';
import { Button, ButtonLink } from '~/components/ui/button';
import { PageHeader } from '~/components/ui/card';
import { Pagination } from '~/components/ui/data-table';
import { InvoiceLink } from '~/components/invoices/invoice-link';
import { AttachmentsInput } from './attachments-input';
import { ConversationStatusBadge, FlagMark, otherSide } from './conversation-bits';

type Limits = { files: number; mb: number };

function sizeOf(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function Message({ message, threadId, staff }: { message: MessageView; threadId: string; staff: boolean }) {
  const { t, i18n } = useTranslation();
  const ours = (message.side === 'company') === staff;
  return (
    <li
      className={`rounded-xl p-4 ring-1 sm:max-w-[85%] ${
        ours ? 'bg-primary-50 ring-primary-100 sm:ml-auto' : 'bg-white ring-slate-200'
      }`}
      data-testid="message"
    >
      <p className="flex flex-wrap items-baseline justify-between gap-x-3 text-xs text-slate-600">
        <span className="font-semibold text-slate-900">
          {message.author}
          <span className="font-normal text-slate-600">
            {' · '}
            {message.side === 'company' ? t('conversations.sides.company') : t('conversations.sides.school')}
          </span>
        </span>
        <time dateTime={message.date}>{formatDateTime(message.date)}</time>
      </p>
      <p className="mt-2 whitespace-pre-line break-words text-sm text-slate-800" data-testid="message-body">
        {message.body}
      </p>
      {message.attachments.length ? (
        <ul className="mt-3 flex flex-wrap gap-2" aria-label={t('conversations.fields.attachments')}>
          {message.attachments.map((a) => (
            <li key={a.id}>
              <a
                href={localePath(i18n.language, `/message-centre/${threadId}/files/${message.id}/${a.id}`)}
                download={a.name}
                className="inline-flex items-center gap-1 rounded-lg bg-white px-2.5 py-1 text-sm font-medium text-primary-800 ring-1 ring-slate-300 hover:bg-slate-50"
              >
                {t('conversations.download', { name: a.name })}
                <span className="text-xs font-normal text-slate-500">({sizeOf(a.size)})</span>
              </a>
            </li>
          ))}
        </ul>
      ) : null}
    </li>
  );
}

function ReplyForm({
  limits,
  constraint,
  lastResult,
}: {
  limits: Limits;
  constraint?: Constraints;
  lastResult?: SubmissionResult<string[]> | null;
}) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'reply';
  const [form, fields] = useSchemaForm({
    id: 'reply',
    schema: () => import('@server/domain/conversations/schema').then((m) => m.addMessageSchema),
    lastResult: lastResult ?? undefined,
    constraint,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
  });
  return (
    <AppForm
      method="post"
      encType="multipart/form-data"
      {...getFormProps(form)}
      className="space-y-4 rounded-xl bg-white p-4 ring-1 ring-slate-200 sm:p-6"
      aria-labelledby="reply-heading"
    >
      <h2 id="reply-heading" className="text-base font-semibold text-slate-900">
        {t('conversations.reply')}
      </h2>
      <FormErrors errors={form.errors} />
      <TextAreaField label={t('conversations.fields.message')} field={fields.message} rows={5} />
      <AttachmentsInput
        id={`${form.id}-attachments`}
        errors={errorsOf(fields, 'attachments')}
        limits={limits}
      />
      <Button type="submit" name="intent" value="reply" disabled={busy}>
        {t('conversations.send')}
      </Button>
    </AppForm>
  );
}

export function ThreadView({
  thread,
  messages,
  staff,
  canReply,
  limits,
  constraint,
  replyResult,
}: {
  thread: Thread;
  messages: { items: MessageView[]; meta: ListMeta };
  staff: boolean;
  canReply: boolean;
  limits: Limits;
  constraint?: Constraints;
  replyResult?: SubmissionResult<string[]> | null;
}) {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const busy = useNavigation().state === 'submitting';
  const to = (path: string) => localePath(i18n.language, path);
  const stateButton = (intent: string, label: string) => (
    <AppForm method="post">
      <Button type="submit" name="intent" value={intent} variant="secondary" disabled={busy} className="py-2">
        {label}
      </Button>
    </AppForm>
  );
  return (
    <div className="mx-auto max-w-4xl">
      <PageHeader
        title={
          <span className="flex flex-wrap items-center gap-3">
            {thread.subject}
            <ConversationStatusBadge status={thread.status} />
            {thread.flagged ? <FlagMark /> : null}
          </span>
        }
        description={otherSide(t, staff, thread)}
        actions={
          <ButtonLink to={to('/message-centre')} variant="secondary">
            {t('conversations.back')}
          </ButtonLink>
        }
      />
      {thread.policy_batch || thread.invoice || thread.policy ? (
        <p
          className="-mt-3 mb-4 flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-700"
          data-testid="thread-ties"
        >
          {thread.invoice ? (
            <span>
              {t('conversations.about_invoice')}{' '}
              <InvoiceLink
                number={thread.invoice.number}
                clientId={thread.client.id}
                invoiceId={thread.invoice.id}
                variant="inline"
              />
            </span>
          ) : null}
          {thread.policy ? (
            <span>
              {t('conversations.about_policy')}{' '}
              <Link
                to={to(`/insureds/${thread.policy.id}/insured_details`)}
                className="font-medium text-primary-800 underline underline-offset-2"
              >
                {thread.policy.policy_number}
              </Link>
            </span>
          ) : null}
          {thread.policy_batch ? (
            <span>{t('conversations.about_batch', { id: thread.policy_batch.id })}</span>
          ) : null}
        </p>
      ) : null}
      <div className="mb-6 flex flex-wrap items-end gap-2" data-testid="thread-actions">
        {stateButton(
          thread.flagged ? 'unflag' : 'flag',
          thread.flagged ? t('conversations.unflag') : t('conversations.flag'),
        )}
        {stateButton(
          thread.archived ? 'inbox' : 'archive',
          thread.archived ? t('conversations.move_to_inbox') : t('conversations.archive'),
        )}
        {stateButton('unread', t('conversations.mark_unread'))}
        {canReply ? (
          <AppForm method="post" className="flex w-full items-end gap-2 sm:ml-auto sm:w-auto">
            <div className="min-w-0 flex-1">
              <Label htmlFor="thread-status">{t('conversations.fields.status')}</Label>
              <Select
                id="thread-status"
                name="status"
                defaultValue={thread.status}
                key={thread.status}
                className="py-2"
                options={CONVERSATION_STATUSES.map((s) => ({
                  value: s,
                  label: t(`conversations.statuses.${s}`),
                }))}
              />
            </div>
            <Button
              type="submit"
              name="intent"
              value="status"
              variant="secondary"
              disabled={busy}
              className="py-2"
            >
              {t('conversations.set_status')}
            </Button>
          </AppForm>
        ) : null}
      </div>
      <h2 className="sr-only">{t('conversations.messages')}</h2>
      <ol className="space-y-3" data-testid="messages">
        {messages.items.map((m) => (
          <Message key={m.id} message={m} threadId={thread.id} staff={staff} />
        ))}
      </ol>
      {messages.meta.total > messages.meta.per_page ? (
        <div className="mt-3 overflow-hidden rounded-xl bg-white ring-1 ring-slate-200">
          <Pagination meta={messages.meta} />
        </div>
      ) : null}
      {canReply ? (
        <div className="mt-6">
          <ReplyForm key={location.key} limits={limits} constraint={constraint} lastResult={replyResult} />
        </div>
      ) : null}
    </div>
  );
}
