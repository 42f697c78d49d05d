/**
 * `Idempotency-Key` on every call that moves money (record a payment or a refund, approve a bank
 * transfer, confirm an amendment or a checkout, cancel, generate period invoices): the same key with the
 * same request answers the first answer again and records nothing more, sent one after the other or both
 * at once; with another request it is refused (409); without a key the call works as before; one user's
 * key is not another's.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { activityLogs, idempotencyKeys, invoices, transactions } from '../../drizzle/schema';
import { confirmOpenBatches } from '../../workers/domain/checkout/service';
import { confirmOpenSchema } from '../../workers/domain/checkout/schema';
import { todayIso } from '../../workers/domain/validation';
import { purgeExpiredIdempotencyKeys } from '../../workers/platform/idempotency';
import { createApp } from '../../workers/http';
import { apiToken, type ErrorEnvelope } from '../support/api';
import { DEMO_ACCOUNTS, SETUP_TIMEOUT_MS, testEnv, uniqueIp } from '../support/world';
import { day, db, issuePolicies, seedAmendmentsWorld } from '../support/amendments';
import { asSchool, checkoutKey, openBatch, setClientTerms, type CheckoutWorld } from '../support/checkout';

vi.mock('@remix-run/cloudflare', () => import('../support/remix-stub'));

const app = createApp();

type Body = { json?: unknown; form?: Record<string, string> };
interface Answer {
  status: number;
  replayed: string | null;
  body: unknown;
}

async function send(path: string, body: Body, token: string, key?: string): Promise<Answer> {
  const headers: Record<string, string> = {
    authorization: `Bearer ${token}`,
    'cf-connecting-ip': uniqueIp(),
  };
  if (key !== undefined) headers['idempotency-key'] = key;
  let payload: BodyInit | undefined;
  if (body.form) {
    const form = new FormData();
    for (const [k, v] of Object.entries(body.form)) form.set(k, v);
    payload = form;
  } else if (body.json !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body.json);
  }
  const res = await app.request(path, { method: 'POST', headers, body: payload }, testEnv());
  const text = await res.text();
  return { status: res.status, replayed: res.headers.get('idempotent-replayed'), body: JSON.parse(text) };
}

/** Everything a money call records: transactions, invoices and credit notes, activity-log rows. */
async function recorded(): Promise<number> {
  const count = async (table: typeof transactions | typeof invoices | typeof activityLogs) =>
    Number(
      (
        await db()
          .select({ n: sql<number>`count(*)` })
          .from(table)
      )[0].n,
    );
  return (await count(transactions)) + (await count(invoices)) + (await count(activityLogs));
}

let keys = 0;
const newKey = () => `key-${Date.now().toString(36)}-${++keys}`;

let w: CheckoutWorld;
let school: string;
let finance: string;
let admin: string;
beforeAll(async () => {
  w = await seedAmendmentsWorld();
  school = await apiToken(DEMO_ACCOUNTS.schoolAdmin);
  finance = await apiToken(DEMO_ACCOUNTS.finance);
  admin = await apiToken(DEMO_ACCOUNTS.admin);
}, SETUP_TIMEOUT_MS);

async function unpaidInvoice(): Promise<string> {
  const [policy] = await issuePolicies(w, 1);
  const [row] = await db()
    .select({ public_id: invoices.public_id })
    .from(invoices)
    .where(eq(invoices.id, policy.invoice_id!));
  return row.public_id;
}

const payment = (amount = '10.00') => ({
  form: { amount, paid_on: day(0), method: 'bank_transfer' },
});

/** A fresh request of one money call: its path and body, and another request to send with the same key. */
interface Prepared {
  path: string;
  body: Body;
  other: { path: string; body: Body };
}
interface MoneyCall {
  name: string;
  token: () => string;
  prepare: () => Promise<Prepared>;
}

