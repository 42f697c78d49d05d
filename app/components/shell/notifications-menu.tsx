import { Link, useFetcher } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { localePath } from '~/i18n/config';
import { useRootData } from '~/root';
import { NotificationItem } from '~/components/notifications/notification-item';
import { Popup } from '~/components/ui/popup';
import { Icon } from './icons';

/** The bell: unread badge; opening the dropdown marks the notifications read. */
export function NotificationsMenu() {
  const { t, i18n } = useTranslation();
  const { notifications, csrfToken } = useRootData();
  const fetcher = useFetcher();
  if (!notifications) return null;
  const unread = fetcher.formData ? 0 : notifications.unread;
  const markRead = () => {
    if (notifications.unread > 0 && fetcher.state === 'idle') {
      fetcher.submit({ _csrf: csrfToken }, { method: 'post', action: '/actions/notifications-read' });
    }
  };
  return (
    <Popup
      kind="panel"
      onOpen={markRead}
      buttonClassName="relative rounded-full p-2 text-white hover:bg-white/10"
      aria-label={t('shell.notifications_unread', { shown: badgeText(unread) })}
      data-testid="notifications-button"
      button={
        <>
          <Icon name="bell" />
          {unread > 0 ? <Badge count={unread} /> : null}
        </>
      }
      panelClassName="absolute right-0 top-full z-50 mt-2 flex max-h-[600px] w-[min(400px,calc(100vw-1rem))] flex-col rounded-xl bg-white text-slate-800 shadow-xl ring-1 ring-black/10"
    >
      {() => (
        <>
          <div className="flex items-center justify-between border-b border-slate-200 px-4 py-3">
            <h2 className="font-semibold">{t('nav.notifications')}</h2>
            <Link
              to={localePath(i18n.language, '/notifications')}
              className="text-sm font-medium text-primary-700 hover:underline"
            >
              {t('notifications.see_all')}
            </Link>
          </div>
          <ul className="divide-y divide-slate-100 overflow-y-auto" data-testid="notifications-list">
            {notifications.items.length === 0 ? (
              <li className="px-4 py-8 text-center text-sm text-slate-500">{t('notifications.empty')}</li>
            ) : (
              notifications.items.map((n) => <NotificationItem key={n.id} notification={n} compact />)
            )}
          </ul>
        </>
      )}
    </Popup>
  );
}

/** What a badge shows; labels name the same figure, so a spoken name contains the visible text. */
export function badgeText(count: number): string {
  return count > 99 ? '99+' : String(count);
}

export function Badge({ count }: { count: number }) {
  return (
    <span className="absolute -right-0.5 -top-0.5 flex h-5 min-w-5 items-center justify-center rounded-full bg-red-600 px-1 text-[11px] font-bold text-white ring-2 ring-primary-800">
      {badgeText(count)}
    </span>
  );
}
