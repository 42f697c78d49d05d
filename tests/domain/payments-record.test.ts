/**
 * Payments and refunds recorded by finance (workers/domain/payments/record.ts): each rule and message
 * (payment date required and not in the future, amount above 0 and not above the balance or what can be
 * refunded, not on a void invoice or a credit note, receipts PDF/JPG/PNG by their bytes), part payments,
 * refunds, editing, the same submission twice recorded once, and the log with before and after.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { activityLogs, transactions } from '../../drizzle/schema';
import { Conflict, Forbidden, NotFound, ValidationFailed } from '../../workers/domain/errors';
import {
  editTransaction,
  receiptResponse,
  recordTransaction,
  transactionFormView,
} from '../../workers/domain/payments/record';
import { editTransactionSchema, recordTransactionSchema } from '../../workers/domain/payments/schema';
import { formatMessage, translate } from '../../workers/platform/i18n';
import { listActivity } from '../../workers/domain/audit/activity-log';
import { describeChange } from '../../app/lib/logged-changes';
import { actorCtx, DEMO_ACCOUNTS, SETUP_TIMEOUT_MS } from '../support/world';
import { seedContractsWorld, type ContractsWorld } from '../support/contracts';
import { day, db, insertInvoice, reloadInvoice } from '../support/billing';
import { exeBytes, jpgBytes, pdfBytes, pngBytes } from '../support/files';

let w: ContractsWorld;
beforeAll(async () => {
  w = await seedContractsWorld();
}, SETUP_TIMEOUT_MS);

const finance = () => actorCtx(DEMO_ACCOUNTS.finance);
const owner = () => ({ company_id: w.albion.id, client_id: w.oakwood.id, campus_id: w.north.id });
const input = (over: Record<string, unknown> = {}) =>
  recordTransactionSchema.parse({ amount: '40.00', paid_on: day(0), method: 'bank_transfer', ...over });

/** The English text of the first field error of a refusal. */
async function refusal(run: Promise<unknown>): Promise<{ key: string; message: string }> {
  const e = await run.then(
    () => null,
    (x: unknown) => x,
  );
  if (e instanceof ValidationFailed)
    return { key: e.errors[0].key, message: formatMessage(e.errors[0].message, 'en') };
  if (e instanceof Conflict) return { key: '', message: formatMessage(e.message, 'en') };
  throw new Error(`expected a refusal, got ${String(e)}`);
}

const file = (bytes: Uint8Array, name: string, type = 'application/octet-stream') =>
  new File([bytes as BlobPart], name, { type });

describe('the form', () => {
  it('needs a payment date, a real one, an amount above 0 with two decimals and a method', () => {
    const errors = (v: Record<string, unknown>) => {
      const r = recordTransactionSchema.safeParse(v);
      return r.success
        ? []
        : r.error.issues.map((i) => `${i.path.join('.')}: ${formatMessage(i.message, 'en')}`);
    };
    expect(errors({ amount: '10', method: 'cash' })).toEqual(['paid_on: Payment date is required']);
    expect(errors({ amount: '10', method: 'cash', paid_on: '' })).toEqual([
      'paid_on: Payment date is required',
    ]);
    expect(errors({ amount: '10', method: 'cash', paid_on: '2026-02-30' })[0]).toMatch(/^paid_on: /);
    expect(errors({ amount: '0', method: 'cash', paid_on: day(0) })).toEqual([
      'amount: Amount must be greater than 0',
    ]);
    expect(errors({ amount: '-5', method: 'cash', paid_on: day(0) })).toEqual([
      'amount: Amount must be greater than 0',
    ]);
    expect(errors({ amount: '1.234', method: 'cash', paid_on: day(0) })).toEqual([
      'amount: Enter an amount with at most two decimals',
    ]);
    expect(errors({ amount: 'ten', method: 'cash', paid_on: day(0) })).toHaveLength(1);
    expect(errors({ amount: '10', method: 'barter', paid_on: day(0) })).toEqual([
      'method: Choose how the money came',
    ]);
    expect(
      recordTransactionSchema.parse({ amount: '1,234.50', method: 'cheque', paid_on: day(0) }).amount,
    ).toBe(123450);
  });
});

