/**
 * An invoice's states (workers/domain/invoices/status.ts) and the statement that keeps its money columns
 * (settle.ts): part payments, full payment, refunds, credit notes against it, pending payments, voiding,
 * and the due states and aging buckets from the due date.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import {
  agingBucket,
  balanceMinor,
  dueState,
  partlyPaid,
  paymentStatus,
} from '../../workers/domain/invoices/status';
import { settleInvoice } from '../../workers/domain/invoices/settle';
import { runBatch } from '../../workers/platform/db';
import { SETUP_TIMEOUT_MS } from '../support/world';
import { seedContractsWorld, type ContractsWorld } from '../support/contracts';
import { day, db, insertInvoice, insertTransaction, reloadInvoice } from '../support/billing';

let w: ContractsWorld;
beforeAll(async () => {
  w = await seedContractsWorld();
}, SETUP_TIMEOUT_MS);

const owner = () => ({ company_id: w.albion.id, client_id: w.oakwood.id, campus_id: w.north.id });
const money = (over: Partial<Parameters<typeof balanceMinor>[0]> = {}) => ({
  type: 'invoice' as const,
  total_minor: 10_000,
  paid_minor: 0,
  refunded_minor: 0,
  credited_minor: 0,
  voided_at: null,
  ...over,
});

describe('invoice states (pure)', () => {
  it('derives the payment status from the figures', () => {
    expect(paymentStatus(money())).toBe('unpaid');
    expect(paymentStatus(money(), true)).toBe('pending');
    expect(paymentStatus(money({ paid_minor: 4000 }))).toBe('unpaid');
    expect(partlyPaid(money({ paid_minor: 4000 }))).toBe(true);
    expect(paymentStatus(money({ paid_minor: 10_000 }))).toBe('paid');
    expect(paymentStatus(money({ paid_minor: 6000, credited_minor: 4000 }))).toBe('paid');
    expect(paymentStatus(money({ paid_minor: 10_000, refunded_minor: 10_000 }))).toBe('refunded');
    expect(paymentStatus(money({ paid_minor: 10_000, refunded_minor: 2000 }))).toBe('unpaid');
    expect(paymentStatus(money({ voided_at: 1 }))).toBe('void');
    expect(paymentStatus(money({ type: 'credit_note' }))).toBe('issued');
    expect(balanceMinor(money({ type: 'credit_note' }))).toBe(0);
  });

  it('derives open, due and overdue from the due date, and none when nothing is owed', () => {
    const today = '2026-11-25';
    expect(dueState({ ...money(), due_at: '2026-12-10' }, today)).toBe('open');
    expect(dueState({ ...money(), due_at: '2026-12-02' }, today)).toBe('due');
    expect(dueState({ ...money(), due_at: today }, today)).toBe('due');
    expect(dueState({ ...money(), due_at: '2026-11-24' }, today)).toBe('overdue');
    expect(dueState({ ...money({ paid_minor: 10_000 }), due_at: '2026-11-01' }, today)).toBeNull();
  });

  it('puts a balance in its aging bucket', () => {
    const today = '2026-11-25';
    expect(agingBucket('2026-11-25', today)).toBe('current');
    expect(agingBucket('2026-11-24', today)).toBe('d1_30');
    expect(agingBucket('2026-10-26', today)).toBe('d1_30');
    expect(agingBucket('2026-10-25', today)).toBe('d31_60');
    expect(agingBucket('2026-08-27', today)).toBe('d61_90');
    expect(agingBucket('2026-08-26', today)).toBe('over_90');
  });
});

describe('settling an invoice (the statement every money change runs)', () => {
  it('follows part payments, the last payment, refunds and a credit note against it', async () => {
    let inv = await insertInvoice({ ...owner(), total_minor: 12_000, tax_minor: 2000 });
    expect(inv).toMatchObject({ status: 'unpaid', paid_minor: 0 });
    inv = await insertTransaction(inv, { amount_minor: 5000, paid_on: day(-3) });
    expect(inv).toMatchObject({ status: 'unpaid', paid_minor: 5000, paid_at: null });
    inv = await insertTransaction(inv, { amount_minor: 7000, paid_on: day(-1) });
    expect(inv).toMatchObject({ status: 'paid', paid_minor: 12_000, paid_at: day(-1) });
    inv = await insertTransaction(inv, { kind: 'refund', amount_minor: 2000 });
    expect(inv).toMatchObject({ status: 'unpaid', refunded_minor: 2000, paid_at: null });
    await insertInvoice({ ...owner(), type: 'credit_note', total_minor: 2000, credit_for_id: inv.id });
    inv = await reloadInvoice(inv.id);
    expect(inv).toMatchObject({ status: 'paid', credited_minor: 2000 });
    inv = await insertTransaction(inv, { kind: 'refund', amount_minor: 10_000 });
    expect(inv.status).toBe('refunded');
  });

  it('says pending while a payment is started, and void stays void', async () => {
    let inv = await insertInvoice({ ...owner(), total_minor: 5000 });
    inv = await insertTransaction(inv, { amount_minor: 5000, status: 'pending' });
    expect(inv.status).toBe('pending');
    const d = db();
    await d.run(sql`UPDATE invoices SET voided_at = 1 WHERE id = ${inv.id}`);
    await runBatch(d, [settleInvoice(d, inv.id, new Date())]);
    expect((await reloadInvoice(inv.id)).status).toBe('void');
  });
});