const MONEY_CALLS: MoneyCall[] = [
  {
    name: 'record a payment',
    token: () => finance,
    prepare: async () => {
      const path = `/api/company/invoices/${await unpaidInvoice()}/transactions/record`;
      return { path, body: payment(), other: { path, body: payment('11.00') } };
    },
  },
  {
    name: 'record a refund',
    token: () => finance,
    prepare: async () => {
      // A refund gives back credit: a paid invoice whose policy is then cancelled.
      const [policy] = await issuePolicies(w, 1);
      const [{ id, total }] = await db()
        .select({ id: invoices.public_id, total: invoices.total_minor })
        .from(invoices)
        .where(eq(invoices.id, policy.invoice_id!));
      const paid = await send(
        `/api/company/invoices/${id}/transactions/record`,
        payment((total / 100).toFixed(2)),
        finance,
      );
      expect(paid.status).toBe(201);
      const cancelled = await send(
        `/api/company/policies/${policy.public_id}/cancel`,
        { json: { reason: 'Did not travel' } },
        school,
      );
      expect(cancelled.status).toBe(200);
      const path = `/api/company/invoices/${id}/transactions/record/refund`;
      return { path, body: payment('5.00'), other: { path, body: payment('6.00') } };
    },
  },
  {
    name: 'approve a bank transfer',
    token: () => finance,
    prepare: async () => {
      const path = `/api/company/payment/invoices/${await unpaidInvoice()}/approve-bank-transfer`;
      return { path, body: { json: { date: day(-1) } }, other: { path, body: { json: { date: day(-2) } } } };
    },
  },
  {
    name: 'confirm an amendment',
    token: () => school,
    prepare: async () => {
      const issued = await issuePolicies(w, 2);
      const quote = await send(
        '/api/company/policies/amount',
        { json: { type: 'extend', policies: issued.map((p) => p.public_id), new_end_date: day(36) } },
        school,
      );
      const id = (quote.body as { data: { amendment: { id: string } } }).data.amendment.id;
      return {
        path: `/api/company/policies/amount/${id}/confirm`,
        body: {},
        // Another request: the confirmation of another quote.
        other: { path: '/api/company/policies/amount/another-quote/confirm', body: {} },
      };
    },
  },
  {
    name: 'cancel a policy',
    token: () => school,
    prepare: async () => {
      const [policy] = await issuePolicies(w, 1);
      const path = `/api/company/policies/${policy.public_id}/cancel`;
      return {
        path,
        body: { json: { reason: 'Trip cancelled' } },
        other: { path, body: { json: { reason: 'Trip postponed' } } },
      };
    },
  },
  {
    name: 'confirm a checkout',
    token: () => school,
    prepare: async () => {
      await openBatch(w, 2);
      const path = '/api/company/policy-batches/confirm-open';
      return {
        path,
        body: { json: { checkout_key: checkoutKey() } },
        other: { path, body: { json: { checkout_key: checkoutKey() } } },
      };
    },
  },
];

describe.each(MONEY_CALLS)('Idempotency-Key: $name', ({ token, prepare }) => {
  it('answers the first answer again for the same key and request, and records nothing more', async () => {
    const { path, body } = await prepare();
    const key = newKey();
    const before = await recorded();
    const first = await send(path, body, token(), key);
    expect(first.status).toBeLessThan(300);
    expect(first.replayed).toBeNull();
    const once = await recorded();
    expect(once).toBeGreaterThan(before);

    const again = await send(path, body, token(), key);
    expect(again).toEqual({ ...first, replayed: 'true' });
    expect(await recorded()).toBe(once);
  });

  it('refuses the same key with another request (409), recording nothing', async () => {
    const { path, body, other } = await prepare();
    const key = newKey();
    expect((await send(path, body, token(), key)).status).toBeLessThan(300);
    const before = await recorded();
    const refused = await send(other.path, other.body, token(), key);
    expect(refused.status).toBe(409);
    expect((refused.body as ErrorEnvelope).message).toBe(
      'This Idempotency-Key was already used with another request. Use a new key for a new request.',
    );
    expect(await recorded()).toBe(before);
  });

  it('records once when two requests with the same key arrive together', async () => {
    // What one request records, measured on a request of the same shape without a key.
    const single = await prepare();
    const start = await recorded();
    expect((await send(single.path, single.body, token())).status).toBeLessThan(300);
    const one = (await recorded()) - start;

    const { path, body } = await prepare();
    const key = newKey();
    const before = await recorded();
    const answers = await Promise.all([send(path, body, token(), key), send(path, body, token(), key)]);
    expect((await recorded()) - before).toBe(one);
    const ran = answers.filter((a) => a.status < 300 && a.replayed === null);
    expect(ran).toHaveLength(1);
    for (const a of answers.filter((x) => x !== ran[0])) {
      if (a.status === 409)
        expect((a.body as ErrorEnvelope).message).toBe(
          'A request with this Idempotency-Key is still being processed. Try again in a moment.',
        );
      else expect(a).toEqual({ ...ran[0], replayed: 'true' });
    }
    // Once the first has answered, the key answers it.
    expect(await send(path, body, token(), key)).toEqual({ ...ran[0], replayed: 'true' });
  });
});

