import { beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { invoices, policyBatches } from '../../drizzle/schema';
import { answerAmount, signOut, verifyIn } from '../../workers/platform/epdq';
import { apiToken, call, type ErrorEnvelope } from '../support/api';
import { DEMO_ACCOUNTS, SETUP_TIMEOUT_MS, testEnv } from '../support/world';
import { STRANGER } from '../support/contracts';
import {
  checkoutKey,
  day,
  db,
  openBatch,
  seedCheckoutWorld,
  setClientTerms,
  trip,
  type CheckoutWorld,
} from '../support/checkout';

vi.mock('@remix-run/cloudflare', () => import('../support/remix-stub'));

type InvoiceAnswer = {
  data: {
    invoice: {
      id: string;
      number: string;
      status: string;
      total: number;
      currency: string;
      payment_method: string;
      policy_count: number;
      items?: { policy: { policy_number: string; full_name: string } }[];
      meta?: { total: number; per_page: number };
    };
  };
};

let w: CheckoutWorld;
let school: string;
let employee: string;
let finance: string;
let stranger: string;

beforeAll(async () => {
  w = await seedCheckoutWorld();
  // Invoiced directly: on monthly terms the invoice choice issues on account (periodic invoicing, issue
  // 10; tests/api/invoicing.test.ts), and this file is about the checkout's own invoice.
  await setClientTerms(w.oakwood.id, 'invoiced_directly', 'bank_transfer');
  school = await apiToken(DEMO_ACCOUNTS.schoolAdmin);
  employee = await apiToken(DEMO_ACCOUNTS.campusEmployee);
  finance = await apiToken(DEMO_ACCOUNTS.finance);
  stranger = await apiToken(STRANGER.companyUser);
}, SETUP_TIMEOUT_MS);

const confirmOpen = (token: string | null, json: unknown) =>
  call<InvoiceAnswer & ErrorEnvelope>('/api/company/policy-batches/confirm-open', {
    method: 'POST',
    token,
    json,
  });

async function checkedOut(count = 2, payment_method?: string) {
  await openBatch(w, count);
  const answer = await confirmOpen(school, { checkout_key: checkoutKey(), payment_method });
  expect(answer.status).toBe(200);
  return answer.body.data.invoice;
}

describe('policy-batches/confirm-open', () => {
  it('answers 401 without a token', async () => {
    expect((await confirmOpen(null, { checkout_key: checkoutKey() })).status).toBe(401);
  });

  it('answers the invoice, and the same invoice for the same checkout key', async () => {
    await openBatch(w, 3);
    const key = checkoutKey();
    const first = await confirmOpen(school, {
      checkout_key: key,
      payment_method: 'invoiced_directly',
      send_welcome_email: true,
    });
    expect(first.status).toBe(200);
    expect(first.body.data.invoice).toMatchObject({
      status: 'unpaid',
      payment_method: 'invoiced_directly',
      currency: 'GBP',
      policy_count: 3,
      total: 319.2,
    });
    const again = await confirmOpen(school, { checkout_key: key });
    expect(again.body.data.invoice.id).toBe(first.body.data.invoice.id);
  });

  it('refuses bad input with the 422 envelope', async () => {
    const noKey = await confirmOpen(school, {});
    expect(noKey.status).toBe(422);
    expect(noKey.body.errors[0]).toMatchObject({ key: 'checkout_key', message: 'This field is required' });
    const badKey = await confirmOpen(school, { checkout_key: 'short' });
    expect(badKey.body.errors[0].message).toBe(
      'This checkout form has expired. Reload the page and try again.',
    );
    const badMethod = await confirmOpen(school, { checkout_key: checkoutKey(), payment_method: 'cash' });
    expect(badMethod.status).toBe(422);
    expect(badMethod.body.errors[0]).toMatchObject({ key: 'payment_method' });
  });

  it('shows the server message when the cart is empty or has errors', async () => {
    const empty = await confirmOpen(school, { checkout_key: checkoutKey() });
    expect(empty.status).toBe(422);
    expect(empty.body.message).toBe('Your cart is empty.');
    const { batch } = await openBatch(w, [
      { ...trip(9), errors: [{ field: 'last_name', message: 'validation.required' }] },
    ]);
    const errors = await confirmOpen(school, { checkout_key: checkoutKey() });
    expect(errors.status).toBe(422);
    expect(errors.body.message).toBe(
      '1 applicant in your cart has errors. Fix or delete it before checking out.',
    );
    await db().update(policyBatches).set({ status: 'cleared' }).where(eq(policyBatches.id, batch.id));
  });

  it('refuses a user who may not issue policies', async () => {
    expect((await confirmOpen(finance, { checkout_key: checkoutKey() })).status).toBe(403);
  });
});

describe('policy-batches/{id}/send-welcome-email', () => {
  it('sends to insureds with an email, says when nobody has one, and hides other tenants', async () => {
    await openBatch(w, [
      { ...trip(8), email: 'one@example.test' },
      { ...trip(8), email: null },
    ]);
    const invoice = (await confirmOpen(school, { checkout_key: checkoutKey() })).body.data.invoice;
    const [batch] = await db()
      .select()
      .from(policyBatches)
      .where(
        eq(
          policyBatches.invoice_id,
          (await db().select().from(invoices).where(eq(invoices.public_id, invoice.id)))[0].id,
        ),
      );
    const sent = await call<{ data: { sent: number; without_email: number } }>(
      `/api/company/policy-batches/${batch.public_id}/send-welcome-email`,
      { method: 'POST', token: school },
    );
    expect(sent.status).toBe(200);
    expect(sent.body.data).toEqual({ sent: 1, without_email: 1 });
    const other = await call<ErrorEnvelope>(
      `/api/company/policy-batches/${batch.public_id}/send-welcome-email`,
      {
        method: 'POST',
        token: stranger,
      },
    );
    expect(other.status).toBe(404);

    await openBatch(w, [{ ...trip(8), email: null }]);
    const none = (await confirmOpen(school, { checkout_key: checkoutKey() })).body.data.invoice;
    const [noneBatch] = await db()
      .select()
      .from(policyBatches)
      .where(
        eq(
          policyBatches.invoice_id,
          (await db().select().from(invoices).where(eq(invoices.public_id, none.id)))[0].id,
        ),
      );
    const refused = await call<ErrorEnvelope>(
      `/api/company/policy-batches/${noneBatch.public_id}/send-welcome-email`,
      {
        method: 'POST',
        token: school,
      },
    );
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe('Insurer does not have an Email.');
  });
});

describe('invoices', () => {
  it('reads an invoice with its policies paged, lists invoices in scope, and hides them from other tenants', async () => {
    const invoice = await checkedOut(3);
    const one = await call<InvoiceAnswer>(`/api/company/invoices/${invoice.id}?items=2`, { token: school });
    expect(one.status).toBe(200);
    expect(one.body.data.invoice.items).toHaveLength(2);
    expect(one.body.data.invoice.meta).toMatchObject({ total: 3, per_page: 2 });
    expect(one.body.data.invoice.items![0].policy.policy_number).toMatch(/^P\d{8}$/);
    const list = await call<{ data: { invoices: { items: { id: string }[] } } }>(
      `/api/company/invoices?search=${invoice.number}`,
      { token: finance },
    );
    expect(list.body.data.invoices.items.map((i) => i.id)).toEqual([invoice.id]);
    expect((await call(`/api/company/invoices/${invoice.id}`, { token: stranger })).status).toBe(404);
    const strangers = await call<{ data: { invoices: { items: unknown[] } } }>('/api/company/invoices', {
      token: stranger,
    });
    expect(strangers.body.data.invoices.items).toHaveLength(0);
    // An employee who may order but not read invoices sees only the invoices of their own checkouts.
    expect((await call(`/api/company/invoices/${invoice.id}`, { token: employee })).status).toBe(404);
    const bad = await call<ErrorEnvelope>('/api/company/invoices?status=lost', { token: school });
    expect(bad.status).toBe(422);
  });

  it('lists the transactions of an invoice', async () => {
    const invoice = await checkedOut(1, 'bank_transfer');
    await call(`/api/school/payment/bank-transfer/pay-invoice/${invoice.id}/start`, {
      method: 'POST',
      token: school,
      json: { currency: 'GBP' },
    });
    const list = await call<{ data: { transactions: { gateway: string; status: string }[] } }>(
      `/api/company/invoices/${invoice.id}/transactions`,
      { token: school },
    );
    expect(list.status).toBe(200);
    expect(list.body.data.transactions).toMatchObject([{ gateway: 'bank_transfer', status: 'pending' }]);
  });
});

describe('card payment calls', () => {
  it('starts a card payment with the signed hosted-page form', async () => {
    const invoice = await checkedOut(2, 'credit_card');
    const answer = await call<{ data: { form: { action: string; fields: Record<string, string> } } }>(
      `/api/school/payment/barclaycard/pay-invoice/${invoice.id}/start`,
      { method: 'POST', token: school, json: { currency: 'GBP' } },
    );
    expect(answer.status).toBe(200);
    const { fields } = answer.body.data.form;
    expect(fields).toMatchObject({ ORDERID: invoice.number, AMOUNT: '21280', CURRENCY: 'GBP' });
    expect(await verifyIn(fields, testEnv().EPDQ_SHA_IN)).toBe(true);
    const noCurrency = await call<ErrorEnvelope>(
      `/api/school/payment/barclaycard/pay-invoice/${invoice.id}/start`,
      {
        method: 'POST',
        token: school,
        json: {},
      },
    );
    expect(noCurrency.status).toBe(422);
    expect(noCurrency.body.errors[0]).toMatchObject({ key: 'currency', message: 'This field is required' });
    const unknown = await call(`/api/school/payment/barclaycard/pay-invoice/nope/start`, {
      method: 'POST',
      token: school,
      json: { currency: 'GBP' },
    });
    expect(unknown.status).toBe(404);
  });

  it('verifies a returned answer once, and refuses a forged one', async () => {
    const invoice = await checkedOut(1, 'credit_card');
    const params: Record<string, string> = {
      orderID: invoice.number,
      currency: 'GBP',
      amount: answerAmount(Math.round(invoice.total * 100)),
      STATUS: '9',
      PAYID: '777000111',
      NCERROR: '0',
    };
    params.SHASIGN = await signOut(params, testEnv().EPDQ_SHA_OUT);
    const verify = (json: unknown) =>
      call<{ data: { outcome: string; duplicate: boolean; invoice: { status: string } } } & ErrorEnvelope>(
        '/api/school/payment/barclaycard/pay-invoice/verify',
        { method: 'POST', token: school, json },
      );
    const forged = await verify({ ...params, amount: '0.01' });
    expect(forged.status).toBe(422);
    expect(forged.body.message).toBe('The payment answer could not be verified.');
    const first = await verify(params);
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({
      outcome: 'succeeded',
      duplicate: false,
      invoice: { status: 'paid' },
    });
    const second = await verify(params);
    expect(second.body.data.duplicate).toBe(true);
    const paidAgain = await call<ErrorEnvelope>(
      `/api/school/payment/barclaycard/pay-invoice/${invoice.id}/start`,
      {
        method: 'POST',
        token: school,
        json: { currency: 'GBP' },
      },
    );
    expect(paidAgain.status).toBe(409);
    expect(paidAgain.body.message).toBe('This invoice is already paid.');
  });
});

describe('bank transfer calls', () => {
  it('starts a pending transfer (data.transaction) and lets finance approve it with a date', async () => {
    const invoice = await checkedOut(2, 'bank_transfer');
    const started = await call<{ data: { transaction: { status: string; identifier: string } } }>(
      `/api/school/payment/bank-transfer/pay-invoice/${invoice.id}/start`,
      { method: 'POST', token: school, json: { currency: 'GBP' } },
    );
    expect(started.status).toBe(200);
    expect(started.body.data.transaction.status).toBe('pending');
    const wrongCurrency = await call<ErrorEnvelope>(
      `/api/school/payment/bank-transfer/pay-invoice/${invoice.id}/start`,
      {
        method: 'POST',
        token: school,
        json: { currency: 'EUR' },
      },
    );
    expect(wrongCurrency.status).toBe(422);

    const approve = (token: string, json: unknown) =>
      call<{ data: { invoice: { status: string; paid_at: string } } } & ErrorEnvelope>(
        `/api/company/payment/invoices/${invoice.id}/approve-bank-transfer`,
        { method: 'POST', token, json },
      );
    const noDate = await approve(finance, {});
    expect(noDate.status).toBe(422);
    expect(noDate.body.errors[0]).toMatchObject({ key: 'date', message: 'Payment date is required' });
    const future = await approve(finance, { date: day(3) });
    expect(future.status).toBe(422);
    expect(future.body.message).toBe('Payment date cannot be in future');
    expect((await approve(school, { date: day(0) })).status).toBe(403);
    const ok = await approve(finance, { date: day(-1) });
    expect(ok.status).toBe(200);
    expect(ok.body.data.invoice).toMatchObject({ status: 'paid', paid_at: day(-1) });
    const twice = await approve(finance, { date: day(0) });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe('This invoice is already paid.');
  });
});
