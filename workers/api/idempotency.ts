/**
 * `Idempotency-Key` on the calls that move money, as Stripe's API has it. A call names `idempotent` among
 * its handlers, after its validators (a request refused for its input claims no key, so it can be
 * corrected and sent again with the same key) and before the handler:
 *
 * - no header: the call runs as always;
 * - a new key: the call runs and its answer (status and body) is kept 24 hours for the sender's scope
 *   (the API key, or the user of a session: one user's keys never meet another's);
 * - the same key with the same request (method, path and body): the first answer again, with
 *   `Idempotent-Replayed: true`, and nothing more recorded;
 * - the same key with another request: 409, 'This Idempotency-Key was used with another request…';
 * - the same key while its first request is still running: 409, '…is still being processed…', so two
 *   requests arriving together never both record;
 * - a call that fails with a server error (5xx) keeps nothing: its writes are one batch, so nothing was
 *   recorded, and the same key may be sent again.
 *
 * Decided in docs/decisions/api-and-partners.md, "Idempotency keys".
 */
import type { Context, MiddlewareHandler } from 'hono';
import { sha256Hex, toHex } from '../platform/crypto';
import { claimKey, keepAnswer, releaseKey, type KeyRef } from '../platform/idempotency';
import { readJson } from './body';
import { langOf, type ApiEnv } from './context';
import { errorBody } from './errors';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** Printable ASCII, 1 to 255 characters (Stripe's limit). */
const KEY_SHAPE = /^[\x21-\x7e](?:[\x20-\x7e]{0,253}[\x21-\x7e])?$/;

/** JSON with its object keys sorted, so that the same body written in another order is the same request. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/** A multipart body by its fields (sorted by name; files by name, type and the SHA-256 of their bytes). */
async function canonicalForm(form: FormData): Promise<string> {
  const fields: [string, string][] = [];
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') fields.push([name, `text:${value}`]);
    else {
      const digest = toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', await value.arrayBuffer())));
      fields.push([name, `file:${value.name}:${value.type}:${digest}`]);
    }
  }
  fields.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify(fields);
}

/**
 * What makes two requests the same: method, path with query and body. The body as it was read (the
 * validators have read it): a multipart body's boundary changes from one sending to the next, its fields
 * do not.
 */
async function fingerprintOf(c: Context<ApiEnv>): Promise<string> {
  const url = new URL(c.req.url);
  const type = (c.req.header('content-type') ?? '').split(';')[0].trim().toLowerCase();
  let body = '';
  if (type === 'multipart/form-data') body = await canonicalForm(await c.req.formData());
  else {
    // No body and `{}` (what many clients send with every POST) are the same request.
    const value = await readJson(c);
    if (value !== undefined && canonicalJson(value) !== '{}') body = canonicalJson(value);
  }
  return sha256Hex(`${c.req.method}\n${url.pathname}${url.search}\n${body}`);
}

/** The middleware of a call that moves money (see above). */
export const idempotent: MiddlewareHandler<ApiEnv> = async (c, next) => {
  const key = c.req.header(IDEMPOTENCY_HEADER);
  const actor = c.get('actor');
  if (key === undefined || !actor) return next();
  const lang = langOf(c);
  if (!KEY_SHAPE.test(key)) {
    const message = 'errors.idempotency.key';
    return c.json(errorBody(message, [{ key: IDEMPOTENCY_HEADER, message }], lang), 400);
  }
  const db = c.get('db');
  const ref: KeyRef = {
    scope: actor.api_key_id !== null ? `key:${actor.api_key_id}` : `user:${actor.user_id}`,
    key,
    fingerprint: await fingerprintOf(c),
  };
  const claim = await claimKey(db, ref, c.get('now'));
  if (claim.kind === 'other_request')
    return c.json(errorBody('errors.idempotency.other_request', [], lang), 409);
  if (claim.kind === 'running') return c.json(errorBody('errors.idempotency.running', [], lang), 409);
  if (claim.kind === 'answered') {
    const { status, contentType, body } = claim.answer;
    return new Response(body, {
      status,
      headers: { ...(contentType ? { 'content-type': contentType } : {}), 'idempotent-replayed': 'true' },
    });
  }

  await next();
  const res = c.res;
  if (res.status >= 500) {
    await releaseKey(db, ref);
    return;
  }
  try {
    await keepAnswer(db, ref, {
      status: res.status,
      contentType: res.headers.get('content-type'),
      body: await res.clone().text(),
    });
  } catch (e) {
    // The answer could not be kept (larger than a row may hold): the key is let go of, and the call's
    // own rules keep a repeat from recording twice.
    console.error('Idempotency: the answer could not be kept', e);
    await releaseKey(db, ref);
  }
};
