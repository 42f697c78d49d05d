import type { AppLoadContext, EntryContext } from '@remix-run/cloudflare';
import { RemixServer } from '@remix-run/react';
import { isbot } from 'isbot';
import { createInstance } from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { renderToReadableStream } from 'react-dom/server';
import { i18nConfig, pluralRulesPlugin, splitLocale } from './i18n/config';
import { translationsOf } from '@server/platform/i18n';
import { NonceContext } from './lib/nonce';
import { pageCsp } from '@server/web/csp';

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const lang = splitLocale(new URL(request.url).pathname).lang;
  const instance = createInstance();
  await instance
    .use(initReactI18next)
    .use(pluralRulesPlugin)
    .init({
      ...i18nConfig,
      lng: lang,
      // The Worker's door loaded both (workers/http.ts).
      resources: { [lang]: { translation: translationsOf(lang) }, en: { translation: translationsOf('en') } },
    });

  const nonce = loadContext.cspNonce;
  let status = responseStatusCode;
  const body = await renderToReadableStream(
    <NonceContext.Provider value={nonce}>
      <I18nextProvider i18n={instance}>
        <RemixServer context={remixContext} url={request.url} nonce={nonce} />
      </I18nextProvider>
    </NonceContext.Provider>,
    {
      nonce,
      signal: request.signal,
      onError(error: unknown) {
        console.error(error);
        status = 500;
      },
    },
  );
  if (isbot(request.headers.get('user-agent') || '')) await body.allReady;

  responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
  responseHeaders.set('Content-Security-Policy', pageCsp(nonce, loadContext.env));
  return new Response(body, { headers: responseHeaders, status });
}
