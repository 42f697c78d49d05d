import { RemixBrowser } from '@remix-run/react';
import { startTransition, StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { i18nConfig, splitLocale } from './i18n/config';

declare global {
  interface Window {
    __i18n?: { lang: string; resources: Record<string, unknown> };
  }
}

async function hydrate() {
  const boot = window.__i18n;
  const lang = boot?.lang ?? splitLocale(window.location.pathname).lang;
  await i18next.use(initReactI18next).init({
    ...i18nConfig,
    lng: lang,
    resources: boot ? { [lang]: { translation: boot.resources } } : {},
  });
  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18next}>
        <StrictMode>
          <RemixBrowser />
        </StrictMode>
      </I18nextProvider>,
    );
  });
}

if (window.requestIdleCallback) window.requestIdleCallback(hydrate);
else window.setTimeout(hydrate, 1);
