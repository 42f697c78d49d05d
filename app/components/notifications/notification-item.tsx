import { Link } from '@remix-run/react';
import { formatDistanceStrict, type Locale } from 'date-fns';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { NotificationView } from '@server/domain/notifications/service';
import { localePath } from '~/i18n/config';
import { loadDateLocale } from '~/lib/dates';

const UTC_STAMP = /\b(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})(?::\d{2}(?:\.\d+)?)?(?:Z|\s?UTC)\b/g;

/** UTC date-times inside a description are shown in the viewer's time zone (after hydration). */
export function localiseUtcTimes(text: string, timeZone?: string): string {
  return text.replace(UTC_STAMP, (_, date: string, time: string) => {
    const d = new Date(`${date}T${time}:00Z`);
    return d.toLocaleString('en-GB', {
      timeZone,
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
    });
  });
}

export function NotificationItem({
  notification,
  compact = false,
}: {
  notification: NotificationView;
  compact?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const [zone, setZone] = useState<string | undefined>('UTC');
  // "5 minutes ago" depends on the clock of whoever renders it: the server renders the UTC time, and
  // the browser switches to the relative time after hydration, so both renders agree.
  // The language's date-fns locale is loaded on demand, so the relative time waits for it too.
  const [relative, setRelative] = useState<{ now: Date; locale: Locale } | null>(null);
  useEffect(() => {
    setZone(Intl.DateTimeFormat().resolvedOptions().timeZone);
    let current = true;
    void loadDateLocale(i18n.language).then((locale) => {
      if (current) setRelative({ now: new Date(), locale });
    });
    return () => {
      current = false;
    };
  }, [i18n.language]);
  const when = relative
    ? formatDistanceStrict(new Date(notification.created_at), relative.now, {
        addSuffix: true,
        locale: relative.locale,
      })
    : `${notification.created_at.slice(0, 16).replace('T', ' ')} UTC`;
  const body = (
    <div className={`flex gap-3 ${compact ? 'px-4 py-3' : 'p-4'}`}>
      <span
        className={`mt-1.5 h-2.5 w-2.5 shrink-0 rounded-full ${notification.read ? 'bg-slate-200' : 'bg-primary-600'}`}
        aria-label={notification.read ? t('notifications.read') : t('notifications.unread')}
      />
      <div className="min-w-0">
        <p
          className={`text-sm ${notification.read ? 'font-medium text-slate-700' : 'font-semibold text-slate-900'}`}
        >
          {notification.title}
        </p>
        <p className="mt-0.5 text-sm text-slate-600">{localiseUtcTimes(notification.description, zone)}</p>
        <p className="mt-1 text-xs text-slate-500">
          <time dateTime={notification.created_at}>{when}</time>
        </p>
      </div>
    </div>
  );
  const to = notification.to;
  return (
    <li>
      {to && /^https?:\/\//i.test(to) ? (
        <a href={to} target="_blank" rel="noopener noreferrer" className="block hover:bg-slate-50">
          {body}
        </a>
      ) : to ? (
        <Link to={localePath(i18n.language, to)} className="block hover:bg-slate-50">
          {body}
        </Link>
      ) : (
        body
      )}
    </li>
  );
}
