/**
 * Test helpers of billing: invoices, credit notes and transactions written straight into D1, so
 * a test can set up any money state in a line. Numbers come from the real series (INV…, CN…).
 */
import { eq, sql } from 'drizzle-orm';
import { invoices, transactions } from '../../drizzle/schema';
import { publicId } from '../../workers/platform/crypto';
import { runBatch } from '../../workers/platform/db';
import { settleInvoice } from '../../workers/domain/invoices/settle';
import { day, db } from './contracts';

export type InvoiceRow = typeof invoices.$inferSelect;

export interface InvoiceSeed {
  company_id: number;
  client_id: number;
  campus_id?: number | null;
  type?: 'invoice' | 'supplementary' | 'credit_note';
  total_minor: number;
  tax_minor?: number;
  currency?: string;
  date?: string;
  due_at?: string;
  credit_for_id?: number | null;
  payment_method?: 'credit_card' | 'bank_transfer' | 'invoiced_directly' | 'pay_later';
}

let counter = 0;

/** An issued invoice (or credit note) with its number from the series; settled, so its status is right. */
export async function insertInvoice(seed: InvoiceSeed): Promise<InvoiceRow> {
  counter += 1;
  const d = db();
  const credit = seed.type === 'credit_note';
  const series = credit ? 'credit_note' : 'invoice';
  await d.run(sql`INSERT OR IGNORE INTO sequences (name, value) VALUES (${series}, 0)`);
  await d.run(sql`UPDATE sequences SET value = value + 1 WHERE name = ${series}`);
  const [{ value }] = await d.all<{ value: number }>(sql`SELECT value FROM sequences WHERE name = ${series}`);
  const number = `${credit ? 'CN' : 'INV'}${String(value).padStart(7, '0')}`;
  const tax = seed.tax_minor ?? 0;
  const [row] = await d
    .insert(invoices)
    .values({
      public_id: publicId(),
      number,
      company_id: seed.company_id,
      client_id: seed.client_id,
      campus_id: seed.campus_id ?? null,
      status: 'unpaid',
      payment_method: seed.payment_method ?? 'invoiced_directly',
      currency: seed.currency ?? 'GBP',
      date: seed.date ?? day(0),
      due_at: seed.due_at ?? day(30),
      insurance_cost_minor: seed.total_minor - tax,
      tax_minor: tax,
      total_minor: seed.total_minor,
      type: seed.type ?? 'invoice',
      credit_for_id: seed.credit_for_id ?? null,
      payment_reference: `${number}-T${counter}`,
    })
    .returning();
  const now = new Date();
  await runBatch(d, [
    settleInvoice(d, row.id, now),
    ...(seed.credit_for_id ? [settleInvoice(d, seed.credit_for_id, now)] : []),
  ]);
  return reloadInvoice(row.id);
}

/** A succeeded (or pending) payment or refund of an invoice, then the invoice settled. */
export async function insertTransaction(
  invoice: InvoiceRow,
  t: {
    kind?: 'payment' | 'refund';
    amount_minor: number;
    status?: 'succeeded' | 'pending';
    paid_on?: string;
  },
): Promise<InvoiceRow> {
  const d = db();
  await runBatch(d, [
    d.insert(transactions).values({
      public_id: publicId(),
      invoice_id: invoice.id,
      kind: t.kind ?? 'payment',
      gateway: 'manual',
      status: t.status ?? 'succeeded',
      amount_minor: t.amount_minor,
      currency: invoice.currency,
      paid_on: t.paid_on ?? day(0),
    }),
    settleInvoice(d, invoice.id, new Date()),
  ]);
  return reloadInvoice(invoice.id);
}

export async function reloadInvoice(id: number): Promise<InvoiceRow> {
  const [row] = await db().select().from(invoices).where(eq(invoices.id, id));
  return row;
}

export { day, db };

// ---------------------------------------------------------------- summary and statements

/** A small deterministic random source (mulberry32), so generated billing data is the same each run. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Generated money history for one client: `count` invoices over the last ~200 days with part and full
 * payments, refunds, credit notes against invoices and on the account, and a voided invoice.
 */
export async function generateBilling(
  owner: { company_id: number; client_id: number; campus_ids: (number | null)[]; currency?: string },
  count: number,
  seed: number,
): Promise<void> {
  const rnd = seededRandom(seed);
  const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)];
  for (let n = 0; n < count; n += 1) {
    const issued = -Math.floor(rnd() * 200);
    const total = 1000 + Math.floor(rnd() * 90_000);
    let inv = await insertInvoice({
      company_id: owner.company_id,
      client_id: owner.client_id,
      campus_id: pick(owner.campus_ids),
      currency: owner.currency ?? 'GBP',
      total_minor: total,
      tax_minor: Math.round(total / 6),
      date: day(issued),
      due_at: day(issued + pick([0, 14, 30, 60])),
    });
    const r = rnd();
    const paidOn = day(Math.min(0, issued + Math.floor(rnd() * 40)));
    if (r < 0.3) inv = await insertTransaction(inv, { amount_minor: total, paid_on: paidOn });
    else if (r < 0.5)
      inv = await insertTransaction(inv, { amount_minor: Math.floor(total / 3), paid_on: paidOn });
    else if (r < 0.58) {
      inv = await insertTransaction(inv, { amount_minor: total, paid_on: paidOn });
      inv = await insertTransaction(inv, {
        kind: 'refund',
        amount_minor: Math.floor(total / 4),
        paid_on: paidOn,
      });
    } else if (r < 0.66)
      await insertInvoice({
        company_id: owner.company_id,
        client_id: owner.client_id,
        campus_id: inv.campus_id,
        type: 'credit_note',
        credit_for_id: inv.id,
        currency: inv.currency,
        total_minor: Math.floor(total / 2),
        date: paidOn,
        due_at: paidOn,
      });
    else if (r < 0.7) inv = await insertTransaction(inv, { amount_minor: total + 500, paid_on: paidOn });
    else if (r < 0.74) {
      await db().update(invoices).set({ voided_at: new Date() }).where(eq(invoices.id, inv.id));
      await runBatch(db(), [settleInvoice(db(), inv.id, new Date())]);
    } else if (r < 0.8)
      await insertInvoice({
        company_id: owner.company_id,
        client_id: owner.client_id,
        campus_id: inv.campus_id,
        type: 'credit_note',
        currency: inv.currency,
        total_minor: 700 + Math.floor(rnd() * 3000),
        date: paidOn,
        due_at: paidOn,
      });
  }
}
