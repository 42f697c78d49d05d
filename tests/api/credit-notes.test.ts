/**
 * The credit-note model through the API (docs/decisions/billing.md "Credit notes and refunds: the
 * model"): a policy cancelled with POST policies/{id}/cancel on an unpaid and on a paid invoice answers a
 * credit note that names the invoice; GET invoices/{id}, invoices/summary, billing/summary and the
 * client's statement read the lower balance; the credit on a paid invoice is refunded with
 * record/refund and the invoice stays paid.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { invoices } from '../../drizzle/schema';
import { createApp } from '../../workers/http';
import { apiToken, call } from '../support/api';
import { DEMO_ACCOUNTS, SETUP_TIMEOUT_MS, testEnv, uniqueIp } from '../support/world';
import { day, db, issuePolicies, seedAmendmentsWorld, type PolicyRow } from '../support/amendments';
import type { CheckoutWorld } from '../support/checkout';

vi.mock('@remix-run/cloudflare', () => import('../support/remix-stub'));

const app = createApp();

interface Invoice {
  id: string;
  number: string;
  type: string;
  status: string;
  total_minor: number;
  balance_minor: number;
  account_credit_minor: number;
  credited_minor: number;
  policy_count: number;
  payment_method: string;
  credit_for: { id: string; number: string } | null;
  credit_notes: { id: string; number: string; total_minor: number }[];
}

let w: CheckoutWorld;
let school: string;
let finance: string;
beforeAll(async () => {
  w = await seedAmendmentsWorld();
  school = await apiToken(DEMO_ACCOUNTS.schoolAdmin);
  finance = await apiToken(DEMO_ACCOUNTS.finance);
}, SETUP_TIMEOUT_MS);

async function cancel(p: PolicyRow) {
  const r = await call<{
    data: { amendment: { invoices: { id: string; type: string; total_minor: number }[] } };
  }>(`/api/company/policies/${p.public_id}/cancel`, {
    method: 'POST',
    json: { reason: 'Did not travel' },
    token: school,
  });
  expect(r.status).toBe(200);
  return r.body.data.amendment.invoices;
}

const invoice = async (id: string) =>
  (await call<{ data: { invoice: Invoice } }>(`/api/company/invoices/${id}`, { token: finance })).body.data
    .invoice;

async function money(path: string, fields: Record<string, string>) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  const res = await app.request(
    path,
    {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${finance}`, 'cf-connecting-ip': uniqueIp() },
    },
    testEnv(),
  );
  return { status: res.status, body: (await res.json()) as { message?: string; data: { invoice: Invoice } } };
}

/** The figures of the demo school's client in GBP: invoices' summary, /billing's aging, the statement. */
async function figures() {
  const client = w.oakwood.public_id;
  const list = await call<{
    data: {
      summary: {
        currency: string;
        count: number;
        total_minor: number;
        balance_minor: number;
        credit_minor: number;
        paid_minor: number;
        credit_notes: { count: number; total_minor: number };
      }[];
    };
  }>(`/api/company/invoices/summary?client_id=${client}&currency=GBP`, { token: finance });
  const billing = await call<{
    data: {
      aging: {
        client: { id: string };
        currency: string;
        total_minor: number;
        unapplied_credit_minor: number;
      }[];
    };
  }>('/api/company/billing/summary', { token: finance });
  const statement = await call<{
    data: { statement: { currencies: { currency: string; closing_balance_minor: number }[] } };
  }>(`/api/company/clients/${client}/statement`, { token: finance });
  const s = list.body.data.summary[0];
  const aging = billing.body.data.aging.find((a) => a.client.id === client && a.currency === 'GBP')!;
  const closing = statement.body.data.statement.currencies.find((c) => c.currency === 'GBP')!;
  expect(s.total_minor - s.credit_notes.total_minor - s.paid_minor).toBe(s.balance_minor - s.credit_minor);
  expect(aging.total_minor).toBe(s.balance_minor - s.credit_minor);
  expect(aging.unapplied_credit_minor).toBe(s.credit_minor);
  expect(closing.closing_balance_minor).toBe(aging.total_minor);
  return { ...s, owed: aging.total_minor };
}

describe('a cancelled policy through the API', () => {
  it('on an unpaid invoice: a credit note naming it, the balance lower everywhere', async () => {
    const issued = await issuePolicies(w, 2);
    const [inv] = await db().select().from(invoices).where(eq(invoices.id, issued[0].invoice_id!));
    const before = await figures();
    const [doc] = await cancel(issued[0]);
    const note = await invoice(doc.id);
    expect(note).toMatchObject({
      type: 'credit_note',
      status: 'issued',
      policy_count: 1,
      payment_method: inv.payment_method,
      credit_for: { id: inv.public_id, number: inv.number },
    });
    const corrected = await invoice(inv.public_id);
    expect(corrected).toMatchObject({
      status: 'unpaid',
      credited_minor: note.total_minor,
      balance_minor: inv.total_minor - note.total_minor,
    });
    expect(corrected.credit_notes.map((c) => c.id)).toEqual([note.id]);
    const after = await figures();
    expect(after.owed).toBe(before.owed - note.total_minor);
    expect(after.balance_minor).toBe(before.balance_minor - note.total_minor);
    expect([after.count, after.total_minor]).toEqual([before.count, before.total_minor]);
    expect(after.credit_notes).toEqual({
      count: before.credit_notes.count + 1,
      total_minor: before.credit_notes.total_minor + note.total_minor,
    });
  });

  it('on a paid invoice: the credit is on the account, refunded with the invoice staying paid', async () => {
    const issued = await issuePolicies(w, 2);
    const [inv] = await db().select().from(invoices).where(eq(invoices.id, issued[0].invoice_id!));
    const base = `/api/company/invoices/${inv.public_id}/transactions`;
    const amount = (minor: number) => (minor / 100).toFixed(2);
    const paid = await money(`${base}/record`, {
      amount: amount(inv.total_minor),
      paid_on: day(0),
      method: 'bank_transfer',
    });
    expect(paid.status).toBe(201);
    const before = await figures();
    const [doc] = await cancel(issued[0]);
    expect(await invoice(inv.public_id)).toMatchObject({
      status: 'paid',
      balance_minor: 0,
      account_credit_minor: doc.total_minor,
    });
    const after = await figures();
    expect(after.credit_minor).toBe(before.credit_minor + doc.total_minor);
    expect(after.owed).toBe(before.owed - doc.total_minor);

    const tooMuch = await money(`${base}/record/refund`, {
      amount: amount(doc.total_minor + 1),
      paid_on: day(0),
      method: 'bank_transfer',
    });
    expect(tooMuch.status).toBe(422);
    const refund = await money(`${base}/record/refund`, {
      amount: amount(doc.total_minor),
      paid_on: day(0),
      method: 'bank_transfer',
    });
    expect(refund.status).toBe(201);
    expect(refund.body.data.invoice).toMatchObject({
      status: 'paid',
      balance_minor: 0,
      account_credit_minor: 0,
    });
    const done = await figures();
    expect(done.owed).toBe(before.owed);
    expect(done.credit_minor).toBe(before.credit_minor);
  });
});
