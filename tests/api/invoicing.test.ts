/**
 * Periodic invoicing over the API: checkout on account answers its batches and when they will be
 * invoiced; clients/{id}/generate-invoices and campuses/{id}/generate-invoices preview (GET) and issue
 * (POST) once, refuse bad input with the 422 envelope, and hide other tenants.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { and, eq, isNull } from 'drizzle-orm';
import { policies } from '../../drizzle/schema';
import { invoicedOn } from '../../workers/domain/invoices/periodic';
import { todayIso } from '../../workers/domain/validation';
import { apiToken, call, type ErrorEnvelope } from '../support/api';
import { DEMO_ACCOUNTS, SETUP_TIMEOUT_MS } from '../support/world';
import { STRANGER } from '../support/contracts';
import {
  checkoutKey,
  db,
  openBatch,
  seedCheckoutWorld,
  setClientTerms,
  type CheckoutWorld,
} from '../support/checkout';

vi.mock('@remix-run/cloudflare', () => import('../support/remix-stub'));

type Preview = {
  data: {
    client: { id: string; payment_terms: string };
    invoice_rule: string;
    invoices: { currency: string; policies: number; total_minor: number; campus: { id: string } | null }[];
  };
};
type Issued = { data: { invoices: { id: string; number: string; total_minor: number }[] } };

let w: CheckoutWorld;
let school: string;
let finance: string;
let stranger: string;
const today = todayIso(new Date());

beforeAll(async () => {
  w = await seedCheckoutWorld();
  await setClientTerms(w.oakwood.id, 'weekly', 'bank_transfer');
  school = await apiToken(DEMO_ACCOUNTS.schoolAdmin);
  finance = await apiToken(DEMO_ACCOUNTS.finance);
  stranger = await apiToken(STRANGER.companyUser);
}, SETUP_TIMEOUT_MS);

const onAccount = () =>
  db()
    .select()
    .from(policies)
    .where(and(eq(policies.client_id, w.oakwood.id), isNull(policies.invoice_id)));

describe('checkout on account', () => {
  it('answers the batches without an invoice and the day they will be invoiced', async () => {
    await openBatch(w, 2);
    const res = await call<{
      data: {
        invoices: unknown[];
        policy_batches: { invoice: null }[];
        on_account: { invoiced_on: string; policies: number }[];
      };
    }>('/api/company/policy-batches/confirm-open', {
      method: 'POST',
      token: school,
      json: { checkout_key: checkoutKey(), payment_method: 'invoiced_directly' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.invoices).toEqual([]);
    expect(res.body.data.policy_batches).toEqual([expect.objectContaining({ invoice: null })]);
    expect(res.body.data.on_account).toEqual([
      expect.objectContaining({ policies: 2, invoiced_on: invoicedOn('weekly', today) }),
    ]);
    expect(await onAccount()).toHaveLength(2);
  });
});

describe('generate-invoices', () => {
  const path = (kind: 'clients' | 'campuses', id: string) => `/api/company/${kind}/${id}/generate-invoices`;
  const range = `from=${today}&to=${today}`;

  it('previews with GET, changing nothing', async () => {
    const res = await call<Preview>(`${path('clients', w.oakwood.public_id)}?${range}`, { token: finance });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      client: { id: w.oakwood.public_id, payment_terms: 'weekly' },
      invoice_rule: 'by_location',
    });
    expect(res.body.data.invoices).toEqual([
      expect.objectContaining({ policies: 2, campus: expect.objectContaining({ id: w.north.public_id }) }),
    ]);
    expect(await onAccount()).toHaveLength(2);
    const campus = await call<Preview>(`${path('campuses', w.south.public_id)}?${range}`, { token: finance });
    expect(campus.status).toBe(200);
    expect(campus.body.data.invoices).toEqual([]);
  });

  it('issues with POST once: the second answers no invoices', async () => {
    const preview = await call<Preview>(`${path('clients', w.oakwood.public_id)}?${range}`, {
      token: finance,
    });
    const res = await call<Issued>(path('campuses', w.north.public_id), {
      method: 'POST',
      token: finance,
      json: { from: today, to: today },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.invoices).toHaveLength(1);
    expect(res.body.data.invoices[0].number).toMatch(/^INV\d{7}$/);
    expect(res.body.data.invoices[0].total_minor).toBe(preview.body.data.invoices[0].total_minor);
    expect(await onAccount()).toHaveLength(0);
    const again = await call<Issued>(path('clients', w.oakwood.public_id), {
      method: 'POST',
      token: finance,
      json: { from: today, to: today },
    });
    expect(again.status).toBe(200);
    expect(again.body.data.invoices).toEqual([]);
  });

  it('refuses bad input with the 422 envelope', async () => {
    const missing = await call<ErrorEnvelope>(`${path('clients', w.oakwood.public_id)}?from=${today}`, {
      token: finance,
    });
    expect(missing.status).toBe(422);
    const reversed = await call<ErrorEnvelope>(path('clients', w.oakwood.public_id), {
      method: 'POST',
      token: finance,
      json: { from: '2026-02-01', to: '2026-01-01' },
    });
    expect(reversed.status).toBe(422);
    const notADate = await call<ErrorEnvelope>(path('clients', w.oakwood.public_id), {
      method: 'POST',
      token: finance,
      json: { from: '2026-02-30', to: '2026-03-01' },
    });
    expect(notADate.status).toBe(422);
  });

  it('refuses who may not invoice and hides other tenants', async () => {
    expect((await call(`${path('clients', w.oakwood.public_id)}?${range}`)).status).toBe(401);
    expect((await call(`${path('clients', w.oakwood.public_id)}?${range}`, { token: school })).status).toBe(
      403,
    );
    expect((await call(`${path('clients', w.oakwood.public_id)}?${range}`, { token: stranger })).status).toBe(
      404,
    );
    const post = await call(path('campuses', w.north.public_id), {
      method: 'POST',
      token: stranger,
      json: { from: today, to: today },
    });
    expect(post.status).toBe(404);
  });
});
