/**
 * Standard Webhooks signatures (standardwebhooks.com): the secret is `whsec_` + base64 of random bytes;
 * each delivery carries `webhook-id`, `webhook-timestamp` (seconds) and
 * `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body" under the secret's bytes>`.
 */
import { constantTimeEqual, randomBytes } from '../../platform/crypto';

const encoder = new TextEncoder();

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/** A new signing secret: 24 random bytes. */
export function newWebhookSecret(): string {
  return `whsec_${toBase64(randomBytes(24))}`;
}

export async function webhookSignature(
  secret: string,
  id: string,
  timestamp: number,
  body: string,
): Promise<string> {
  const key = await crypto.subtle.importKey(
    'raw',
    fromBase64(secret.replace(/^whsec_/, '')),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const mac = await crypto.subtle.sign('HMAC', key, encoder.encode(`${id}.${timestamp}.${body}`));
  return `v1,${toBase64(new Uint8Array(mac))}`;
}

/** The headers of one delivery attempt. */
export async function signedHeaders(
  secret: string,
  id: string,
  body: string,
  now: Date,
): Promise<Record<string, string>> {
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': await webhookSignature(secret, id, timestamp, body),
  };
}

/** Tolerance of a receiver for the timestamp, as the standard suggests. */
export const TIMESTAMP_TOLERANCE_S = 5 * 60;

/**
 * What a receiver checks: one of the space-separated `v1,` signatures matches and the timestamp is
 * within five minutes of now.
 */
export async function verifyWebhook(
  secret: string,
  headers: { id: string | null; timestamp: string | null; signature: string | null },
  body: string,
  now: Date,
): Promise<boolean> {
  if (!headers.id || !headers.timestamp || !headers.signature) return false;
  const ts = Number(headers.timestamp);
  if (!Number.isInteger(ts) || Math.abs(now.getTime() / 1000 - ts) > TIMESTAMP_TOLERANCE_S) return false;
  const expected = await webhookSignature(secret, headers.id, ts, body);
  return headers.signature.split(' ').some((s) => constantTimeEqual(s, expected));
}
