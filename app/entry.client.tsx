import { RemixBrowser } from '@remix-run/react';
import { startTransition, StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { i18nConfig, pluralRulesPlugin, splitLocale } from './i18n/config';

declare global {
  interface Window {
    __i18n?: { lang: string; resources: Record<string, unknown> };
  }
}

async function hydrate() {
  const boot = window.__i18n;
  const lang = boot?.lang ?? splitLocale(window.location.pathname).lang;
  await i18next
    .use(initReactI18next)
    .use(pluralRulesPlugin)
    .init({
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

// A page chunk that fails to load (usually after a deployment replaced it) triggers one full reload,
// at most once per 60 seconds, so the browser picks up the new build.
const RELOAD_KEY = 'chunk-reload-at';
function reloadOnceForChunkError(message: string) {
  if (
    !/Failed to fetch dynamically imported module|Importing a module script failed|error loading dynamically imported module/i.test(
      message,
    )
  )
    return;
  const last = Number(sessionStorage.getItem(RELOAD_KEY) ?? 0);
  if (Date.now() - last < 60_000) return;
  sessionStorage.setItem(RELOAD_KEY, String(Date.now()));
  window.location.reload();
}
window.addEventListener('error', (e) => reloadOnceForChunkError(String(e.message ?? '')));
window.addEventListener('unhandledrejection', (e) =>
  reloadOnceForChunkError(String((e.reason as Error)?.message ?? e.reason ?? '')),
);
