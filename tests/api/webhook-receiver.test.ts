/**
 * The development webhook receiver: any address under /dev/webhooks takes deliveries; it checks each with
 * the secret of the endpoint the delivery was made for, keeps every request (not only the newest 50),
 * and shows each one's headers and raw body, whose bytes are the ones signed.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { eq, inArray, sql } from 'drizzle-orm';
import { webhookDeliveries, webhookEndpoints } from '../../drizzle/schema';
import type { Env } from '../../workers/env';
import type { ActorCtx } from '../../workers/domain/context';
import { webhookEvents } from '../../workers/domain/webhooks/emit';
import { deliverWebhook } from '../../workers/domain/webhooks/delivery';
import { createWebhookEndpoint } from '../../workers/domain/webhooks/service';
import { verifyWebhook } from '../../workers/domain/webhooks/signing';
import {
  RECEIPTS_PER_PAGE,
  RECEIVER_PATH,
  recentReceipts,
  webhookReceiver,
} from '../../workers/web/webhook-receiver';
import { actorCtx, db, DEMO_ACCOUNTS, seedUk, SETUP_TIMEOUT_MS, testEnv } from '../support/world';

const quietQueue = { send: async () => {}, sendBatch: async () => {} };
let env: Env;
let admin: ActorCtx;
const app = new Hono<{ Bindings: Env }>().route(RECEIVER_PATH, webhookReceiver);
const page = async (path: string) => {
  const res = await app.request(`${env.PUBLIC_URL}${path}`, {}, env);
  return { status: res.status, html: await res.text() };
};

beforeAll(async () => {
  await seedUk();
  env = { ...testEnv(), JOBS: quietQueue } as unknown as Env;
  admin = await actorCtx(DEMO_ACCOUNTS.seniorAdmin, { env });
}, SETUP_TIMEOUT_MS);

describe('the test receiver', () => {
  it('takes a new endpoint at any address and checks each delivery with its own endpoint’s secret', async () => {
    // Two endpoints at the same address: the receiver cannot tell them apart by address, only by delivery.
    const address = `${env.PUBLIC_URL}/dev/webhooks/my-sis`;
    const a = await createWebhookEndpoint(admin, { url: address, events: ['invoice.paid'] });
    const b = await createWebhookEndpoint(admin, { url: address, events: ['invoice.paid'] });
    expect(a.secret).not.toBe(b.secret);
    const now = new Date();
    const companyId = admin.actor.companies[0]!.id;
    await webhookEvents(
      { db: db(), now },
      'invoice.paid',
      sql`SELECT ${companyId} AS company_id, NULL AS client_id, json_object('id', 'inv_rx', 'note', '<b>&é') AS data`,
    );
    const rows = await db()
      .select({
        id: webhookDeliveries.id,
        public_id: webhookDeliveries.public_id,
        endpoint: webhookEndpoints.public_id,
      })
      .from(webhookDeliveries)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpoint_id))
      .where(inArray(webhookEndpoints.public_id, [a.id, b.id]));
    expect(rows).toHaveLength(2);
    for (const r of rows) expect(await deliverWebhook(db(), env, r.id)).toBe('attempted');

    const delivered = await db()
      .select({ status: webhookDeliveries.status, code: webhookDeliveries.response_status })
      .from(webhookDeliveries)
      .where(
        inArray(
          webhookDeliveries.id,
          rows.map((r) => r.id),
        ),
      );
    expect(delivered).toEqual([
      { status: 'delivered', code: 200 },
      { status: 'delivered', code: 200 },
    ]);
    const receipts = await recentReceipts(env, 10);
    for (const r of rows) {
      const got = receipts.find((x) => x.webhook_id === r.public_id)!;
      expect(got).toMatchObject({
        verified: true,
        answered: 200,
        endpoint: r.endpoint,
        address: '/dev/webhooks/my-sis',
      });
    }

    // One request's page: every header and the raw body; the body's bytes are what was signed.
    const one = receipts.find((x) => x.webhook_id === rows[0].public_id)!;
    const shown = await page(`/dev/webhooks/requests/${one.key}`);
    expect(shown.status).toBe(200);
    for (const name of ['content-type', 'webhook-id', 'webhook-timestamp', 'webhook-signature'])
      expect(shown.html).toContain(`<code>${name}</code>`);
    expect(shown.html).toContain(`<code>${one.webhook_signature}</code>`);
    // The raw body as sent (not re-formatted), its markup escaped.
    expect(shown.html).toContain(one.body.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`));
    expect(one.body).toContain('<b>&é');
    const raw = await app.request(`${env.PUBLIC_URL}/dev/webhooks/requests/${one.key}/body`, {}, env);
    const bytes = new TextDecoder().decode(await raw.arrayBuffer());
    const secret = one.endpoint === a.id ? a.secret : b.secret;
    const headers = {
      id: one.webhook_id,
      timestamp: one.webhook_timestamp,
      signature: one.webhook_signature,
    };
    expect(await verifyWebhook(secret, headers, bytes, new Date())).toBe(true);
    const other = one.endpoint === a.id ? b.secret : a.secret;
    expect(await verifyWebhook(other, headers, bytes, new Date())).toBe(false);
  });

  it('answers 401 to a signature that does not match, and says why', async () => {
    const [delivery] = await db().select().from(webhookDeliveries).limit(1);
    const res = await app.request(
      `${env.PUBLIC_URL}/dev/webhooks/forged`,
      {
        method: 'POST',
        headers: {
          'webhook-id': delivery.public_id,
          'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
          'webhook-signature': 'v1,AAAA',
        },
        body: '{"type":"invoice.paid"}',
      },
      env,
    );
    expect(res.status).toBe(401);
    const [latest] = await recentReceipts(env, 1);
    expect(latest).toMatchObject({ verified: false, answered: 401, address: '/dev/webhooks/forged' });
    expect(latest.refused).toMatch(/does not match/);
  });

  it('keeps more than the newest 50 requests, older ones a page further', async () => {
    for (let i = 0; i < RECEIPTS_PER_PAGE + 5; i++)
      await app.request(`${env.PUBLIC_URL}/dev/webhooks/many`, { method: 'POST', body: `{"n":${i}}` }, env);
    const first = await page('/dev/webhooks');
    expect(first.html.match(/<tr><td>/g)).toHaveLength(RECEIPTS_PER_PAGE);
    expect(first.html).toContain('/dev/webhooks/many');
    const older = /href="(\/dev\/webhooks\?cursor=[^"]+)"/.exec(first.html)?.[1];
    expect(older).toBeTruthy();
    const second = await page(older!.replace(/&amp;/g, '&'));
    const total = RECEIPTS_PER_PAGE + 5 + 3; // the two deliveries and the forged request before them
    expect(second.html.match(/<tr><td>/g)).toHaveLength(total - RECEIPTS_PER_PAGE);
    expect(second.html).toContain('/dev/webhooks/my-sis');
  });
});
