import { Hono } from 'hono';
import { eq } from 'drizzle-orm';
import { webhookEndpoints } from '../../drizzle/schema';
import type { Env } from '../env';
import { isProduction } from '../env';
import { createDb } from '../platform/db';
import { verifyWebhook } from '../domain/webhooks/signing';

/**
 * A partner's webhook receiver for trying webhooks locally, present only outside production (like the
 * ePDQ simulator and the development mailbox): `POST /dev/webhooks/receive/{endpoint id}` checks the
 * Standard Webhooks signature with that endpoint's secret (a partner would have it configured; here it
 * is read from D1), records what arrived in R2, and answers 200, or 401 when the signature is wrong;
 * `?fail=503` makes it answer that status, to see retries. `GET /dev/webhooks` lists what arrived.
 * It stands for a site of its own, so its texts are not translated.
 */
export const RECEIVER_PREFIX = 'dev/webhook-receiver/';

interface Receipt {
  received_at: string;
  endpoint: string;
  webhook_id: string | null;
  webhook_timestamp: string | null;
  webhook_signature: string | null;
  verified: boolean;
  answered: number;
  body: string;
}

export const webhookReceiver = new Hono<{ Bindings: Env }>()
  .use('*', async (c, next) => {
    if (isProduction(c.env)) return c.notFound();
    await next();
  })
  .post('/receive/:endpoint', async (c) => {
    const body = await c.req.text();
    const endpointId = c.req.param('endpoint');
    const [endpoint] = await createDb(c.env.DB)
      .select({ secret: webhookEndpoints.secret })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.public_id, endpointId))
      .limit(1);
    const headers = {
      id: c.req.header('webhook-id') ?? null,
      timestamp: c.req.header('webhook-timestamp') ?? null,
      signature: c.req.header('webhook-signature') ?? null,
    };
    const now = new Date();
    const verified = !!endpoint && (await verifyWebhook(endpoint.secret, headers, body, now));
    const wanted = Number(c.req.query('fail'));
    const answered = !verified ? 401 : wanted >= 400 && wanted <= 599 ? wanted : 200;
    const receipt: Receipt = {
      received_at: now.toISOString(),
      endpoint: endpointId,
      webhook_id: headers.id,
      webhook_timestamp: headers.timestamp,
      webhook_signature: headers.signature,
      verified,
      answered,
      body: body.slice(0, 20_000),
    };
    // Newest first in R2's lexical listing: the key starts with the time left until the year 2286.
    const order = String(9_999_999_999_999 - now.getTime()).padStart(13, '0');
    await c.env.FILES.put(`${RECEIVER_PREFIX}${order}-${crypto.randomUUID()}.json`, JSON.stringify(receipt), {
      httpMetadata: { contentType: 'application/json' },
    });
    return c.json(
      {
        received: answered === 200,
        verified,
        message: !verified
          ? 'The webhook-signature does not match.'
          : answered === 200
            ? 'Received.'
            : 'Failing on purpose (?fail).',
      },
      answered as 200,
    );
  })
  .get('/', async (c) => {
    const receipts = await recentReceipts(c.env, 50);
    const rows = receipts
      .map(
        (r) => `<tr><td>${escape(r.received_at.replace('T', ' ').slice(0, 19))}</td>
<td><code>${escape(r.webhook_id ?? '')}</code></td><td>${escape(eventOf(r.body))}</td>
<td class="${r.verified ? 'ok' : 'bad'}">${r.verified ? 'valid' : 'invalid'}</td><td>${r.answered}</td>
<td><details><summary>body</summary><pre>${escape(pretty(r.body))}</pre>
<p class="sig">webhook-timestamp: ${escape(r.webhook_timestamp ?? '')}<br>webhook-signature: ${escape(r.webhook_signature ?? '')}</p></details></td></tr>`,
      )
      .join('');
    return c.html(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Webhook receiver (development)</title>
<style>
body{font-family:system-ui,sans-serif;margin:0;color:#0f172a;background:#f8fafc}
header{background:#1e293b;color:#fff;padding:14px 20px;font-weight:700}
main{padding:20px;overflow-x:auto}table{border-collapse:collapse;width:100%;background:#fff;font-size:14px}
th,td{border-bottom:1px solid #e2e8f0;padding:8px;text-align:left;vertical-align:top}
.ok{color:#166534;font-weight:700}.bad{color:#991b1b;font-weight:700}pre{white-space:pre-wrap;max-width:60ch}
.sig{font-size:12px;color:#475569;word-break:break-all}
</style></head><body><header>Webhook receiver <small>(development: what partners' endpoints received)</small></header>
<main><h1>Received webhooks</h1>${
      receipts.length
        ? `<table><thead><tr><th>Received</th><th>webhook-id</th><th>Event</th><th>Signature</th><th>Answered</th><th>Content</th></tr></thead><tbody>${rows}</tbody></table>`
        : '<p>Nothing has arrived yet.</p>'
    }</main></body></html>`);
  });

/** The receiver's latest receipts, newest first. */
export async function recentReceipts(env: Env, limit: number): Promise<Receipt[]> {
  const listed = await env.FILES.list({ prefix: RECEIVER_PREFIX, limit });
  const out: Receipt[] = [];
  for (const o of listed.objects) {
    const obj = await env.FILES.get(o.key);
    if (obj) out.push((await obj.json()) as Receipt);
  }
  return out;
}

function eventOf(body: string): string {
  try {
    return String((JSON.parse(body) as { type?: string }).type ?? '');
  } catch {
    return '';
  }
}

function pretty(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}
