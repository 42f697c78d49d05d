import { useTranslation } from 'react-i18next';
import type { OwnSession } from '@server/domain/account/sessions';
import { AppForm } from '~/components/forms';
import { Button } from '~/components/ui/button';
import { Card } from '~/components/ui/card';
import { StatusBadge } from '~/components/ui/status-badge';
import { formatDateTime } from '~/lib/dates';

type Session = Omit<OwnSession, 'device'> & { device: { browser: string | null; os: string | null } };

/** "Chrome on Windows" in the reader's language. */
export function useDeviceName() {
  const { t } = useTranslation();
  return ({ browser, os }: Session['device']) =>
    browser && os
      ? t('account.sessions.device', { browser, os })
      : (browser ?? os ?? t('account.sessions.unknown_device'));
}

/**
 * The account page's sessions: every browser or program signed in as the user, with a button to sign
 * out each (not this device: that is the avatar menu's sign-out) and all the others at once.
 */
export function SessionsCard({ sessions, readOnly }: { sessions: Session[]; readOnly: boolean }) {
  const { t } = useTranslation();
  const deviceName = useDeviceName();
  const others = sessions.filter((s) => !s.current);
  return (
    <Card className="lg:col-span-2">
      <div className="mb-4 flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 className="text-base font-semibold">{t('account.sessions.title')}</h2>
          <p className="mt-1 text-sm text-slate-600">{t('account.sessions.description')}</p>
        </div>
        {!readOnly && others.length > 0 ? (
          <AppForm method="post">
            <Button
              type="submit"
              name="intent"
              value="end_other_sessions"
              variant="secondary"
              data-testid="end-other-sessions"
            >
              {t('account.sessions.end_others')}
            </Button>
          </AppForm>
        ) : null}
      </div>
      <ul className="divide-y divide-slate-200" data-testid="sessions-list">
        {sessions.map((s) => {
          const name = deviceName(s.device);
          return (
            <li
              key={s.id}
              className="flex flex-wrap items-center justify-between gap-3 py-3"
              data-testid="session-row"
              data-current={s.current ? '' : undefined}
            >
              <div className="min-w-0">
                <p className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
                  <span>{name}</span>
                  {s.current ? (
                    <StatusBadge tone="blue">{t('account.sessions.this_device')}</StatusBadge>
                  ) : null}
                  {s.kind === 'api' ? (
                    <StatusBadge tone="slate">{t('account.sessions.api')}</StatusBadge>
                  ) : null}
                  {s.support_admin ? (
                    <StatusBadge tone="amber">
                      {t('account.sessions.support_by', { name: s.support_admin })}
                    </StatusBadge>
                  ) : null}
                </p>
                <p className="mt-0.5 text-sm text-slate-600">
                  {t('account.sessions.address')}: {s.ip ?? t('account.sessions.unknown_address')} ·{' '}
                  {t('account.sessions.signed_in')}: {formatDateTime(s.created_at)} ·{' '}
                  {t('account.sessions.last_seen')}: {formatDateTime(s.last_seen_at)}
                </p>
              </div>
              {!readOnly && !s.current ? (
                <AppForm method="post">
                  <input type="hidden" name="session_id" value={s.id} />
                  <Button
                    type="submit"
                    name="intent"
                    value="end_session"
                    variant="secondary"
                    aria-label={t('account.sessions.end_label', { device: name })}
                    data-testid="end-session"
                  >
                    {t('account.sessions.end')}
                  </Button>
                </AppForm>
              ) : null}
            </li>
          );
        })}
      </ul>
      {others.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">{t('account.sessions.none_other')}</p>
      ) : null}
    </Card>
  );
}
