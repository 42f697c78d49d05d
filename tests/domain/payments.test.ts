import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { activityLogs, companies, invoices, transactions } from '../../drizzle/schema';
import { confirmOpenBatches } from '../../workers/domain/checkout/service';
import { confirmOpenSchema } from '../../workers/domain/checkout/schema';
import { Conflict, Forbidden, ValidationFailed } from '../../workers/domain/errors';
import {
  approveBankTransfer,
  invoiceTransactions,
  recordCardResult,
  startBankTransfer,
  startCardPayment,
  verifyCardResult,
} from '../../workers/domain/payments/service';
import { recordTransaction } from '../../workers/domain/payments/record';
import { approveBankTransferSchema, recordTransactionSchema } from '../../workers/domain/payments/schema';
import {
  answerAmount,
  answerAmountMinor,
  outcomeOf,
  signatureBase,
  signIn,
  signOut,
  verifyIn,
} from '../../workers/platform/epdq';
import { sha256Hex } from '../../workers/platform/crypto';
import { formatMessage } from '../../workers/platform/i18n';
import { DEMO_ACCOUNTS, actorCtx, SETUP_TIMEOUT_MS, testEnv } from '../support/world';
import {
  asSchool,
  checkoutKey,
  day,
  db,
  openBatch,
  seedCheckoutWorld,
  setClientTerms,
  type CheckoutWorld,
} from '../support/checkout';

let w: CheckoutWorld;

beforeAll(async () => {
  w = await seedCheckoutWorld();
  await setClientTerms(w.oakwood.id, 'cod', 'bank_transfer');
  await db()
    .update(companies)
    .set({
      bank_name: 'Albion Bank',
      bic: 'ALBNGB2L',
      iban: 'GB33BUKB20201555555555',
      account_number: '55555555',
      branch_code: '20-20-15',
    })
    .where(eq(companies.id, w.albion.id));
}, SETUP_TIMEOUT_MS);

/** A new unpaid invoice of the school's cart: `count` applicants at 95.00 + 12 % tax each. */
async function newInvoice(count = 2, method: 'credit_card' | 'bank_transfer' = 'credit_card') {
  await openBatch(w, count);
  const result = await confirmOpenBatches(
    await asSchool(),
    confirmOpenSchema.parse({ checkout_key: checkoutKey(), payment_method: method }),
  );
  if (!('invoice' in result)) throw new Error('expected one invoice');
  const [row] = await db().select().from(invoices).where(eq(invoices.public_id, result.invoice.id));
  return row;
}

let payIds = 1000;
/** An ePDQ answer for an invoice, signed with SHA-OUT as ePDQ signs it. */
async function answer(
  invoice: { number: string; total_minor: number; currency: string },
  over: Record<string, string> = {},
  shaOut = testEnv().EPDQ_SHA_OUT,
) {
  payIds += 1;
  const params: Record<string, string> = {
    orderID: invoice.number,
    currency: invoice.currency,
    amount: answerAmount(invoice.total_minor),
    PM: 'CreditCard',
    ACCEPTANCE: 'test123',
    STATUS: '9',
    CARDNO: 'XXXXXXXXXXXX1111',
    ED: '1230',
    CN: 'Susan School',
    TRXDATE: '11/21/26',
    PAYID: String(payIds),
    NCERROR: '0',
    BRAND: 'VISA',
    ...over,
  };
  return { ...params, SHASIGN: await signOut(params, shaOut) };
}

async function failure(run: Promise<unknown>) {
  const e = await run.then(
    () => null,
    (err) => err,
  );
  expect(e).not.toBeNull();
  return e as Error;
}

const transactionsOf = (invoiceId: number) =>
  db().select().from(transactions).where(eq(transactions.invoice_id, invoiceId));
const invoiceRow = async (id: number) => (await db().select().from(invoices).where(eq(invoices.id, id)))[0];

