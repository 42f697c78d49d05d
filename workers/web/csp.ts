import type { Env } from '../env';
import { hostedPageUrl } from '../platform/epdq';

/** A fresh nonce for one page: 128 random bits, base64. */
export function newCspNonce(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
}

/**
 * The Content-Security-Policy of a page. Scripts run only from our own origin or inline with this
 * page's nonce (Remix's inline scripts and the i18n boot script carry it); forms post only to the portal
 * to the card provider's hosted payment page (the checkout's form) and to the other region (the hand-over
 * form's answer is a redirect there, and browsers hold a form's redirects to form-action). Styles keep 'unsafe-inline' for
 * React's style attributes. See docs/decisions/platform.md.
 */
export function pageCsp(
  nonce: string,
  env: Pick<Env, 'EPDQ_URL' | 'PUBLIC_URL'> & Partial<Pick<Env, 'OTHER_REGION_URL'>>,
): string {
  const formAction = ["'self'"];
  if (env.OTHER_REGION_URL) {
    const other = new URL(env.OTHER_REGION_URL).origin;
    if (!formAction.includes(other)) formAction.push(other);
  }
  if (env.EPDQ_URL) {
    const card = new URL(hostedPageUrl(env.EPDQ_URL, env.PUBLIC_URL)).origin;
    if (!formAction.includes(card)) formAction.push(card);
  }
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "connect-src 'self'",
    `form-action ${formAction.join(' ')}`,
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "object-src 'none'",
  ].join('; ');
}

/**
 * The Content-Security-Policy of the few HTML pages the Worker writes itself (the maintenance page, the
 * card provider's local simulator): no script at all, inline styles, forms to the portal only.
 */
export const STATIC_PAGE_CSP = [
  "default-src 'self'",
  "script-src 'none'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "object-src 'none'",
].join('; ');