describe('Idempotency-Key: generate period invoices', () => {
  it('answers the issued invoices again for the same key, once issued; refuses another period', async () => {
    await setClientTerms(w.oakwood.id, 'weekly', 'bank_transfer');
    await openBatch(w, 2);
    await confirmOpenBatches(await asSchool(), confirmOpenSchema.parse({ checkout_key: checkoutKey() }));
    const today = todayIso(new Date());
    const path = `/api/company/clients/${w.oakwood.public_id}/generate-invoices`;
    const key = newKey();
    const before = await recorded();
    const answers = await Promise.all([
      send(path, { json: { from: today, to: today } }, finance, key),
      send(path, { json: { from: today, to: today } }, finance, key),
    ]);
    const ran = answers.filter((a) => a.replayed === null && a.status === 200);
    expect(ran).toHaveLength(1);
    const issued = (ran[0].body as { data: { invoices: unknown[] } }).data.invoices;
    expect(issued).toHaveLength(1);
    const once = await recorded();
    expect(once).toBeGreaterThan(before);
    // Without the key, issuing again answers no invoices; with it, the first answer.
    expect(await send(path, { json: { from: today, to: today } }, finance, key)).toEqual({
      ...ran[0],
      replayed: 'true',
    });
    const fresh = await send(path, { json: { from: today, to: today } }, finance);
    expect((fresh.body as { data: { invoices: unknown[] } }).data.invoices).toEqual([]);
    const other = await send(path, { json: { from: day(-7), to: today } }, finance, key);
    expect(other.status).toBe(409);
    expect(await recorded()).toBe(once);
    await setClientTerms(w.oakwood.id, 'invoiced_directly', 'bank_transfer');
  });
});