describe('ePDQ signatures', () => {
  it('signs NAME=value plus the passphrase for each non-empty parameter, names upper-cased and sorted', async () => {
    const params = { orderID: 'INV1', amount: '1500', CURRENCY: 'GBP', EMPTY: '', PSPID: 'shop' };
    expect(signatureBase(params, 'Secret!')).toBe(
      'AMOUNT=1500Secret!CURRENCY=GBPSecret!ORDERID=INV1Secret!PSPID=shopSecret!',
    );
    expect(await signIn(params, 'Secret!')).toBe(
      (
        await sha256Hex('AMOUNT=1500Secret!CURRENCY=GBPSecret!ORDERID=INV1Secret!PSPID=shopSecret!')
      ).toUpperCase(),
    );
    // SHA-OUT covers only ePDQ's answer parameters: a parameter of our own does not count.
    const out = { ORDERID: 'INV1', STATUS: '9', OURS: 'x' };
    expect(signatureBase(out, 'p', new Set(['ORDERID', 'STATUS']))).toBe('ORDERID=INV1pSTATUS=9p');
    expect(await signOut(out, 'p')).toBe(await signOut({ ORDERID: 'INV1', STATUS: '9' }, 'p'));
  });

  it('reads amounts and statuses as ePDQ writes them', () => {
    expect(answerAmountMinor('123.45')).toBe(12345);
    expect(answerAmountMinor('12.5')).toBe(1250);
    expect(answerAmountMinor('12')).toBe(1200);
    expect(answerAmountMinor('12,00')).toBeNull();
    expect(answerAmount(12345)).toBe('123.45');
    expect(answerAmount(1250)).toBe('12.5');
    expect(answerAmount(1200)).toBe('12');
    expect([
      outcomeOf('9'),
      outcomeOf('5'),
      outcomeOf('1'),
      outcomeOf('2'),
      outcomeOf('51'),
      outcomeOf('x'),
    ]).toEqual(['succeeded', 'succeeded', 'cancelled', 'failed', 'pending', 'failed']);
  });
});

