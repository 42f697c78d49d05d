/** Small pieces the message centre's pages share: the status badge, the flag mark, the other side's name. */
import { Link, useLocation, useSearchParams } from '@remix-run/react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { INBOX_FOLDERS } from '@server/domain/conversations/values';
import { StatusBadge } from '~/components/ui/status-badge';

const TONES = { open: 'blue', waiting_on_client: 'amber', resolved: 'green' } as const;

export function ConversationStatusBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  const tone = TONES[status as keyof typeof TONES] ?? 'slate';
  return <StatusBadge tone={tone}>{t(`conversations.statuses.${status}`)}</StatusBadge>;
}

/** A flag drawn in the text colour, with its name for screen readers. */
export function FlagMark() {
  const { t } = useTranslation();
  return (
    <span className="inline-flex items-center text-amber-600" title={t('conversations.flagged')}>
      <svg viewBox="0 0 24 24" fill="currentColor" className="h-4 w-4" aria-hidden="true">
        <path d="M4 21V4h11l1 2h4v10h-7l-1-2H6v7H4Z" />
      </svg>
      <span className="sr-only">{t('conversations.flagged')}</span>
    </span>
  );
}

/**
 * Who the thread is with, as the reader sees it: staff see the client (and the campus); a school user
 * sees the campus it is about, or the whole school.
 */
export function otherSide(
  t: TFunction,
  staff: boolean,
  r: { client: { name: string }; campus: { name: string } | null },
): string {
  if (staff) return r.campus ? `${r.client.name} · ${r.campus.name}` : r.client.name;
  return r.campus ? r.campus.name : t('conversations.whole_school');
}

/**
 * The inbox's folders as links. Each names its folder in the address (the inbox too): the filters bar
 * restores a list's last filters when its address has none, which must not turn "Inbox" into the last
 * folder opened. The other filters are kept; the page goes back to one.
 */
export function FolderLinks() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const location = useLocation();
  const current = params.get('folder') ?? 'inbox';
  const href = (folder: string) => {
    const next = new URLSearchParams(params);
    next.set('folder', folder);
    next.delete('page');
    return `${location.pathname}?${next}`;
  };
  return (
    <nav aria-label={t('conversations.folders.label')} className="mb-3 flex flex-wrap gap-2 text-sm">
      {INBOX_FOLDERS.map((folder) => (
        <Link
          key={folder}
          to={href(folder)}
          preventScrollReset
          aria-current={folder === current ? 'page' : undefined}
          className={
            folder === current
              ? 'rounded-full bg-slate-900 px-3 py-1 font-medium text-white'
              : 'rounded-full px-3 py-1 font-medium text-slate-700 ring-1 ring-slate-300 hover:bg-slate-50'
          }
        >
          {t(`conversations.folders.${folder}`)}
        </Link>
      ))}
    </nav>
  );
}
