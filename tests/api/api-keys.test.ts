import { beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { apiKeys, users, webhookDeliveries, webhookEndpoints } from '../../drizzle/schema';
import { countryId } from '../../drizzle/seed/builders';
import { hasValidChecksum } from '../../workers/domain/api-keys/token';
import { deliverWebhook } from '../../workers/domain/webhooks/delivery';
import { recentReceipts } from '../../workers/web/webhook-receiver';
import { apiToken, call, type ErrorEnvelope } from '../support/api';
import { DEMO_ACCOUNTS, SETUP_TIMEOUT_MS, testEnv } from '../support/world';
import { STRANGER } from '../support/contracts';
import {
  checkoutKey,
  db,
  day,
  seedCheckoutWorld,
  setClientTerms,
  type CheckoutWorld,
} from '../support/checkout';

vi.mock('@remix-run/cloudflare', () => import('../support/remix-stub'));

interface KeyRow {
  id: string;
  name: string;
  display: string;
  permissions: string[];
  state: string;
  last_used_at: string | null;
}
type Generated = { data: { key: string; api_key: KeyRow }; message: string };

let w: CheckoutWorld;
let school: string;
let senior: string;
let employee: string;
let stranger: string;

const ORDERING = ['create_insured', 'create_policy', 'read_insured', 'read_policy', 'read_invoice'];

beforeAll(async () => {
  w = await seedCheckoutWorld();
  await setClientTerms(w.oakwood.id, 'invoiced_directly', 'bank_transfer');
  [school, senior, employee, stranger] = await Promise.all([
    apiToken(DEMO_ACCOUNTS.schoolAdmin),
    apiToken(DEMO_ACCOUNTS.seniorAdmin),
    apiToken(DEMO_ACCOUNTS.campusEmployee),
    apiToken(STRANGER.companyUser),
  ]);
}, SETUP_TIMEOUT_MS);

const generate = (token: string | null, json: unknown) =>
  call<Generated & ErrorEnvelope>('/api/company/api-keys/generate', { method: 'POST', json, token });

describe('api-keys', () => {
  it('answers 401 without a token and 403 to a user who may not manage users', async () => {
    expect((await call('/api/company/api-keys')).status).toBe(401);
    expect((await generate(null, { name: 'x', permissions: ['read_insured'] })).status).toBe(401);
    expect((await call('/api/company/api-keys', { token: employee })).status).toBe(403);
  });

  it('generates a key shown once: ep_test_ prefix, a valid checksum, stored only as its hash', async () => {
    const r = await generate(school, { name: 'Oakwood SIS', permissions: ORDERING });
    expect(r.status).toBe(201);
    const { key, api_key } = r.body.data;
    expect(key).toMatch(/^ep_test_[0-9A-Za-z]{36}$/);
    expect(hasValidChecksum(key)).toBe(true);
    expect(api_key.display).toBe(`${key.slice(0, 12)}…`);
    expect(api_key.permissions).toEqual([...ORDERING].sort());
    const [row] = await db().select().from(apiKeys).where(eq(apiKeys.public_id, api_key.id));
    expect(JSON.stringify(row)).not.toContain(key);
    const list = await call<{ data: { api_keys: { items: KeyRow[] } } }>('/api/company/api-keys', {
      token: school,
    });
    expect(JSON.stringify(list.body)).not.toContain(key);
    expect(list.body.data.api_keys.items.map((k) => k.id)).toContain(api_key.id);
  });

  it('refuses a permission the creator does not hold, no permission, a past expiry', async () => {
    expect((await generate(school, { name: 'x', permissions: ['read_company'] })).status).toBe(403);
    const none = await generate(school, { name: 'x', permissions: [] });
    expect(none.status).toBe(422);
    expect(none.body.errors).toEqual([{ key: 'permissions', message: 'Choose at least one permission.' }]);
    const past = await generate(school, { name: 'x', permissions: ['read_insured'], expires_on: day(0) });
    expect(past.status).toBe(422);
    expect(past.body.errors).toEqual([
      { key: 'expires_on', message: 'The expiry date must be after today.' },
    ]);
    const unknown = await generate(school, { name: 'x', permissions: ['fly'] });
    expect(unknown.status).toBe(422);
  });

  it('acts as its creator within the key: allowed calls answer, others 403; a key cannot make keys', async () => {
    const { key } = (await generate(school, { name: 'read only', permissions: ['read_insured'] })).body.data;
    const me = await call<{ data: { company: { email: string } } }>('/api/company/auth/get', { token: key });
    expect(me.status).toBe(200);
    expect(me.body.data.company.email).toBe(DEMO_ACCOUNTS.schoolAdmin);
    expect((await call('/api/company/invoices', { token: key })).status).toBe(403);
    expect((await call('/api/company/api-keys', { token: key })).status).toBe(403);
    expect((await generate(key, { name: 'child', permissions: ['read_insured'] })).status).toBe(403);
  });

  it('refuses a wrong checksum, a revoked key, an expired key and a key whose creator was suspended', async () => {
    const { key, api_key } = (await generate(school, { name: 'short', permissions: ['read_insured'] })).body
      .data;
    const typo = key.slice(0, -1) + (key.endsWith('0') ? '1' : '0');
    expect((await call('/api/company/auth/get', { token: typo })).status).toBe(401);
    expect((await call('/api/company/auth/get', { token: key })).status).toBe(200);
    const revoke = await call(`/api/company/api-keys/${api_key.id}/revoke`, {
      method: 'POST',
      token: school,
    });
    expect(revoke.status).toBe(200);
    expect((await call('/api/company/auth/get', { token: key })).status).toBe(401);

    const second = (await generate(school, { name: 'expiring', permissions: ['read_insured'] })).body.data;
    await db()
      .update(apiKeys)
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where(eq(apiKeys.public_id, second.api_key.id));
    expect((await call('/api/company/auth/get', { token: second.key })).status).toBe(401);

    const third = (await generate(school, { name: 'creator', permissions: ['read_insured'] })).body.data;
    expect((await call('/api/company/auth/get', { token: third.key })).status).toBe(200);
    await db().update(users).set({ suspended: true }).where(eq(users.email, DEMO_ACCOUNTS.schoolAdmin));
    try {
      expect((await call('/api/company/auth/get', { token: third.key })).status).toBe(401);
    } finally {
      await db().update(users).set({ suspended: false }).where(eq(users.email, DEMO_ACCOUNTS.schoolAdmin));
    }
  });

  it('notes when a key was last used, at most once a minute', async () => {
    const { key, api_key } = (await generate(school, { name: 'used', permissions: ['read_insured'] })).body
      .data;
    await call('/api/company/auth/get', { token: key });
    const [first] = await db().select().from(apiKeys).where(eq(apiKeys.public_id, api_key.id));
    expect(first.last_used_at).not.toBeNull();
    await call('/api/company/auth/get', { token: key });
    const [again] = await db().select().from(apiKeys).where(eq(apiKeys.public_id, api_key.id));
    expect(again.last_used_at?.getTime()).toBe(first.last_used_at?.getTime());
  });

  it("does not show or revoke another tenant's keys (404)", async () => {
    const { api_key } = (await generate(school, { name: 'mine', permissions: ['read_insured'] })).body.data;
    const theirs = await call<{ data: { api_keys: { items: KeyRow[] } } }>('/api/company/api-keys', {
      token: stranger,
    });
    expect(theirs.body.data.api_keys.items.map((k) => k.id)).not.toContain(api_key.id);
    expect(
      (await call(`/api/company/api-keys/${api_key.id}/revoke`, { method: 'POST', token: stranger })).status,
    ).toBe(404);
    // A company's staff do not see a school's own keys either.
    expect(
      (await call(`/api/company/api-keys/${api_key.id}/revoke`, { method: 'POST', token: senior })).status,
    ).toBe(404);
  });
});

describe('webhooks', () => {
  it('refuses an http address other than the local receiver, and no events', async () => {
    const http = await call<ErrorEnvelope>('/api/company/webhooks/add', {
      method: 'POST',
      token: school,
      json: { url: 'http://partner.example/hook', events: ['invoice.issued'] },
    });
    expect(http.status).toBe(422);
    expect(http.body.errors).toEqual([{ key: 'url', message: 'The address must start with https://.' }]);
    const none = await call<ErrorEnvelope>('/api/company/webhooks/add', {
      method: 'POST',
      token: school,
      json: { url: 'https://partner.example/hook', events: [] },
    });
    expect(none.body.errors).toEqual([{ key: 'events', message: 'Choose at least one event.' }]);
  });

  it('a partner key orders through the API; the events are signed, delivered to the receiver and logged', async () => {
    const env = testEnv();
    const added = await call<{ data: { webhook: { id: string; secret: string } } }>(
      '/api/company/webhooks/add',
      {
        method: 'POST',
        token: school,
        json: { url: 'https://placeholder.invalid/', events: ['invoice.issued', 'policy.issued'] },
      },
    );
    expect(added.status).toBe(201);
    const endpointId = added.body.data.webhook.id;
    expect(added.body.data.webhook.secret).toMatch(/^whsec_/);
    // Point it at the local receiver (an http address of the portal itself, allowed outside production).
    await db()
      .update(webhookEndpoints)
      .set({ url: `${env.PUBLIC_URL}/dev/webhooks/receive/${endpointId}` })
      .where(eq(webhookEndpoints.public_id, endpointId));

    const { key } = (await generate(school, { name: 'partner', permissions: ORDERING })).body.data;
    const FR = await countryId(db(), 'FR');
    const GB = await countryId(db(), 'GB');
    const made = await call<{ data: { policy_batch: { id: string } } }>(
      `/api/company/campuses/${w.north.public_id}/policies/add/batch`,
      {
        method: 'POST',
        token: key,
        json: {
          contract_id: w.contract.public_id,
          items: [
            {
              type: 'student',
              first_name: 'Ama',
              last_name: 'Partner',
              date_of_birth: '2006-09-10',
              residence_country_id: FR,
              destination_country_id: GB,
              start_date: day(7),
              end_date: day(40),
            },
          ],
        },
      },
    );
    expect(made.status).toBe(201);
    const batch = made.body.data.policy_batch.id;
    expect(
      (await call(`/api/company/policy-batches/${batch}/enrollments/confirm`, { method: 'POST', token: key }))
        .status,
    ).toBe(200);
    const checkout = await call<{ data: { invoice: { number: string } } }>(
      '/api/company/policy-batches/confirm-open',
      {
        method: 'POST',
        token: key,
        json: { checkout_key: checkoutKey(), payment_method: 'invoiced_directly' },
      },
    );
    expect(checkout.status).toBe(200);

    const rows = await db().select().from(webhookDeliveries).orderBy(webhookDeliveries.id);
    const mine = rows.filter((r) => r.status === 'pending');
    expect(mine.map((r) => r.event_type).sort()).toEqual(['invoice.issued', 'policy.issued']);
    for (const r of mine) await deliverWebhook(db(), env, r.id);

    const log = await call<{
      data: { deliveries: { items: { event_type: string; status: string; response_status: number }[] } };
    }>(`/api/company/webhooks/deliveries?endpoint_id=${endpointId}`, { token: school });
    expect(
      log.body.data.deliveries.items.map((d) => [d.event_type, d.status, d.response_status]).sort(),
    ).toEqual([
      ['invoice.issued', 'delivered', 200],
      ['policy.issued', 'delivered', 200],
    ]);
    const receipts = await recentReceipts(env, 10);
    const invoice = receipts.find((r) => r.body.includes(checkout.body.data.invoice.number));
    expect(invoice?.verified).toBe(true);
    expect(invoice?.webhook_signature).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
  });

  it('retries a failed delivery with backoff, and redelivers on request', async () => {
    const env = testEnv();
    const [endpoint] = await db().select().from(webhookEndpoints).limit(1);
    await db()
      .update(webhookEndpoints)
      .set({ url: `${env.PUBLIC_URL}/dev/webhooks/receive/${endpoint.public_id}?fail=503` })
      .where(eq(webhookEndpoints.id, endpoint.id));
    const now = new Date();
    const [row] = await db()
      .insert(webhookDeliveries)
      .values({
        public_id: `msg_test_${Date.now()}`,
        endpoint_id: endpoint.id,
        event_type: 'invoice.paid',
        payload: '{"type":"invoice.paid","data":{}}',
        next_attempt_at: now,
        created_at: now,
      })
      .returning();
    await deliverWebhook(db(), env, row.id, now);
    const [after] = await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.id, row.id));
    expect(after).toMatchObject({ status: 'pending', attempts: 1, response_status: 503 });
    expect(after.next_attempt_at!.getTime() - now.getTime()).toBe(5000);
    // Three days on, the next failure gives up.
    const late = new Date(now.getTime() + 3 * 24 * 3600 * 1000);
    await deliverWebhook(db(), env, row.id, late);
    const [gaveUp] = await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.id, row.id));
    expect(gaveUp).toMatchObject({ status: 'failed', attempts: 2, next_attempt_at: null });
    // The log filters by status: the failed delivery is among the failed ones, and only failed ones.
    const token = endpoint.client_id ? school : senior;
    type Log = { data: { deliveries: { items: { id: string; status: string }[] } } };
    const failed = await call<Log>(`/api/company/webhooks/deliveries?status=failed&items=100`, { token });
    expect(failed.body.data.deliveries.items.map((d) => d.id)).toContain(row.public_id);
    expect(new Set(failed.body.data.deliveries.items.map((d) => d.status))).toEqual(new Set(['failed']));
    const delivered = await call<Log>(`/api/company/webhooks/deliveries?status=delivered&items=100`, {
      token,
    });
    expect(delivered.body.data.deliveries.items.map((d) => d.id)).not.toContain(row.public_id);
    const redeliver = await call(`/api/company/webhooks/deliveries/${row.public_id}/redeliver`, {
      method: 'POST',
      token: endpoint.client_id ? school : senior,
    });
    expect(redeliver.status).toBe(200);
    const [again] = await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.id, row.id));
    expect(again.status).toBe('pending');
    expect(
      (
        await call(`/api/company/webhooks/deliveries/${row.public_id}/redeliver`, {
          method: 'POST',
          token: stranger,
        })
      ).status,
    ).toBe(404);
  });
});