describe('card payment', () => {
  it('builds the hosted-page form: invoice number, amount in minor units, currency, return addresses, SHA-IN', async () => {
    const invoice = await newInvoice(2);
    const { form } = await startCardPayment(await asSchool(), invoice.public_id, { currency: 'gbp' });
    expect(form.action).toBe(new URL(testEnv().EPDQ_URL, testEnv().PUBLIC_URL).toString());
    expect(form.fields).toMatchObject({
      PSPID: testEnv().EPDQ_PSPID,
      ORDERID: invoice.number,
      AMOUNT: '21280',
      CURRENCY: 'GBP',
      LANGUAGE: 'en_US',
      ACCEPTURL: `${testEnv().PUBLIC_URL}/payment/barclaycard/callback/success`,
      DECLINEURL: `${testEnv().PUBLIC_URL}/payment/barclaycard/callback/fail`,
    });
    expect(await verifyIn(form.fields, testEnv().EPDQ_SHA_IN)).toBe(true);
    expect(await verifyIn({ ...form.fields, AMOUNT: '1' }, testEnv().EPDQ_SHA_IN)).toBe(false);
    const wrong = await failure(startCardPayment(await asSchool(), invoice.public_id, { currency: 'EUR' }));
    expect(formatMessage(wrong.message)).toBe('The currency does not match the invoice.');
  });

  it('records a successful answer once and pays the invoice', async () => {
    const invoice = await newInvoice(1);
    const params = await answer(invoice);
    const first = await recordCardResult(db(), testEnv(), params, { source: 'browser' });
    expect(first).toMatchObject({ outcome: 'succeeded', duplicate: false, invoice: { status: 'paid' } });
    const paid = await invoiceRow(invoice.id);
    expect(paid).toMatchObject({ status: 'paid', paid_minor: invoice.total_minor, paid_at: day(0) });
    const again = await recordCardResult(db(), testEnv(), params, { source: 'notification' });
    expect(again).toMatchObject({ duplicate: true, transaction: { id: first.transaction.id } });
    const rows = await transactionsOf(invoice.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ gateway: 'barclaycard', status: 'succeeded', gateway_status: '9' });
    const logs = await db()
      .select()
      .from(activityLogs)
      .where(
        and(
          eq(activityLogs.entity_type, 'invoice'),
          eq(activityLogs.entity_id, invoice.id),
          eq(activityLogs.action, 'card_payment'),
        ),
      );
    expect(logs).toHaveLength(1);
  });

  it('records exactly one payment when the notification and the browser arrive at once, or replayed', async () => {
    const invoice = await newInvoice(3);
    const params = await answer(invoice);
    const results = await Promise.all([
      recordCardResult(db(), testEnv(), params, { source: 'notification' }),
      recordCardResult(db(), testEnv(), params, { source: 'browser' }),
      recordCardResult(db(), testEnv(), params, { source: 'browser' }),
    ]);
    expect(results.every((r) => r.outcome === 'succeeded')).toBe(true);
    expect(await transactionsOf(invoice.id)).toHaveLength(1);
    expect((await invoiceRow(invoice.id)).status).toBe('paid');
  });

  it('records nothing for a wrong signature, amount, currency or order', async () => {
    const invoice = await newInvoice(1);
    const good = await answer(invoice);
    const cases: [Record<string, string>, string][] = [
      [
        { ...good, SHASIGN: good.SHASIGN.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')) },
        'The payment answer could not be verified.',
      ],
      [{ ...good, STATUS: '5' }, 'The payment answer could not be verified.'],
      [await answer(invoice, {}, 'another passphrase'), 'The payment answer could not be verified.'],
      [await answer(invoice, { amount: '1' }), 'The amount paid does not match the invoice.'],
      [await answer(invoice, { currency: 'EUR' }), 'The currency does not match the invoice.'],
      [
        await answer(invoice, { orderID: 'INV9999999' }),
        'The payment answer names an invoice we do not know.',
      ],
      [await answer(invoice, { PAYID: '' }), 'The payment answer is incomplete.'],
      // Oversized answers are refused before anything else, by whichever door they came.
      [{ ...good, COMPLUS: 'x'.repeat(2001) }, 'The payment answer is incomplete.'],
      [
        { ...good, ...Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`X${i}`, '1'])) },
        'The payment answer is incomplete.',
      ],
    ];
    for (const [params, message] of cases) {
      const e = await failure(recordCardResult(db(), testEnv(), params));
      expect(e).toBeInstanceOf(ValidationFailed);
      expect(formatMessage(e.message)).toBe(message);
    }
    expect(await transactionsOf(invoice.id)).toHaveLength(0);
    expect((await invoiceRow(invoice.id)).status).toBe('unpaid');
  });

  it('records a declined payment without paying, then the successful retry', async () => {
    const invoice = await newInvoice(1);
    const declined = await recordCardResult(
      db(),
      testEnv(),
      await answer(invoice, { STATUS: '2', NCERROR: '30001001' }),
    );
    expect(declined.outcome).toBe('failed');
    expect((await invoiceRow(invoice.id)).status).toBe('unpaid');
    const cancelled = await recordCardResult(db(), testEnv(), await answer(invoice, { STATUS: '1' }));
    expect(cancelled.outcome).toBe('cancelled');
    await recordCardResult(db(), testEnv(), await answer(invoice));
    expect((await invoiceRow(invoice.id)).status).toBe('paid');
    const list = await invoiceTransactions(await asSchool(), invoice.public_id);
    expect(list.map((t) => t.status).sort()).toEqual(['cancelled', 'failed', 'succeeded']);
  });

  it('refuses a card payment started before finance recorded a part payment, recording nothing', async () => {
    const invoice = await newInvoice(2);
    const { form } = await startCardPayment(await asSchool(), invoice.public_id, { currency: 'GBP' });
    expect(form.fields.AMOUNT).toBe(String(invoice.total_minor));
    // While the school is on the card page, finance records a part payment that came by bank.
    await recordTransaction(
      await actorCtx(DEMO_ACCOUNTS.finance),
      invoice.public_id,
      'payment',
      recordTransactionSchema.parse({ amount: '50.00', paid_on: day(0), method: 'bank_transfer' }),
    );
    const before = await invoiceRow(invoice.id);
    const params = await answer(invoice); // the card was charged the whole total, as asked when it started
    for (const run of [
      () => recordCardResult(db(), testEnv(), params, { source: 'browser' }),
      async () => verifyCardResult(await asSchool(), params),
    ]) {
      const e = await failure(run());
      expect(e).toBeInstanceOf(ValidationFailed);
      const open = ((invoice.total_minor - 5000) / 100).toFixed(2);
      const total = (invoice.total_minor / 100).toFixed(2);
      expect(formatMessage(e.message)).toBe(
        `Invoice ${invoice.number} received another payment while this card payment was in progress: only ${open} GBP is now open, less than the ${total} GBP paid by card. The card payment was not recorded; please contact us to have it refunded.`,
      );
    }
    const rows = await transactionsOf(invoice.id);
    expect(rows.map((t) => t.gateway)).toEqual(['manual']); // finance's part payment only
    expect(await invoiceRow(invoice.id)).toEqual(before);
    const logs = await db()
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.entity_id, invoice.id), eq(activityLogs.action, 'card_payment')));
    expect(logs).toEqual([]);
    // A declined answer moves no money: it is recorded as it is and changes nothing.
    const declined = await recordCardResult(db(), testEnv(), await answer(invoice, { STATUS: '2' }));
    expect(declined.outcome).toBe('failed');
    expect((await invoiceRow(invoice.id)).paid_minor).toBe(5000);
    // A new card payment for what is open now is recorded and pays the invoice.
    const paid = await recordCardResult(
      db(),
      testEnv(),
      await answer({ ...invoice, total_minor: invoice.total_minor - 5000 }),
    );
    expect(paid.invoice.status).toBe('paid');
    expect((await invoiceRow(invoice.id)).paid_minor).toBe(invoice.total_minor);
  });

  it('refuses to start paying an invoice that is paid', async () => {
    const invoice = await newInvoice(1);
    await recordCardResult(db(), testEnv(), await answer(invoice));
    const e = await failure(startCardPayment(await asSchool(), invoice.public_id, { currency: 'GBP' }));
    expect(e).toBeInstanceOf(Conflict);
    expect(formatMessage(e.message)).toBe('This invoice is already paid.');
  });
});