describe('recording a payment', () => {
  it('refuses a payment date in the future', async () => {
    const inv = await insertInvoice({ ...owner(), total_minor: 10_000 });
    expect(
      await refusal(recordTransaction(await finance(), inv.public_id, 'payment', input({ paid_on: day(1) }))),
    ).toEqual({
      key: 'paid_on',
      message: 'Payment date cannot be in future',
    });
  });

  it('records part payments until the balance is paid, and refuses more than the balance', async () => {
    const ctx = await finance();
    const inv = await insertInvoice({ ...owner(), total_minor: 10_000 });
    const first = await recordTransaction(
      ctx,
      inv.public_id,
      'payment',
      input({ amount: '40', note: 'First part' }),
    );
    expect(first.duplicate).toBe(false);
    expect(first.transaction).toMatchObject({
      kind: 'payment',
      gateway: 'manual',
      status: 'succeeded',
      amount_minor: 4000,
      method: 'bank_transfer',
      note: 'First part',
    });
    let row = await reloadInvoice(inv.id);
    expect(row).toMatchObject({ status: 'unpaid', paid_minor: 4000 });
    expect(
      await refusal(recordTransaction(ctx, inv.public_id, 'payment', input({ amount: '60.01' }))),
    ).toEqual({
      key: 'amount',
      message: 'Amount cannot be more than the balance of 60.00',
    });
    await recordTransaction(
      ctx,
      inv.public_id,
      'payment',
      input({ amount: '60', paid_on: day(-1), method: 'cheque' }),
    );
    row = await reloadInvoice(inv.id);
    expect(row).toMatchObject({ status: 'paid', paid_minor: 10_000, paid_at: day(0) });
    const view = await transactionFormView(ctx, inv.public_id, 'payment');
    expect(formatMessage(view.blocked!, 'en')).toBe('Nothing is left to pay on this invoice.');
  });

  it('logs the payment on the invoice with before and after', async () => {
    const ctx = await finance();
    const inv = await insertInvoice({ ...owner(), total_minor: 5_000 });
    await recordTransaction(ctx, inv.public_id, 'payment', input({ amount: '50' }));
    const [log] = await db()
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.entity_type, 'invoice'), eq(activityLogs.entity_id, inv.id)));
    expect(log.action).toBe('payment_recorded');
    expect(log.actor_user_id).toBe(ctx.actor.user_id);
    expect(log.before).toMatchObject({ status: 'unpaid', paid_minor: 0 });
    expect(log.after).toMatchObject({
      status: 'paid',
      paid_minor: 5000,
      amount_minor: 5000,
      kind: 'payment',
    });
  });

  it("reads the payment's money in the invoice's currency, which the log row does not repeat", async () => {
    const ctx = await finance();
    const inv = await insertInvoice({ ...owner(), total_minor: 9_000, currency: 'EUR' });
    await recordTransaction(ctx, inv.public_id, 'payment', input({ amount: '12.50' }));
    const { items } = await listActivity(db(), 'invoice', inv.id);
    expect(items[0]).toMatchObject({ action: 'payment_recorded', currency: 'EUR' });
    const shown = describeChange(
      (key) => translate('en', key),
      { field: 'amount_minor', after: 1250 },
      {
        entity_type: 'invoice',
        currency: items[0].currency,
      },
    );
    expect(shown).toMatchObject({ label: 'Amount', after: '€12.50' });
  });

  it('records the same submission once: twice in a row, or at the same time', async () => {
    const ctx = await finance();
    const inv = await insertInvoice({ ...owner(), total_minor: 10_000 });
    const key = `payment-${inv.public_id}-1`;
    const a = await recordTransaction(ctx, inv.public_id, 'payment', input({ idempotency_key: key }));
    const b = await recordTransaction(ctx, inv.public_id, 'payment', input({ idempotency_key: key }));
    expect(b.duplicate).toBe(true);
    expect(b.transaction.id).toBe(a.transaction.id);
    const key2 = `payment-${inv.public_id}-2`;
    const both = await Promise.all([
      recordTransaction(ctx, inv.public_id, 'payment', input({ idempotency_key: key2, amount: '10' })),
      recordTransaction(ctx, inv.public_id, 'payment', input({ idempotency_key: key2, amount: '10' })),
    ]);
    expect(both[0].transaction.id).toBe(both[1].transaction.id);
    const rows = await db().select().from(transactions).where(eq(transactions.invoice_id, inv.id));
    expect(rows.map((r) => r.amount_minor).sort()).toEqual([1000, 4000]);
    expect((await reloadInvoice(inv.id)).paid_minor).toBe(5000);
    // The form's key belongs to its invoice.
    const other = await insertInvoice({ ...owner(), total_minor: 10_000 });
    expect(
      (await refusal(recordTransaction(ctx, other.public_id, 'payment', input({ idempotency_key: key }))))
        .message,
    ).toBe('This form was already used for another invoice. Open it again.');
  });

  it('never pays more than the balance when two different submissions race', async () => {
    const ctx = await finance();
    const inv = await insertInvoice({ ...owner(), total_minor: 10_000 });
    const results = await Promise.allSettled([
      recordTransaction(ctx, inv.public_id, 'payment', input({ amount: '100' })),
      recordTransaction(ctx, inv.public_id, 'payment', input({ amount: '100' })),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect((await reloadInvoice(inv.id)).paid_minor).toBe(10_000);
  });

  it('refuses a void invoice and a credit note', async () => {
    const ctx = await finance();
    const inv = await insertInvoice({ ...owner(), total_minor: 10_000 });
    await db().run(sql`UPDATE invoices SET voided_at = ${Date.now()}, status = 'void' WHERE id = ${inv.id}`);
    expect((await refusal(recordTransaction(ctx, inv.public_id, 'payment', input()))).message).toBe(
      'This invoice is void.',
    );
    const cn = await insertInvoice({ ...owner(), total_minor: 1_000, type: 'credit_note' });
    expect(
      (await refusal(recordTransaction(ctx, cn.public_id, 'payment', input({ amount: '5' })))).message,
    ).toBe('Payments and refunds are not recorded on a credit note.');
    expect(
      (await refusal(recordTransaction(ctx, cn.public_id, 'refund', input({ amount: '5' })))).message,
    ).toBe('Payments and refunds are not recorded on a credit note.');
  });

  it('stores a PDF, JPG or PNG receipt in R2 by its bytes and refuses anything else', async () => {
    const ctx = await finance();
    const inv = await insertInvoice({ ...owner(), total_minor: 10_000 });
    for (const [bytes, name, type] of [
      [pdfBytes('Bank slip'), 'slip.pdf', 'application/pdf'],
      [jpgBytes(), 'photo.jpg', 'image/jpeg'],
      [pngBytes(), 'scan.png', 'image/png'],
    ] as const) {
      const r = await recordTransaction(
        ctx,
        inv.public_id,
        'payment',
        input({ amount: '1' }),
        file(bytes, name),
      );
      expect(r.transaction.receipt).toEqual({ name, type });
      const download = await receiptResponse(ctx, inv.public_id, r.transaction.id);
      expect(download.headers.get('content-type')).toBe(type);
      expect(new Uint8Array(await download.arrayBuffer())).toEqual(bytes);
    }
    // An executable named .pdf, and a GIF: refused by their bytes, nothing recorded.
    expect(
      await refusal(
        recordTransaction(
          ctx,
          inv.public_id,
          'payment',
          input({ amount: '1' }),
          file(exeBytes(), 'receipt.pdf'),
        ),
      ),
    ).toEqual({
      key: 'receipt',
      message: 'Uploaded file has incorrect format. Allowed: pdf, jpg, png.',
    });
    const gif = new Uint8Array([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 1, 0, 1, 0]);
    expect(
      (
        await refusal(
          recordTransaction(ctx, inv.public_id, 'payment', input({ amount: '1' }), file(gif, 'a.gif')),
        )
      ).key,
    ).toBe('receipt');
    const big = new Uint8Array(10 * 1024 * 1024 + 1);
    big.set(pdfBytes());
    expect(
      (
        await refusal(
          recordTransaction(ctx, inv.public_id, 'payment', input({ amount: '1' }), file(big, 'big.pdf')),
        )
      ).message,
    ).toBe('File cannot be larger than 10MB');
    expect((await reloadInvoice(inv.id)).paid_minor).toBe(300);
  });

  it('is finance work, and hides invoices outside the scope', async () => {
    const inv = await insertInvoice({ ...owner(), total_minor: 10_000 });
    const school = await actorCtx(DEMO_ACCOUNTS.schoolAdmin);
    await expect(recordTransaction(school, inv.public_id, 'payment', input())).rejects.toBeInstanceOf(
      Forbidden,
    );
    const stranger = await actorCtx('stranger.admin@caledonia.test');
    await expect(recordTransaction(stranger, inv.public_id, 'payment', input())).rejects.toBeInstanceOf(
      NotFound,
    );
    expect((await reloadInvoice(inv.id)).paid_minor).toBe(0);
  });
});

