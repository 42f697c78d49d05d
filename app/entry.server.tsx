import type { AppLoadContext, EntryContext } from '@remix-run/cloudflare';
import { RemixServer } from '@remix-run/react';
import { isbot } from 'isbot';
import { createInstance } from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { renderToReadableStream } from 'react-dom/server';
import { i18nConfig, splitLocale } from './i18n/config';
import { resources } from './i18n/i18next.server';

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  _loadContext: AppLoadContext,
) {
  const lang = splitLocale(new URL(request.url).pathname).lang;
  const instance = createInstance();
  await instance.use(initReactI18next).init({
    ...i18nConfig,
    lng: lang,
    resources: { [lang]: { translation: resources[lang] }, en: { translation: resources.en } },
  });

  let status = responseStatusCode;
  const body = await renderToReadableStream(
    <I18nextProvider i18n={instance}>
      <RemixServer context={remixContext} url={request.url} />
    </I18nextProvider>,
    {
      signal: request.signal,
      onError(error: unknown) {
        console.error(error);
        status = 500;
      },
    },
  );
  if (isbot(request.headers.get('user-agent') || '')) await body.allReady;

  responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
  responseHeaders.set(
    'Content-Security-Policy',
    "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; form-action 'self' http: https:; frame-ancestors 'none'; base-uri 'self'",
  );
  return new Response(body, { headers: responseHeaders, status });
}
