import { Hono } from 'hono';
import { createRequestHandler, type ServerBuild } from '@remix-run/cloudflare';
import { unknownPrefixCheck } from './web/page-prefix';
import type { Env } from './env';
import { isProduction } from './env';
import { createDb, type DB } from './platform/db';
import { resolvePageActor } from './domain/auth/sessions';
import { api } from './api';
import { errorBody } from './api/errors';
import { langOf } from './api/context';
import { checkCsrf, isCsrfExempt } from './web/csrf';
import { clearCookie, readCookie } from './web/cookies';
import { maintenancePage } from './web/maintenance';
import { devRoutes } from './web/dev';
import { epdqSimulator } from './web/epdq-simulator';
import { devOrdering } from './web/dev-ordering';
import { devAmendments } from './web/dev-amendments';
import { devPolicies } from './web/dev-policies';
import { devConversations } from './web/dev-conversations';
import { devReconciliation } from './web/dev-reconciliation';
import { devJobs } from './web/dev-jobs';
import { RECEIVER_PATH, webhookReceiver } from './web/webhook-receiver';
import { flushNewDeliveries } from './domain/webhooks/delivery';
import { newCspNonce, STATIC_PAGE_CSP } from './web/csp';
import { loadLanguages, preferredLanguage, readTranslationsFrom } from './platform/i18n';
import { splitLocale } from '../app/i18n/config';

export type AppEnv = { Bindings: Env; Variables: { db: DB; now: Date; requestId: string } };

/** Set on every answer of the Worker; public/_headers repeats them for static files. */
export const SECURITY_HEADERS: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=()',
};

/**
 * The Worker's front door: request id, security headers, maintenance switch; /api/* to the JSON API;
 * everything else to Remix with the session and CSRF resolved. `build` is absent in API-only tests.
 */
export function createApp(build?: ServerBuild) {
  const app = new Hono<AppEnv>();
  const remix = build ? createRequestHandler(build, isDevBuild() ? 'development' : 'production') : null;
  const isUnknownPrefix = build ? unknownPrefixCheck(build) : () => false;

  app.use('*', async (c, next) => {
    const requestId = c.req.header('cf-ray') ?? crypto.randomUUID();
    c.set('requestId', requestId);
    c.set('now', new Date());
    c.set('db', createDb(c.env.DB));
    // The translations this request may need: its page's language (the path prefix; the API answers in
    // the language of Accept-Language) and English, read once per isolate (workers/platform/i18n.ts).
    readTranslationsFrom(c.env.ASSETS);
    await loadLanguages([
      c.req.path.startsWith('/api/')
        ? preferredLanguage(c.req.header('accept-language'))
        : splitLocale(c.req.path).lang,
    ]);
    await next();
    // Webhook events a change wrote (webhooks/emit.ts) go to the queue once the change is done.
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD')
      await flushNewDeliveries(c.get('db'), c.env, c.get('now'));
    c.res.headers.set('x-request-id', requestId);
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) if (!c.res.headers.has(k)) c.res.headers.set(k, v);
    // Remix's pages carry their own policy (with the page's nonce); any other HTML gets the static one.
    const type = c.res.headers.get('content-type') ?? '';
    if (type.startsWith('text/html') && !c.res.headers.has('content-security-policy'))
      c.res.headers.set('content-security-policy', STATIC_PAGE_CSP);
    if (!isProduction(c.env)) c.res.headers.set('x-robots-tag', 'noindex');
  });

  app.use('*', async (c, next) => {
    if (c.env.MAINTENANCE !== '1') return next();
    if (c.req.path.startsWith('/api/')) {
      return c.json(
        { message: 'Service is currently under maintenance. Please try again later.', errors: [] },
        503,
      );
    }
    return c.html(maintenancePage(c.req.path), 503, { 'retry-after': '600' });
  });

  app.route('/api', api);
  // A sub-app's notFound is not used once mounted: without this, unknown /api paths would reach Remix.
  app.all('/api/*', (c) => c.json(errorBody('errors.not_found', [], langOf(c)), 404));
  app.route('/__dev', devRoutes);
  app.route('/__dev/ordering', devOrdering);
  app.route('/__dev/amendments', devAmendments);
  app.route('/__dev/policies', devPolicies);
  app.route('/__dev/conversations', devConversations);
  app.route('/__dev/reconciliation', devReconciliation);
  app.route('/__dev/jobs', devJobs);
  app.route('/dev/epdq', epdqSimulator);
  app.route(RECEIVER_PATH, webhookReceiver);

  app.all('*', async (c) => {
    if (!remix) return c.notFound();
    const request = c.req.raw;
    const url = new URL(request.url);
    const csrf = await checkCsrf(request, c.env);
    if (!csrf.ok && !isCsrfExempt(url.pathname)) {
      return c.text('The form has expired. Go back, reload the page and try again.', 403);
    }
    const db = c.get('db');
    const now = c.get('now');
    // Remix's route manifest (`/__manifest`, asked as a page's links come into view) answers the public
    // route table whoever asks: it reads no session, so none is looked up for it.
    const sessionToken = url.pathname === '/__manifest' ? null : readCookie(request, c.env, 'sid');
    // A support view open in this browser (workers/domain/auth/support.ts) stands in for the admin.
    const resolved = sessionToken
      ? await resolvePageActor(db, sessionToken, readCookie(request, c.env, 'view_as'), now)
      : null;
    const response = await remix(request, {
      env: c.env,
      db,
      now,
      actor: resolved?.actor ?? null,
      session: resolved?.session ?? null,
      sessionToken: resolved ? sessionToken : null,
      csrfToken: csrf.token,
      cspNonce: newCspNonce(),
      unknownPrefix: isUnknownPrefix(url.pathname),
      dataRequest: url.pathname.endsWith('.data'),
      requestId: c.get('requestId'),
      ip: request.headers.get('cf-connecting-ip'),
      waitUntil: (p) => c.executionCtx.waitUntil(p),
    });
    const viewEnded = resolved?.viewEnded ? clearCookie(c.env, 'view_as') : null;
    if (csrf.setCookie || viewEnded) {
      const headers = new Headers(response.headers);
      if (csrf.setCookie) headers.append('set-cookie', csrf.setCookie);
      if (viewEnded) headers.append('set-cookie', viewEnded);
      return new Response(response.body, {
        status: response.status,
        statusText: response.statusText,
        headers,
      });
    }
    return response;
  });

  return app;
}

declare const process: { env: { NODE_ENV?: string } };
function isDevBuild(): boolean {
  try {
    return process.env.NODE_ENV === 'development';
  } catch {
    return false;
  }
}
