import type { Env } from '../env';
import { isLocalHttp } from '../env';

/**
 * Cookie names and attributes. Outside local http every cookie is Secure and __Host- prefixed (bound to
 * this host, path /); all are HttpOnly and SameSite=Lax except the language cookie, which the page sets.
 *
 * Each region's cookies have names of their own where two regions can share them: cookies do not tell
 * ports apart, so the UK portal on localhost:8787 and Ireland's on localhost:8788 would read each other's
 * session, CSRF token and language. Over local http every name therefore starts with the region (`uk_sid`,
 * `ie_sid`, `ie_i18n_redirected`). Deployed, each region is a host of its own and its `__Host-` cookies are
 * bound to it, so the names stay as the spec gives them (`__Host-sid`, `i18n_redirected`).
 */
export type CookieName =
  'sid' | 'pin' | 'csrf' | 'invite' | 'reset' | 'i18n_redirected' | 'order_campus' | 'toast' | 'view_as';

export const COOKIE_MAX_AGE: Record<CookieName, number | undefined> = {
  sid: undefined, // a browser-session cookie; the server enforces idle and absolute timeouts
  pin: 10 * 60,
  csrf: undefined,
  invite: 24 * 60 * 60,
  reset: 10 * 60,
  i18n_redirected: 365 * 24 * 60 * 60,
  // The campus last chosen on the order page (its public id), so it is chosen again after a reload.
  order_campus: 30 * 24 * 60 * 60,
  // The flash toast of an action (app/lib/actions.server.ts): read and cleared by the next page load.
  toast: 60,
  // A support view's token (workers/domain/auth/support.ts): a browser-session cookie; the server ends
  // the view 5 minutes after its last use.
  view_as: undefined,
};

/** The environment a cookie's name depends on. */
export type CookieEnv = Pick<Env, 'PUBLIC_URL' | 'REGION'>;

export function cookieName(env: CookieEnv, name: CookieName): string {
  if (isLocalHttp(env)) return `${env.REGION}_${name}`;
  return name === 'i18n_redirected' ? name : `__Host-${name}`;
}

export function readCookie(request: Request, env: CookieEnv, name: CookieName): string | null {
  const header = request.headers.get('cookie');
  if (!header) return null;
  const wanted = cookieName(env, name);
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === wanted) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return null;
      }
    }
  }
  return null;
}

export function serializeCookie(
  env: CookieEnv,
  name: CookieName,
  value: string,
  opts: { maxAge?: number; clear?: boolean } = {},
): string {
  const parts = [`${cookieName(env, name)}=${encodeURIComponent(value)}`, 'Path=/', 'SameSite=Lax'];
  if (name !== 'i18n_redirected') parts.push('HttpOnly');
  if (!isLocalHttp(env)) parts.push('Secure');
  const maxAge = opts.clear ? 0 : (opts.maxAge ?? COOKIE_MAX_AGE[name]);
  if (maxAge !== undefined) parts.push(`Max-Age=${maxAge}`);
  return parts.join('; ');
}

export function clearCookie(env: CookieEnv, name: CookieName): string {
  return serializeCookie(env, name, '', { clear: true });
}