describe('refunds', () => {
  it('refunds the credit of a credit note on a paid invoice in parts (it stays paid), then all of it (refunded)', async () => {
    const ctx = await finance();
    const inv = await insertInvoice({ ...owner(), total_minor: 10_000 });
    await recordTransaction(ctx, inv.public_id, 'payment', input({ amount: '100' }));
    const message =
      'Refund cannot be more than the credit on this invoice (0.00): what was paid beyond what it still owes after its credit notes';
    expect(
      (await refusal(recordTransaction(ctx, inv.public_id, 'refund', input({ amount: '1' })))).message,
    ).toBe(message);
    await insertInvoice({ ...owner(), total_minor: 10_000, type: 'credit_note', credit_for_id: inv.id });
    await recordTransaction(ctx, inv.public_id, 'refund', input({ amount: '30', method: 'card' }));
    expect(await reloadInvoice(inv.id)).toMatchObject({
      status: 'paid',
      paid_minor: 10_000,
      refunded_minor: 3000,
    });
    expect(
      await refusal(recordTransaction(ctx, inv.public_id, 'refund', input({ amount: '70.01' }))),
    ).toEqual({
      key: 'amount',
      message: message.replace('0.00', '70.00'),
    });
    await recordTransaction(ctx, inv.public_id, 'refund', input({ amount: '70' }));
    expect(await reloadInvoice(inv.id)).toMatchObject({ status: 'refunded', refunded_minor: 10_000 });
    const [log] = await db()
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.entity_id, inv.id), eq(activityLogs.action, 'refund_recorded')))
      .limit(1);
    expect(log.after).toMatchObject({ kind: 'refund', amount_minor: 3000, refunded_minor: 3000 });
  });
});

