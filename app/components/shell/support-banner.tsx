import { useTranslation } from 'react-i18next';
import { localePath } from '~/i18n/config';
import { useRootData } from '~/root';
import { AppForm } from '~/components/forms';

/**
 * Says, on every page of a support view, whose portal this is and who is looking; its button stops the
 * view and returns to the admin's own portal.
 */
export function SupportBanner() {
  const { t, i18n } = useTranslation();
  const { support } = useRootData();
  if (!support) return null;
  return (
    <div
      role="region"
      aria-label={t('support.title')}
      className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 bg-amber-100 px-4 py-2 text-sm text-amber-950 ring-1 ring-amber-300 sm:px-6"
      data-testid="support-banner"
    >
      <p className="min-w-0">
        <span className="font-semibold">
          {t('support.banner', { user: support.user, client: support.client })}
        </span>{' '}
        <span>{t('support.banner_detail', { admin: support.admin })}</span>
      </p>
      <AppForm method="post" action={localePath(i18n.language, '/support/stop')} reloadDocument>
        <button
          type="submit"
          className="rounded-lg bg-amber-900 px-3 py-1.5 text-sm font-semibold text-white hover:bg-amber-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-900"
          data-testid="stop-support-view"
        >
          {t('support.stop')}
        </button>
      </AppForm>
    </div>
  );
}