describe('bank transfer', () => {
  it('starts one pending transfer quoting the payment reference and shows the company bank details', async () => {
    const invoice = await newInvoice(2, 'bank_transfer');
    const started = await startBankTransfer(await asSchool(), invoice.public_id, { currency: 'GBP' });
    expect(started.transaction).toMatchObject({
      gateway: 'bank_transfer',
      status: 'pending',
      identifier: invoice.payment_reference,
      amount_minor: invoice.total_minor,
    });
    expect(started.invoice.status).toBe('pending');
    expect(started.bank_details).toMatchObject({ bank_name: 'Albion Bank', iban: 'GB33BUKB20201555555555' });
    const again = await startBankTransfer(await asSchool(), invoice.public_id, { currency: 'GBP' });
    expect(again.transaction.id).toBe(started.transaction.id);
    expect(await transactionsOf(invoice.id)).toHaveLength(1);
  });

  it('needs a payment date that is not in the future to approve', async () => {
    expect(approveBankTransferSchema.safeParse({}).error?.issues[0].message).toBe(
      'validation.payment_date_required',
    );
    expect(approveBankTransferSchema.safeParse({ date: ' ' }).error?.issues[0].message).toBe(
      'validation.payment_date_required',
    );
    expect(approveBankTransferSchema.safeParse({ date: '2026-02-30' }).error?.issues[0].message).toBe(
      'validation.date_invalid',
    );
    const invoice = await newInvoice(1, 'bank_transfer');
    const e = await failure(
      approveBankTransfer(await actorCtx(DEMO_ACCOUNTS.finance), invoice.public_id, { date: day(1) }),
    );
    expect(e).toBeInstanceOf(ValidationFailed);
    expect(formatMessage(e.message)).toBe('Payment date cannot be in future');
  });

  it('lets finance approve a transfer with its date: the transaction succeeds and the invoice is paid once', async () => {
    const invoice = await newInvoice(2, 'bank_transfer');
    await startBankTransfer(await asSchool(), invoice.public_id, { currency: 'GBP' });
    const school = await failure(approveBankTransfer(await asSchool(), invoice.public_id, { date: day(0) }));
    expect(school).toBeInstanceOf(Forbidden);
    const finance = await actorCtx(DEMO_ACCOUNTS.finance);
    const approved = await approveBankTransfer(finance, invoice.public_id, { date: day(-2) });
    expect(approved.invoice).toMatchObject({ status: 'paid', paid_at: day(-2) });
    expect(approved.transaction).toMatchObject({ status: 'succeeded', paid_on: day(-2) });
    const rows = await transactionsOf(invoice.id);
    expect(rows).toHaveLength(1);
    const twice = await failure(approveBankTransfer(finance, invoice.public_id, { date: day(0) }));
    expect(twice).toBeInstanceOf(Conflict);
    expect(await transactionsOf(invoice.id)).toHaveLength(1);
  });

  it('records the transfer when the client paid without starting one', async () => {
    const invoice = await newInvoice(1, 'bank_transfer');
    const approved = await approveBankTransfer(await actorCtx(DEMO_ACCOUNTS.finance), invoice.public_id, {
      date: day(0),
    });
    expect(approved.transaction).toMatchObject({ gateway: 'bank_transfer', status: 'succeeded' });
    expect((await invoiceRow(invoice.id)).status).toBe('paid');
  });

  it('approves once when two approvals arrive at once', async () => {
    const invoice = await newInvoice(1, 'bank_transfer');
    await startBankTransfer(await asSchool(), invoice.public_id, { currency: 'GBP' });
    const finance = await actorCtx(DEMO_ACCOUNTS.finance);
    const results = await Promise.allSettled([
      approveBankTransfer(finance, invoice.public_id, { date: day(0) }),
      approveBankTransfer(finance, invoice.public_id, { date: day(0) }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled').length).toBeGreaterThanOrEqual(1);
    expect(await transactionsOf(invoice.id)).toHaveLength(1);
    const logs = await db()
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.entity_id, invoice.id), eq(activityLogs.action, 'bank_transfer_approved')));
    expect(logs).toHaveLength(1);
  });
});

