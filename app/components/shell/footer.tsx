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

/** Outside production every page carries the environment watermark. */
export function Watermark() {
  const { t } = useTranslation();
  const { showWatermark } = useRootData();
  if (!showWatermark) return null;
  return (
    <div
      aria-hidden="true"
      data-testid="watermark"
      className="pointer-events-none fixed bottom-0 left-1/2 z-50 -translate-x-1/2 select-none rounded-t-md bg-amber-400/90 sm:bottom-auto sm:top-0 sm:rounded-b-md sm:rounded-t-none px-3 py-0.5 text-[10px] font-bold uppercase tracking-wider text-amber-950 shadow"
    >
      {t('shell.uat_environment')}
    </div>
  );
}
