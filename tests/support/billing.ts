/**
 * Test helpers of billing (issue 10): invoices, credit notes and transactions written straight into D1, so
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
