import { useTranslation } from 'react-i18next';
import { britishDate } from '@server/domain/formats';
import { StatusBadge } from '~/components/ui/status-badge';

/** A moment of the partner access pages, in UTC as the API gives it: 21/11/2026 14:05 (or 14:05:09). */
export function dateTime(iso: string | null, seconds = false): string {
  if (!iso) return '—';
  return `${britishDate(iso.slice(0, 10))} ${iso.slice(11, seconds ? 19 : 16)}`;
}

const deliveryTone = { delivered: 'green', pending: 'amber', failed: 'red' } as const;

/** A delivery's status as a badge. */
export function DeliveryStatus({ status }: { status: keyof typeof deliveryTone }) {
  const { t } = useTranslation();
  return <StatusBadge tone={deliveryTone[status]}>{t(`webhooks.statuses.${status}`)}</StatusBadge>;
}

/** What an endpoint answered: the code (or none) and the start of its body or the error. */
export function AnswerExcerpt({
  status,
  excerpt,
  error,
  wide = false,
}: {
  status: number | null;
  excerpt: string | null;
  error: string | null;
  wide?: boolean;
}) {
  const { t } = useTranslation();
  const text = excerpt || error;
  return (
    <div className={wide ? 'max-w-xl' : 'max-w-72'}>
      <div className="font-medium">{status ?? t('webhooks.no_answer')}</div>
      {text ? (
        <div className={`text-xs text-slate-600 ${wide ? 'break-all' : 'truncate'}`} title={text}>
          {text}
        </div>
      ) : null}
    </div>
  );
}