describe('editing a transaction', () => {
  it('changes date, amount, method, note and receipt with the same rules, settles and logs before and after', async () => {
    const ctx = await finance();
    const inv = await insertInvoice({ ...owner(), total_minor: 10_000 });
    const { transaction } = await recordTransaction(
      ctx,
      inv.public_id,
      'payment',
      input({ amount: '40' }),
      file(pdfBytes(), 'a.pdf'),
    );
    const edit = (over: Record<string, unknown>) =>
      editTransactionSchema.parse({
        transaction_id: transaction.id,
        amount: '100',
        paid_on: day(-2),
        method: 'cheque',
        note: 'Corrected',
        ...over,
      });
    expect(await refusal(editTransaction(ctx, inv.public_id, edit({ amount: '100.01' })))).toEqual({
      key: 'amount',
      message: 'Amount cannot be more than the balance of 100.00',
    });
    expect((await refusal(editTransaction(ctx, inv.public_id, edit({ paid_on: day(3) })))).message).toBe(
      'Payment date cannot be in future',
    );
    const r = await editTransaction(ctx, inv.public_id, edit({}), file(pngBytes(), 'b.png'));
    expect(r.transaction).toMatchObject({
      amount_minor: 10_000,
      paid_on: day(-2),
      method: 'cheque',
      note: 'Corrected',
      receipt: { name: 'b.png', type: 'image/png' },
    });
    expect(await reloadInvoice(inv.id)).toMatchObject({
      status: 'paid',
      paid_minor: 10_000,
      paid_at: day(-2),
    });
    const [log] = await db()
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.entity_id, inv.id), eq(activityLogs.action, 'payment_edited')));
    expect(log.before).toMatchObject({
      amount_minor: 4000,
      method: 'bank_transfer',
      receipt: 'a.pdf',
      status: 'unpaid',
    });
    expect(log.after).toMatchObject({
      amount_minor: 10_000,
      method: 'cheque',
      receipt: 'b.png',
      status: 'paid',
    });
    // Lowering a payment below what was refunded is refused (80.00 credited, then refunded).
    await insertInvoice({ ...owner(), total_minor: 8000, type: 'credit_note', credit_for_id: inv.id });
    await recordTransaction(ctx, inv.public_id, 'refund', input({ amount: '80' }));
    expect((await refusal(editTransaction(ctx, inv.public_id, edit({ amount: '50' })))).message).toBe(
      'A payment cannot be lowered below what has already been refunded',
    );
  });

  it('does not edit a card answer, and not a transaction of another invoice', async () => {
    const ctx = await finance();
    const inv = await insertInvoice({ ...owner(), total_minor: 10_000 });
    const [card] = await db()
      .insert(transactions)
      .values({
        public_id: `card${inv.id}x`,
        invoice_id: inv.id,
        kind: 'payment',
        gateway: 'barclaycard',
        status: 'succeeded',
        identifier: `99${inv.id}`,
        gateway_status: '9',
        amount_minor: 10_000,
        currency: 'GBP',
        paid_on: day(0),
      })
      .returning();
    const edit = editTransactionSchema.parse({
      transaction_id: card.public_id,
      amount: '1',
      paid_on: day(0),
      method: 'card',
    });
    expect((await refusal(editTransaction(ctx, inv.public_id, edit))).message).toBe(
      'Card payments, pending and failed transactions cannot be edited.',
    );
    const other = await insertInvoice({ ...owner(), total_minor: 10_000 });
    await expect(editTransaction(ctx, other.public_id, edit)).rejects.toBeInstanceOf(NotFound);
  });
});

