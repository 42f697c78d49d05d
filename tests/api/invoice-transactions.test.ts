/**
 * The recorded-payment calls (spec 002 s.7): POST invoices/{id}/transactions/record and /record/refund
 * (multipart, with the receipt), PATCH invoices/{invoice_id}/transactions, GET invoices/{id}/transactions
 * with receipts and the receipt download; good and bad input, English messages as the spec gives them,
 * who may call them.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../workers/http';
import { apiToken, call, type ErrorEnvelope } from '../support/api';
import { DEMO_ACCOUNTS, SETUP_TIMEOUT_MS, testEnv, uniqueIp } from '../support/world';
import { seedContractsWorld, STRANGER, type ContractsWorld } from '../support/contracts';
import { day, insertInvoice, reloadInvoice } from '../support/billing';
import { exeBytes, pdfBytes, pngBytes } from '../support/files';

vi.mock('@remix-run/cloudflare', () => import('../support/remix-stub'));

const app = createApp();

async function callForm<T = unknown>(path: string, form: FormData, token: string, method = 'POST') {
  const res = await app.request(
    path,
    { method, body: form, headers: { authorization: `Bearer ${token}`, 'cf-connecting-ip': uniqueIp() } },
    testEnv(),
  );
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, headers: res.headers, body: body as T };
}

function form(fields: Record<string, string>, receipt?: { bytes: Uint8Array; name: string }) {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  if (receipt) f.set('receipt', new File([receipt.bytes as BlobPart], receipt.name));
  return f;
}

interface TransactionAnswer {
  data: {
    duplicate: boolean;
    transaction: {
      id: string;
      kind: string;
      amount: number;
      method: string;
      receipt: { name: string } | null;
    };
    invoice: { id: string; status: string; paid_minor: number };
  };
}

let w: ContractsWorld;
let finance: string;
let school: string;
let stranger: string;
beforeAll(async () => {
  w = await seedContractsWorld();
  finance = await apiToken(DEMO_ACCOUNTS.finance);
  school = await apiToken(DEMO_ACCOUNTS.schoolAdmin);
  stranger = await apiToken(STRANGER.companyUser);
}, SETUP_TIMEOUT_MS);

const newInvoice = (total = 10_000) =>
  insertInvoice({
    company_id: w.albion.id,
    client_id: w.oakwood.id,
    campus_id: w.north.id,
    total_minor: total,
  });
const base = (id: string) => `/api/company/invoices/${id}/transactions`;

describe('invoices/{id}/transactions/record', () => {
  it('records a part payment with its receipt, answers the same one for the same key, and lists it', async () => {
    const inv = await newInvoice();
    const fields = {
      amount: '25.50',
      paid_on: day(0),
      method: 'cheque',
      note: 'Cheque 1001',
      idempotency_key: `api-${inv.public_id}`,
    };
    const first = await callForm<TransactionAnswer>(
      `${base(inv.public_id)}/record`,
      form(fields, { bytes: pdfBytes(), name: 'cheque.pdf' }),
      finance,
    );
    expect(first.status).toBe(201);
    expect(first.body.data.transaction).toMatchObject({
      kind: 'payment',
      amount: 25.5,
      method: 'cheque',
      receipt: { name: 'cheque.pdf' },
    });
    expect(first.body.data.invoice).toMatchObject({ status: 'unpaid', paid_minor: 2550 });
    const again = await callForm<TransactionAnswer>(`${base(inv.public_id)}/record`, form(fields), finance);
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({
      duplicate: true,
      transaction: { id: first.body.data.transaction.id },
    });
    expect((await reloadInvoice(inv.id)).paid_minor).toBe(2550);

    const list = await call<{ data: { transactions: { id: string; receipt: { name: string } | null }[] } }>(
      base(inv.public_id),
      { token: finance },
    );
    expect(list.body.data.transactions).toEqual([
      expect.objectContaining({
        id: first.body.data.transaction.id,
        receipt: { name: 'cheque.pdf', type: 'application/pdf' },
      }),
    ]);
    const receipt = await call(`${base(inv.public_id)}/${first.body.data.transaction.id}/receipt`, {
      token: finance,
    });
    expect(receipt.status).toBe(200);
    expect(receipt.headers.get('content-type')).toBe('application/pdf');
    expect(receipt.headers.get('content-disposition')).toContain('cheque.pdf');
    // A school user of the client reads the invoice and its receipt, but may not record.
    expect(
      (await call(`${base(inv.public_id)}/${first.body.data.transaction.id}/receipt`, { token: school }))
        .status,
    ).toBe(200);
    expect(
      (
        await callForm(
          `${base(inv.public_id)}/record`,
          form({ ...fields, idempotency_key: 'school-try-1' }),
          school,
        )
      ).status,
    ).toBe(403);
  });

  it('refuses bad input with the spec messages', async () => {
    const inv = await newInvoice();
    const refuse = async (fields: Record<string, string>, receipt?: { bytes: Uint8Array; name: string }) => {
      const r = await callForm<ErrorEnvelope>(
        `${base(inv.public_id)}/record`,
        form(fields, receipt),
        finance,
      );
      expect(r.status).toBe(422);
      return r.body.errors.map((e) => `${e.key}: ${e.message}`);
    };
    expect(await refuse({ amount: '10', method: 'cash' })).toEqual(['paid_on: Payment date is required']);
    expect(await refuse({ amount: '10', method: 'cash', paid_on: day(2) })).toEqual([
      'paid_on: Payment date cannot be in future',
    ]);
    expect(await refuse({ amount: '0', method: 'cash', paid_on: day(0) })).toEqual([
      'amount: Amount must be greater than 0',
    ]);
    expect(await refuse({ amount: '100.01', method: 'cash', paid_on: day(0) })).toEqual([
      'amount: Amount cannot be more than the balance of 100.00',
    ]);
    expect(
      await refuse(
        { amount: '10', method: 'cash', paid_on: day(0) },
        { bytes: exeBytes(), name: 'receipt.pdf' },
      ),
    ).toEqual(['receipt: Uploaded file has incorrect format. Allowed: pdf, jpg, png.']);
    expect((await reloadInvoice(inv.id)).paid_minor).toBe(0);
    const json = await call(`${base(inv.public_id)}/record`, {
      method: 'POST',
      json: { amount: 10 },
      token: finance,
    });
    expect(json.status).toBe(415);
  });

  it('hides other tenants invoices and needs a token', async () => {
    const inv = await newInvoice();
    const fields = { amount: '10', paid_on: day(0), method: 'cash' };
    expect((await callForm(`${base(inv.public_id)}/record`, form(fields), stranger)).status).toBe(404);
    expect((await call(`${base(inv.public_id)}/record`, { method: 'POST' })).status).toBe(401);
    expect((await reloadInvoice(inv.id)).paid_minor).toBe(0);
  });
});

describe('invoices/{id}/transactions/record/refund and PATCH invoices/{invoice_id}/transactions', () => {
  it('refunds part of the credit of a paid invoice (it stays paid), refuses more, and edits a transaction', async () => {
    const inv = await newInvoice();
    const paid = await callForm<TransactionAnswer>(
      `${base(inv.public_id)}/record`,
      form({ amount: '100', paid_on: day(-1), method: 'bank_transfer' }),
      finance,
    );
    expect(paid.body.data.invoice.status).toBe('paid');
    const nothing = await callForm<ErrorEnvelope>(
      `${base(inv.public_id)}/record/refund`,
      form({ amount: '1', paid_on: day(0), method: 'card' }),
      finance,
    );
    expect(nothing.status).toBe(422);
    // The whole invoice credited after it was paid: all of it is the client's to get back.
    await insertInvoice({
      company_id: w.albion.id,
      client_id: w.oakwood.id,
      total_minor: 10_000,
      type: 'credit_note',
      credit_for_id: inv.id,
    });
    const refund = await callForm<TransactionAnswer>(
      `${base(inv.public_id)}/record/refund`,
      form({ amount: '40', paid_on: day(0), method: 'card' }, { bytes: pngBytes(), name: 'refund.png' }),
      finance,
    );
    expect(refund.status).toBe(201);
    expect(refund.body.data.transaction).toMatchObject({ kind: 'refund', amount: 40 });
    expect(refund.body.data.invoice.status).toBe('paid');
    const tooMuch = await callForm<ErrorEnvelope>(
      `${base(inv.public_id)}/record/refund`,
      form({ amount: '60.01', paid_on: day(0), method: 'card' }),
      finance,
    );
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body.message).toBe(
      'Refund cannot be more than the credit on this invoice (60.00): what was paid beyond what it still owes after its credit notes',
    );

    const edit = await callForm<{
      data: { transaction: { amount: number; note: string }; invoice: { status: string } };
    }>(
      base(inv.public_id),
      form({
        transaction_id: refund.body.data.transaction.id,
        amount: '100',
        paid_on: day(0),
        method: 'card',
        note: 'All back',
      }),
      finance,
      'PATCH',
    );
    expect(edit.status).toBe(200);
    expect(edit.body.data.transaction).toMatchObject({ amount: 100, note: 'All back' });
    expect(edit.body.data.invoice.status).toBe('refunded');
    const missing = await callForm<ErrorEnvelope>(
      base(inv.public_id),
      form({ amount: '1', paid_on: day(0), method: 'card' }),
      finance,
      'PATCH',
    );
    expect(missing.status).toBe(422);
    expect(missing.body.errors.map((e) => e.key)).toEqual(['transaction_id']);
    const unknown = await callForm(
      base(inv.public_id),
      form({ transaction_id: 'nosuchtx00', amount: '1', paid_on: day(0), method: 'card' }),
      finance,
      'PATCH',
    );
    expect(unknown.status).toBe(404);
    const foreign = await callForm(
      base(inv.public_id),
      form({ transaction_id: refund.body.data.transaction.id, amount: '1', paid_on: day(0), method: 'card' }),
      stranger,
      'PATCH',
    );
    expect(foreign.status).toBe(404);
  });
});

describe('invoices/overdue-email', () => {
  it('sends a reminder for the overdue ones, and refuses bad input and invoices that are not overdue', async () => {
    const overdue = await insertInvoice({
      company_id: w.albion.id,
      client_id: w.oakwood.id,
      total_minor: 3_000,
      due_at: day(-9),
    });
    const current = await insertInvoice({
      company_id: w.albion.id,
      client_id: w.oakwood.id,
      total_minor: 3_000,
      due_at: day(9),
    });
    const sent = await call<{ data: { sent: number; invoices: number; recipients: string[] } }>(
      '/api/company/invoices/overdue-email',
      {
        method: 'POST',
        json: { invoice_ids: [overdue.public_id, current.public_id] },
        token: finance,
      },
    );
    expect(sent.status).toBe(200);
    expect(sent.body.data).toEqual({
      sent: 1,
      invoices: 1,
      without_contact: 0,
      recipients: ['bursary@oakwood-international.example'],
    });
    const none = await call<ErrorEnvelope>('/api/company/invoices/overdue-email', {
      method: 'POST',
      json: { invoice_ids: [current.public_id] },
      token: finance,
    });
    expect(none.status).toBe(409);
    expect(none.body.message).toBe('None of these invoices is overdue.');
    const unknown = await call<ErrorEnvelope>('/api/company/invoices/overdue-email', {
      method: 'POST',
      json: { invoice_ids: ['nosuchinvoice0'] },
      token: finance,
    });
    expect(unknown.status).toBe(404);
    const empty = await call<ErrorEnvelope>('/api/company/invoices/overdue-email', {
      method: 'POST',
      json: { invoice_ids: [] },
      token: finance,
    });
    expect(empty.status).toBe(422);
    expect(empty.body.errors[0]).toEqual({
      key: 'invoice_ids',
      message: 'Choose at least one invoice (at most 500).',
    });
    expect(
      (
        await call('/api/company/invoices/overdue-email', {
          method: 'POST',
          json: { invoice_ids: [overdue.public_id] },
          token: school,
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await call('/api/company/invoices/overdue-email', {
          method: 'POST',
          json: { invoice_ids: [overdue.public_id] },
          token: stranger,
        })
      ).status,
    ).toBe(404); // another company's invoice is not found
  });

  it('answers not found (404) for an invoice id that does not exist, beside overdue ones too', async () => {
    const overdue = await insertInvoice({
      company_id: w.albion.id,
      client_id: w.oakwood.id,
      total_minor: 3_000,
      due_at: day(-9),
    });
    for (const ids of [['no-such-invoice'], [overdue.public_id, 'no-such-invoice']]) {
      const missing = await call<ErrorEnvelope>('/api/company/invoices/overdue-email', {
        method: 'POST',
        json: { invoice_ids: ids },
        token: finance,
      });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ message: 'Invoice not found', errors: [] });
    }
  });
});
