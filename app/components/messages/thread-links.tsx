/**
 * The message centre's threads about a record (an invoice, a policy), on that record's page, and a link
 * that starts one about it (the new conversation's page names the record).
 */
import { Link } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import type { ThreadLink } from '@server/domain/conversations/inbox';
import { localePath } from '~/i18n/config';
import { formatDateTime } from '~/lib/dates';
import { Card } from '~/components/ui/card';
import { ConversationStatusBadge } from './conversation-bits';

export function ThreadLinks({
  threads,
  start,
}: {
  threads: ThreadLink[];
  /** The new conversation's address with what it is about, when the reader may start one. */
  start?: string | null;
}) {
  const { t, i18n } = useTranslation();
  if (!threads.length && !start) return null;
  const to = (path: string) => localePath(i18n.language, path);
  return (
    <Card className="mt-6">
      <h2 id="thread-links" className="text-base font-semibold text-slate-900">
        {t('conversations.about_title')}
      </h2>
      {threads.length ? (
        <ul className="mt-3 divide-y divide-slate-100" data-testid="thread-links">
          {threads.map((th) => (
            <li key={th.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
              <Link
                to={to(`/message-centre/${th.id}`)}
                className="font-medium text-primary-800 underline underline-offset-2"
              >
                {th.subject}
              </Link>
              <span className="flex items-center gap-2 text-xs text-slate-500">
                {formatDateTime(th.date)}
                <ConversationStatusBadge status={th.status} />
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-2 text-sm text-slate-600">{t('conversations.about_none')}</p>
      )}
      {start ? (
        <Link
          to={to(start)}
          className="mt-3 inline-block text-sm font-medium text-primary-800 underline underline-offset-2"
        >
          {t('conversations.about_start')}
        </Link>
      ) : null}
    </Card>
  );
}