describe("the client's payments and transactions tabs", () => {
  it('lists the payments that came in, newest first, and every transaction; hidden from other tenants', async () => {
    const ctx = await finance();
    const { clientTransactions } = await import('../../workers/domain/payments/client-lists');
    const inv = await insertInvoice({ ...owner(), total_minor: 10_000 });
    await recordTransaction(ctx, inv.public_id, 'payment', input({ amount: '10', paid_on: day(-3) }));
    await recordTransaction(
      ctx,
      inv.public_id,
      'payment',
      input({ amount: '20', paid_on: day(-1) }),
      file(pngBytes(), 'r.png'),
    );
    await insertInvoice({ ...owner(), total_minor: 8000, type: 'credit_note', credit_for_id: inv.id });
    await recordTransaction(ctx, inv.public_id, 'refund', input({ amount: '5', paid_on: day(0) }));
    await db()
      .insert(transactions)
      .values({
        public_id: `fail${inv.id}x`,
        invoice_id: inv.id,
        kind: 'payment',
        gateway: 'barclaycard',
        status: 'failed',
        identifier: `77${inv.id}`,
        gateway_status: '2',
        amount_minor: 10_000,
        currency: 'GBP',
      });
    const payments = await clientTransactions(ctx, w.oakwood.public_id, { items: 100 }, 'payments');
    const mine = payments.items.filter((r) => r.invoice_id === inv.public_id);
    expect(mine.map((r) => [r.amount_minor, r.paid_on, r.receipt_name])).toEqual([
      [2000, day(-1), 'r.png'],
      [1000, day(-3), null],
    ]);
    const all = await clientTransactions(ctx, w.oakwood.public_id, { items: 100 }, 'all');
    expect(
      all.items
        .filter((r) => r.invoice_id === inv.public_id)
        .map((r) => `${r.kind}:${r.status}`)
        .sort(),
    ).toEqual(['payment:failed', 'payment:succeeded', 'payment:succeeded', 'refund:succeeded']);
    await expect(
      clientTransactions(await actorCtx('stranger.admin@caledonia.test'), w.oakwood.public_id),
    ).rejects.toBeInstanceOf(NotFound);
  });
});
