import type { Env } from '../env';
import { constantTimeEqual, randomToken } from '../platform/crypto';
import { readCookie, serializeCookie } from './cookies';

export const CSRF_FIELD = '_csrf';
export const CSRF_HEADER = 'x-csrf-token';

/** Paths that receive cross-site posts by design and are verified by their own signature. */
const EXEMPT = [/^\/payment\/[^/]+\/callback\//, /^\/payment\/[^/]+\/notify/];

export function isCsrfExempt(pathname: string): boolean {
  return EXEMPT.some((re) => re.test(pathname));
}

/**
 * Double-submit check for every state-changing page request: the form's `_csrf` field (or the
 * x-csrf-token header) must equal the csrf cookie. The cookie is HttpOnly; pages get the value from the
 * root loader. Returns the token to use for the response (issuing one when the browser has none).
 */
export async function checkCsrf(
  request: Request,
  env: Env,
): Promise<{ ok: boolean; token: string; setCookie: string | null }> {
  const existing = readCookie(request, env, 'csrf');
  const token = existing ?? randomToken();
  const setCookie = existing ? null : serializeCookie(env, 'csrf', token);
  const method = request.method.toUpperCase();
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return { ok: true, token, setCookie };
  if (!existing) return { ok: false, token, setCookie };
  let submitted = request.headers.get(CSRF_HEADER);
  if (!submitted) {
    const type = request.headers.get('content-type') ?? '';
    if (type.includes('application/x-www-form-urlencoded') || type.includes('multipart/form-data')) {
      try {
        const form = await request.clone().formData();
        const value = form.get(CSRF_FIELD);
        submitted = typeof value === 'string' ? value : null;
      } catch {
        submitted = null;
      }
    }
  }
  return { ok: !!submitted && constantTimeEqual(submitted, existing), token, setCookie };
}
