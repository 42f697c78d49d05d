/**
 * A recipient's notices as cards: the title, the date, the message as text (never HTML), and either when
 * it was acknowledged or the one button that acknowledges it (a plain form post: works without
 * JavaScript). Posts to /notices, which answers back to the page it came from.
 */
import { useTranslation } from 'react-i18next';
import type { MyNoticeView } from '@server/domain/notices/recipients';
import { localePath } from '~/i18n/config';
import { formatDate, formatDateTime } from '~/lib/dates';
import { AppForm } from '~/components/fields';
import { Button } from '~/components/ui/button';
import { Card } from '~/components/ui/card';

type Notice = Omit<MyNoticeView, 'created_at' | 'acknowledged_at'> & {
  created_at: string | Date;
  acknowledged_at: string | Date | null;
};

export function NoticeCards({ notices, action }: { notices: Notice[]; action?: string }) {
  const { t, i18n } = useTranslation();
  return (
    <ul className="space-y-4">
      {notices.map((n) => (
        <li key={n.id}>
          <Card>
            <article aria-labelledby={`notice-${n.id}`}>
              <header className="flex flex-wrap items-baseline justify-between gap-2">
                <h2 id={`notice-${n.id}`} className="text-base font-semibold text-slate-900">
                  {n.title}
                </h2>
                <p className="text-xs text-slate-500">{formatDate(n.created_at)}</p>
              </header>
              <p className="mt-3 whitespace-pre-line break-words text-sm text-slate-700">{n.message}</p>
              <footer className="mt-4">
                {n.acknowledged_at ? (
                  <p className="text-sm text-emerald-700">
                    {t('notices.acknowledged_on', { when: formatDateTime(n.acknowledged_at) })}
                  </p>
                ) : (
                  <AppForm
                    method="post"
                    action={action ?? `${localePath(i18n.language, '/notices')}?index`}
                    preventScrollReset
                  >
                    <input type="hidden" name="id" value={n.id} />
                    <Button type="submit" aria-describedby={`notice-${n.id}`}>
                      {t('notices.acknowledge')}
                    </Button>
                  </AppForm>
                )}
              </footer>
            </article>
          </Card>
        </li>
      ))}
    </ul>
  );
}
