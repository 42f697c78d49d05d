import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { localePath } from '~/i18n/config';
import { useRootData } from '~/root';
import { AppForm } from '~/components/forms';

/**
 * Says, on every page of a support view, whose portal this is and who is looking; its button stops the
 * view and returns to the admin's own portal. It stays in view above the top bar while the page scrolls
 * (the shell's sticky top block); its height, in `--support-banner-h`, moves the side menu down by as
 * much. Outside production the environment watermark hangs from the top edge on a desktop: the banner
 * leaves it a band of its own so neither covers the other (on a phone the watermark ends the page).
 */
export function SupportBanner() {
  const { t, i18n } = useTranslation();
  const { support, showWatermark } = useRootData();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const root = document.documentElement.style;
    const observer = new ResizeObserver(() =>
      root.setProperty('--support-banner-h', `${el.getBoundingClientRect().height}px`),
    );
    observer.observe(el);
    return () => {
      observer.disconnect();
      root.removeProperty('--support-banner-h');
    };
  }, [support]);
  if (!support) return null;
  return (
    <div
      ref={ref}
      role="region"
      aria-label={t('support.title')}
      className={`flex items-center justify-between gap-x-3 bg-amber-100 px-4 py-1.5 text-xs text-amber-950 sm:flex-wrap sm:gap-x-4 sm:gap-y-2 sm:py-2 sm:text-sm ring-1 ring-amber-300 sm:px-6 ${
        showWatermark ? 'sm:pt-6' : ''
      }`}
      data-testid="support-banner"
    >
      <p className="min-w-0">
        <span className="font-semibold">
          {t('support.banner', { user: support.user, client: support.client })}
        </span>{' '}
        {/* On a phone the banner stays short (it stays in view): the detail is for screen readers there. */}
        <span className="sr-only sm:not-sr-only">{t('support.banner_detail', { admin: support.admin })}</span>
      </p>
      <AppForm method="post" action={localePath(i18n.language, '/support/stop')} reloadDocument>
        <button
          type="submit"
          className="shrink-0 rounded-lg bg-amber-900 px-3 py-1.5 text-sm font-semibold text-white hover:bg-amber-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-900"
          data-testid="stop-support-view"
        >
          {t('support.stop')}
        </button>
      </AppForm>
    </div>
  );
}
