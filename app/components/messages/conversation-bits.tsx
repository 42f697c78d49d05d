/** Small pieces the message centre's pages share: the status badge, the flag mark, the other side's name. */
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
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