describe("the card provider's notification route", () => {
  const URL_NOTIFY = 'http://localhost:8787/payment/barclaycard/notify';
  const notify = async (init: RequestInit, query = '') => {
    const { action } = await import('../../app/routes/($lang).payment.barclaycard.notify');
    const context = { db: db(), env: testEnv() } as unknown as Parameters<typeof action>[0]['context'];
    return action({
      request: new Request(URL_NOTIFY + query, { method: 'POST', ...init }),
      context,
      params: {},
    });
  };

  it('answers 400 to a JSON body, no body and an unreadable form, and records nothing', async () => {
    const invoice = await newInvoice(1);
    const params = await answer(invoice);
    const calls: [string, RequestInit][] = [
      ['JSON', { body: JSON.stringify(params), headers: { 'content-type': 'application/json' } }],
      ['text', { body: new URLSearchParams(params).toString(), headers: { 'content-type': 'text/plain' } }],
      ['no body', {}],
      [
        'multipart without a boundary',
        { body: 'PAYID=1', headers: { 'content-type': 'multipart/form-data' } },
      ],
    ];
    for (const [kind, init] of calls) {
      const res = await notify(init);
      expect(res.status, kind).toBe(400);
    }
    expect(await transactionsOf(invoice.id)).toHaveLength(0);
    const posted = await notify({
      body: new URLSearchParams(params).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(posted.status).toBe(200);
    expect(await posted.text()).toBe('OK succeeded');
    expect(await transactionsOf(invoice.id)).toHaveLength(1);
  });

  it('reads an answer sent in the query string of a bodiless POST', async () => {
    const invoice = await newInvoice(1);
    const res = await notify({}, `?${new URLSearchParams(await answer(invoice)).toString()}`);
    expect(res.status).toBe(200);
    expect(await transactionsOf(invoice.id)).toHaveLength(1);
  });
});