describe('Idempotency-Key: scope, absence and shape', () => {
  it('records each request sent without a key, as before', async () => {
    const path = `/api/company/invoices/${await unpaidInvoice()}/transactions/record`;
    const first = await send(path, payment(), finance);
    const second = await send(path, payment(), finance);
    expect([first.status, second.status]).toEqual([201, 201]);
    const rows = await db()
      .select({ id: transactions.id })
      .from(transactions)
      .innerJoin(invoices, eq(invoices.id, transactions.invoice_id))
      .where(eq(invoices.public_id, path.split('/')[4]));
    expect(rows).toHaveLength(2);
  });

  it("keeps one user's key apart from another's: the same key sent by two users records twice", async () => {
    const path = `/api/company/invoices/${await unpaidInvoice()}/transactions/record`;
    const key = newKey();
    const byFinance = await send(path, payment(), finance, key);
    const before = await recorded();
    const byAdmin = await send(path, payment(), admin, key);
    expect([byFinance.status, byAdmin.status]).toEqual([201, 201]);
    expect(byAdmin.replayed).toBeNull();
    expect(await recorded()).toBeGreaterThan(before);
    // And another body from the other user is no conflict either.
    expect((await send(path, payment('3.00'), admin, newKey())).status).toBe(201);
  });

  it('refuses a key that is empty, too long or not printable ASCII (400), recording nothing', async () => {
    const path = `/api/company/invoices/${await unpaidInvoice()}/transactions/record`;
    const before = await recorded();
    for (const key of ['', 'x'.repeat(256), 'key\twith-a-tab']) {
      const refused = await send(path, payment(), finance, key);
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        message: 'The Idempotency-Key header must be 1 to 255 printable ASCII characters.',
        errors: [
          {
            key: 'Idempotency-Key',
            message: 'The Idempotency-Key header must be 1 to 255 printable ASCII characters.',
          },
        ],
      });
    }
    expect(await recorded()).toBe(before);
    expect((await send(path, payment(), finance, 'x'.repeat(255))).status).toBe(201);
  });

  it("agrees with the payment form's own one-time key: a new header with a used form key answers that payment", async () => {
    const path = `/api/company/invoices/${await unpaidInvoice()}/transactions/record`;
    const form = { form: { ...payment().form, idempotency_key: `form-${newKey()}` } };
    const first = await send(path, form, finance, newKey());
    expect(first.status).toBe(201);
    const before = await recorded();
    const second = await send(path, form, finance, newKey());
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ data: { duplicate: true } });
    expect((second.body as { data: { transaction: { id: string } } }).data.transaction.id).toBe(
      (first.body as { data: { transaction: { id: string } } }).data.transaction.id,
    );
    expect(await recorded()).toBe(before);
  });

  it('claims no key for a request refused for its input, so the corrected one can use it', async () => {
    const path = `/api/company/invoices/${await unpaidInvoice()}/transactions/record`;
    const key = newKey();
    const bad = await send(path, { form: { amount: '10.00', method: 'bank_transfer' } }, finance, key);
    expect(bad.status).toBe(422);
    expect((await send(path, payment(), finance, key)).status).toBe(201);
  });

  it('runs again a request whose first run was abandoned or whose key is past its 24 hours', async () => {
    const path = `/api/company/invoices/${await unpaidInvoice()}/transactions/record`;
    const key = newKey();
    const first = await send(path, payment(), finance, key);
    expect(first.status).toBe(201);
    const mine = eq(idempotencyKeys.key, key);
    // A claim left running past its time (a request cut off): the key may be used again.
    await db()
      .update(idempotencyKeys)
      .set({ state: 'running', running_until: new Date(Date.now() - 1000) })
      .where(mine);
    const rerun = await send(path, payment(), finance, key);
    expect(rerun.status).toBe(201);
    expect(rerun.replayed).toBeNull();
    const [kept] = await db().select().from(idempotencyKeys).where(mine);
    expect(kept.expires_at.getTime() - kept.created_at.getTime()).toBe(24 * 60 * 60 * 1000);
    expect(kept.scope).toMatch(/^user:\d+$/);

    // Past its 24 hours the key is a new key: the request runs again; the cron forgets expired keys.
    expect(await send(path, payment(), finance, key)).toMatchObject({ status: 201, replayed: 'true' });
    await db()
      .update(idempotencyKeys)
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where(mine);
    const afresh = await send(path, payment(), finance, key);
    expect(afresh).toMatchObject({ status: 201, replayed: null });
    await db()
      .update(idempotencyKeys)
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where(mine);
    await purgeExpiredIdempotencyKeys(db(), new Date());
    expect(await db().select().from(idempotencyKeys).where(mine)).toEqual([]);
  });
});

describe('Idempotency-Key in the OpenAPI document', () => {
  it('names the header, and the 409, on the money calls and not on others', async () => {
    const res = await app.request('/api/openapi.json', {}, testEnv());
    const doc = (await res.json()) as {
      paths: Record<
        string,
        Record<string, { parameters?: { name: string; in: string }[]; responses: object }>
      >;
    };
    const headerOf = (path: string, method: string) =>
      (doc.paths[path][method].parameters ?? []).find(
        (p) => p.in === 'header' && p.name === 'Idempotency-Key',
      );
    for (const [path, method] of [
      ['/api/company/invoices/{id}/transactions/record', 'post'],
      ['/api/company/invoices/{id}/transactions/record/refund', 'post'],
      ['/api/company/payment/invoices/{invoiceId}/approve-bank-transfer', 'post'],
      ['/api/company/policies/amount/{id}/confirm', 'post'],
      ['/api/company/policy-batches/confirm-open', 'post'],
      ['/api/company/clients/{id}/generate-invoices', 'post'],
      ['/api/company/campuses/{id}/generate-invoices', 'post'],
    ]) {
      expect(headerOf(path, method), `${method} ${path}`).toBeDefined();
      expect(doc.paths[path][method].responses).toHaveProperty('409');
    }
    expect(headerOf('/api/company/clients/{id}/generate-invoices', 'get')).toBeUndefined();
  });
});
