import { Hono } from 'hono';
import { eq } from 'drizzle-orm';
import { webhookDeliveries, webhookEndpoints } from '../../drizzle/schema';
import type { Env } from '../env';
import { isProduction } from '../env';
import { createDb } from '../platform/db';
import { verifyWebhook } from '../domain/webhooks/signing';
import { receiptPage, receiptsPage } from './webhook-receiver-pages';

/**
 * A partner's webhook receiver for trying webhooks locally, present only outside production (like the
 * ePDQ simulator and the development mailbox). Every address under `/dev/webhooks/` takes POSTs, so an
 * endpoint a person registers on /api-keys (`http://localhost:8787/dev/webhooks/my-sis`) is delivered
 * to as soon as it is added. It stands for every partner at once: it checks the Standard Webhooks
 * signature with the secret of the endpoint the delivery was made for (found by the `webhook-id`
 * header; a real partner has its one secret configured), records the request as it arrived (all
 * headers, the body's exact bytes) in R2, and answers 200, or 401 when the signature does not match;
 * `?fail=503` in the address makes it answer that status instead, to see retries.
 * `GET /dev/webhooks` lists what arrived, newest first, 50 a page with older pages behind; each request
 * has a page of its own with its headers and raw body, and the body's bytes to download, so a partner
 * can check the signature over exactly what was signed. It stands for a site of its own, so its texts
 * are not translated.
 */
/** Where the Worker serves it (workers/http.ts). */
export const RECEIVER_PATH = '/dev/webhooks';
export const RECEIVER_PREFIX = 'dev/webhook-receiver/requests/';
const BODY_PREFIX = 'dev/webhook-receiver/bodies/';
/** The most of a body it keeps (webhook bodies are a few KB). */
const MAX_BODY_BYTES = 1_000_000;
export const RECEIPTS_PER_PAGE = 50;

export interface Receipt {
  /** The request's key in the receiver (its page: `/dev/webhooks/requests/{key}`). */
  key: string;
  received_at: string;
  method: string;
  /** The path and query it was posted to, under /dev/webhooks. */
  address: string;
  /** Every header as it arrived, in order. */
  headers: [string, string][];
  webhook_id: string | null;
  webhook_timestamp: string | null;
  webhook_signature: string | null;
  /** The endpoint the delivery was made for (its public id), when the webhook-id names a delivery. */
  endpoint: string | null;
  verified: boolean;
  /** Why the signature was refused (null when it matched). */
  refused: string | null;
  answered: number;
  body_bytes: number;
  /** The body as text (UTF-8), exactly as it arrived. */
  body: string;
}

/** The secret of the endpoint the delivery named by `webhookId` was made for. */
async function endpointOf(env: Env, webhookId: string | null) {
  if (!webhookId) return null;
  const [row] = await createDb(env.DB)
    .select({ id: webhookEndpoints.public_id, secret: webhookEndpoints.secret })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpoint_id))
    .where(eq(webhookDeliveries.public_id, webhookId))
    .limit(1);
  return row ?? null;
}

export const webhookReceiver = new Hono<{ Bindings: Env }>()
  .use('*', async (c, next) => {
    if (isProduction(c.env)) return c.notFound();
    await next();
  })
  .get('/', async (c) => {
    const cursor = c.req.query('cursor') || undefined;
    const page = await listReceipts(c.env, { limit: RECEIPTS_PER_PAGE, cursor });
    return c.html(receiptsPage(page.receipts, page.cursor, Boolean(cursor)));
  })
  .get('/requests/:key', async (c) => {
    const receipt = await readReceipt(c.env, c.req.param('key'));
    return receipt ? c.html(receiptPage(receipt)) : c.text('No such request.', 404);
  })
  .get('/requests/:key/body', async (c) => {
    const key = c.req.param('key');
    const obj = /^[\w-]+$/.test(key) ? await c.env.FILES.get(`${BODY_PREFIX}${key}`) : null;
    if (!obj) return c.text('No such request.', 404);
    return new Response(obj.body, {
      headers: {
        'content-type': 'application/octet-stream',
        'content-disposition': `attachment; filename="${key}.body"`,
      },
    });
  })
  .post('/*', async (c) => {
    const bytes = new Uint8Array(await c.req.arrayBuffer());
    if (bytes.length > MAX_BODY_BYTES) return c.json({ received: false, message: 'Too large.' }, 413);
    const body = new TextDecoder().decode(bytes);
    const headers = {
      id: c.req.header('webhook-id') ?? null,
      timestamp: c.req.header('webhook-timestamp') ?? null,
      signature: c.req.header('webhook-signature') ?? null,
    };
    const now = new Date();
    const endpoint = await endpointOf(c.env, headers.id);
    const verified = !!endpoint && (await verifyWebhook(endpoint.secret, headers, body, now));
    const refused = verified
      ? null
      : !endpoint
        ? 'No delivery of the portal has this webhook-id.'
        : 'The webhook-signature does not match (or the webhook-timestamp is more than 5 minutes off).';
    const wanted = Number(c.req.query('fail'));
    const answered = !verified ? 401 : wanted >= 400 && wanted <= 599 ? wanted : 200;
    const url = new URL(c.req.url);
    // Newest first in R2's lexical listing: the key starts with the time left until the year 2286.
    const key = `${String(9_999_999_999_999 - now.getTime()).padStart(13, '0')}-${crypto.randomUUID()}`;
    const receipt: Receipt = {
      key,
      received_at: now.toISOString(),
      method: c.req.method,
      address: `${url.pathname}${url.search}`,
      headers: [...c.req.raw.headers.entries()],
      webhook_id: headers.id,
      webhook_timestamp: headers.timestamp,
      webhook_signature: headers.signature,
      endpoint: endpoint?.id ?? null,
      verified,
      refused,
      answered,
      body_bytes: bytes.length,
      body,
    };
    await Promise.all([
      c.env.FILES.put(`${RECEIVER_PREFIX}${key}`, JSON.stringify(receipt), {
        httpMetadata: { contentType: 'application/json' },
      }),
      c.env.FILES.put(`${BODY_PREFIX}${key}`, bytes),
    ]);
    return c.json(
      {
        received: answered === 200,
        verified,
        message: refused ?? (answered === 200 ? 'Received.' : 'Failing on purpose (?fail).'),
      },
      answered as 200,
    );
  });

/** A page of the receiver's receipts, newest first; `cursor` continues with older ones. */
export async function listReceipts(
  env: Env,
  opts: { limit: number; cursor?: string },
): Promise<{ receipts: Receipt[]; cursor: string | null }> {
  const listed = await env.FILES.list({ prefix: RECEIVER_PREFIX, limit: opts.limit, cursor: opts.cursor });
  const receipts = await Promise.all(
    listed.objects.map(async (o) => {
      const obj = await env.FILES.get(o.key);
      return obj ? ((await obj.json()) as Receipt) : null;
    }),
  );
  return {
    receipts: receipts.filter((r): r is Receipt => r !== null),
    cursor: listed.truncated ? listed.cursor : null,
  };
}

/** The receiver's latest receipts, newest first. */
export async function recentReceipts(env: Env, limit: number): Promise<Receipt[]> {
  return (await listReceipts(env, { limit })).receipts;
}

async function readReceipt(env: Env, key: string): Promise<Receipt | null> {
  if (!/^[\w-]+$/.test(key)) return null;
  const obj = await env.FILES.get(`${RECEIVER_PREFIX}${key}`);
  return obj ? ((await obj.json()) as Receipt) : null;
}
