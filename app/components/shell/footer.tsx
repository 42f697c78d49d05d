import { useTranslation } from 'react-i18next';
import { localePath } from '~/i18n/config';
import { useRootData } from '~/root';

/** Legal links (new tab), the regulated-intermediary text of the region, and the current year. */
export function Footer() {
  const { t, i18n } = useTranslation();
  const { region, year } = useRootData();
  const link = 'font-medium text-slate-600 hover:text-primary-700 hover:underline';
  return (
    <footer className="border-t border-slate-200 bg-white px-4 py-4 text-xs text-slate-500 sm:px-6">
      <div className="flex flex-col gap-2 md:flex-row md:items-center md:justify-between">
        <p>
          © {year} · {t(region === 'ie' ? 'footer.ie' : 'footer.uk')}
        </p>
        <nav className="flex flex-wrap gap-x-4 gap-y-1" aria-label={t('footer.legal')}>
          <a
            href={localePath(i18n.language, '/privacy-notice')}
            target="_blank"
            rel="noopener"
            className={link}
          >
            {t('footer.privacy')}
          </a>
          <a
            href={localePath(i18n.language, '/cookie-notice')}
            target="_blank"
            rel="noopener"
            className={link}
          >
            {t('footer.cookies')}
          </a>
          <a
            href={localePath(i18n.language, '/terms-of-use')}
            target="_blank"
            rel="noopener"
            className={link}
          >
            {t('footer.terms')}
          </a>
        </nav>
      </div>
    </footer>
  );
}

/**
 * Outside production every page carries the environment watermark: hanging from the top edge on a
 * desktop, and on a phone a strip at the end of the page, in its flow, where it can cover nothing (a
 * fixed one sat over the bottom bars of forms and bulk actions).
 */
export function Watermark() {
  const { t } = useTranslation();
  const { showWatermark } = useRootData();
  if (!showWatermark) return null;
  return (
    <div
      aria-hidden="true"
      data-testid="watermark"
      className="pointer-events-none w-full select-none bg-amber-400 px-3 py-1 text-center text-[10px] font-bold uppercase tracking-wider text-amber-950 sm:fixed sm:left-1/2 sm:top-0 sm:z-50 sm:w-auto sm:-translate-x-1/2 sm:rounded-b-md sm:bg-amber-400/90 sm:py-0.5 sm:shadow"
    >
      {t('shell.uat_environment')}
    </div>
  );
}
