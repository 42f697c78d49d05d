/**
 * Invoices: the list's filters, due states and summary; the detail (billing address or
 * none, tax lines, payments, credit notes); voiding (only before any payment, logged, once); credit notes
 * (whole or chosen lines, at each line's original rate, CN series, once per line, both settled); the PDF
 * and the Excel named by the number; the ZIP of the chosen.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { activityLogs, addresses, invoiceItems, invoices } from '../../drizzle/schema';
import { invoiceDetail } from '../../workers/domain/invoices/detail';
import { issueCreditNote, voidInvoice } from '../../workers/domain/invoices/corrections';
import { downloadInvoices, invoiceFile } from '../../workers/domain/invoices/files';
import { invoiceListQuerySchema } from '../../workers/domain/invoices/schema';
import { exportInvoices, invoiceSummary, listInvoices } from '../../workers/domain/invoices/service';
import { Conflict, Forbidden, NotFound, ValidationFailed } from '../../workers/domain/errors';
import { readCentralDirectory } from '../../workers/platform/zip';
import { actorCtx, DEMO_ACCOUNTS, SETUP_TIMEOUT_MS } from '../support/world';
import { seedContractsWorld, STRANGER, type ContractsWorld } from '../support/contracts';
import {
  day,
  db,
  insertInvoice,
  insertTransaction,
  reloadInvoice,
  type InvoiceRow,
} from '../support/billing';
import { pdfText } from '../support/pdf-text';

let w: ContractsWorld;
const q = (over: Record<string, string> = {}) => invoiceListQuerySchema.parse({ items: '100', ...over });

/** An invoice with lines: [premium, tax, rate bp, stamp duty] each. */
async function invoiceWithLines(
  lines: [number, number, number | null, number][],
  over: Partial<Parameters<typeof insertInvoice>[0]> = {},
): Promise<InvoiceRow> {
  const total = lines.reduce((a, [p, t, , s]) => a + p + t + s, 0);
  const tax = lines.reduce((a, [, t]) => a + t, 0);
  const stamp = lines.reduce((a, [, , , s]) => a + s, 0);
  const inv = await insertInvoice({
    company_id: w.albion.id,
    client_id: w.oakwood.id,
    campus_id: w.north.id,
    total_minor: total,
    tax_minor: tax,
    ...over,
  });
  await db()
    .update(invoices)
    .set({ stamp_duty_minor: stamp, insurance_cost_minor: total - tax - stamp })
    .where(eq(invoices.id, inv.id));
  for (const [n, [p, t, bp, s]] of lines.entries())
    await db()
      .insert(invoiceItems)
      .values({
        invoice_id: inv.id,
        description: `Line ${n + 1} Łukasz 王芳`,
        quantity: 1,
        unit_minor: p,
        tax_minor: t,
        total_minor: p + t + s,
        tax_rate_bp: bp,
        stamp_duty_minor: s,
      });
  return reloadInvoice(inv.id);
}

const finance = () => actorCtx(DEMO_ACCOUNTS.finance);

beforeAll(async () => {
  w = await seedContractsWorld();
}, SETUP_TIMEOUT_MS);

describe('the invoice list', () => {
  it('filters by status, due state, number, type, currency, method and dates, and sums per currency', async () => {
    const overdue = await invoiceWithLines([[10_000, 2000, 2000, 0]], { due_at: day(-3), date: day(-40) });
    const due = await invoiceWithLines([[5000, 1000, 2000, 0]], { due_at: day(3) });
    const open = await invoiceWithLines([[5000, 0, null, 0]], {
      due_at: day(30),
      currency: 'EUR',
      payment_method: 'bank_transfer',
    });
    const paid = await insertTransaction(
      await invoiceWithLines([[4000, 800, 2000, 0]], { due_at: day(-3) }),
      {
        amount_minor: 4800,
      },
    );
    const ctx = await finance();
    const numbers = async (over: Record<string, string>) =>
      (await listInvoices(ctx, q(over))).items.map((i) => i.number);
    expect(await numbers({ status: 'overdue' })).toContain(overdue.number);
    expect(await numbers({ status: 'overdue' })).not.toContain(paid.number);
    expect(await numbers({ status: 'due' })).toEqual(expect.arrayContaining([due.number]));
    expect(await numbers({ status: 'due' })).not.toContain(overdue.number);
    expect(await numbers({ status: 'open' })).toContain(open.number);
    expect(await numbers({ status: 'paid' })).toContain(paid.number);
    expect(await numbers({ number: overdue.number })).toEqual([overdue.number]);
    expect(await numbers({ currency: 'eur' })).toEqual([open.number]);
    expect(await numbers({ payment_method: 'bank_transfer' })).toEqual([open.number]);
    expect(await numbers({ date_to: day(-30) })).toEqual([overdue.number]);
    expect(await numbers({ due_from: day(20), due_to: day(40) })).toEqual([open.number]);
    const list = await listInvoices(ctx, q({ number: overdue.number }));
    expect(list.items[0]).toMatchObject({
      due_state: 'overdue',
      balance_minor: 12_000,
      partly_paid: false,
      type: 'invoice',
    });

    const summary = await invoiceSummary(ctx, q());
    const gbp = summary.find((s) => s.currency === 'GBP')!;
    const eur = summary.find((s) => s.currency === 'EUR')!;
    expect(eur).toMatchObject({ count: 1, total_minor: 5000, balance_minor: 5000, overdue: { count: 0 } });
    expect(gbp.by_status.paid.count).toBeGreaterThanOrEqual(1);
    expect(gbp.overdue.balance_minor).toBeGreaterThanOrEqual(12_000);
    const exported = await exportInvoices(ctx, q({ currency: 'EUR' }));
    expect(exported.map((r) => r.number)).toEqual([open.number]);
  });

  it('shows another company nothing of ours', async () => {
    const inv = await invoiceWithLines([[1000, 0, null, 0]]);
    const stranger = await actorCtx(STRANGER.companyUser);
    expect((await listInvoices(stranger, q({ number: inv.number }))).items).toEqual([]);
    await expect(invoiceDetail(stranger, inv.public_id)).rejects.toBeInstanceOf(NotFound);
  });
});

describe('an invoice page', () => {
  it('shows the tax lines, the totals, the payments and no billing address when none is set', async () => {
    await db()
      .delete(addresses)
      .where(and(eq(addresses.owner_type, 'client'), eq(addresses.owner_id, w.oakwood.id)));
    await db()
      .delete(addresses)
      .where(and(eq(addresses.owner_type, 'campus'), eq(addresses.owner_id, w.north.id)));
    const inv = await insertTransaction(
      await invoiceWithLines([
        [10_000, 2000, 2000, 0],
        [5000, 1000, 2000, 0],
        [3000, 90, 300, 100],
      ]),
      { amount_minor: 5000 },
    );
    const d = await invoiceDetail(await finance(), inv.public_id);
    expect(d.billing_address).toBeNull();
    expect(d.tax_lines).toEqual([
      { kind: 'tax', label: 'taxes.lines.ipt', rate_bp: 2000, base_minor: 15_000, amount_minor: 3000 },
      { kind: 'tax', label: 'taxes.lines.ipt', rate_bp: 300, base_minor: 3000, amount_minor: 90 },
      { kind: 'stamp_duty', label: 'taxes.lines.stamp_duty', count: 1, amount_minor: 100 },
    ]);
    expect(d).toMatchObject({
      total_minor: 21_190,
      paid_minor: 5000,
      balance_minor: 16_190,
      partly_paid: true,
    });
    expect(d.transactions).toHaveLength(1);
    expect(d.can).toMatchObject({ void: false, credit_note: true, record_payment: true });
  });

  it('falls back on the campus billing address when the invoice has no snapshot', async () => {
    await db()
      .insert(addresses)
      .values({
        owner_type: 'campus',
        owner_id: w.north.id,
        kind: 'billing',
        address: '1 North Road',
        city: 'Leeds',
        postal_code: 'LS1 1AA',
      })
      .onConflictDoNothing();
    const inv = await invoiceWithLines([[1000, 0, null, 0]]);
    const d = await invoiceDetail(await finance(), inv.public_id);
    expect(d.billing_address).toMatchObject({ address: '1 North Road', city: 'Leeds' });
  });
});

describe('voiding', () => {
  it('voids an unpaid invoice with a reason, logs before and after, and refuses twice', async () => {
    const inv = await invoiceWithLines([[1000, 200, 2000, 0]]);
    const ctx = await finance();
    const answer = await voidInvoice(ctx, inv.public_id, { reason: 'Raised twice' });
    expect(answer).toMatchObject({ status: 'void', void_reason: 'Raised twice' });
    const row = await reloadInvoice(inv.id);
    expect(row.status).toBe('void');
    const d = await invoiceDetail(ctx, inv.public_id);
    expect(d.balance_minor).toBe(0);
    expect(d.due_state).toBeNull();
    const [log] = await db()
      .select()
      .from(activityLogs)
      .where(
        and(
          eq(activityLogs.entity_type, 'invoice'),
          eq(activityLogs.entity_id, inv.id),
          eq(activityLogs.action, 'void'),
        ),
      );
    expect(log.before).toMatchObject({ status: 'unpaid' });
    expect(log.after).toMatchObject({ status: 'void', void_reason: 'Raised twice' });
    await expect(voidInvoice(ctx, inv.public_id, { reason: 'again' })).rejects.toBeInstanceOf(Conflict);
    await expect(issueCreditNote(ctx, inv.public_id, { reason: 'x', items: [] })).rejects.toBeInstanceOf(
      Conflict,
    );
  });

  it('refuses an invoice with a payment (even a part payment) and who may not update invoices', async () => {
    const inv = await insertTransaction(await invoiceWithLines([[1000, 0, null, 0]]), { amount_minor: 100 });
    await expect(voidInvoice(await finance(), inv.public_id, { reason: 'x' })).rejects.toThrow(
      'invoices.errors.void_paid',
    );
    const pending = await insertTransaction(await invoiceWithLines([[1000, 0, null, 0]]), {
      amount_minor: 1000,
      status: 'pending',
    });
    await expect(voidInvoice(await finance(), pending.public_id, { reason: 'x' })).rejects.toBeInstanceOf(
      Conflict,
    );
    const school = await actorCtx(DEMO_ACCOUNTS.schoolAdmin);
    const other = await invoiceWithLines([[1000, 0, null, 0]]);
    await expect(voidInvoice(school, other.public_id, { reason: 'x' })).rejects.toBeInstanceOf(Forbidden);
  });
});

describe('credit notes', () => {
  it('credits chosen lines at their original rates, from the CN series, and settles the invoice', async () => {
    const inv = await invoiceWithLines([
      [10_000, 2000, 2000, 0],
      [5000, 150, 300, 100],
    ]);
    const items = await db()
      .select()
      .from(invoiceItems)
      .where(eq(invoiceItems.invoice_id, inv.id))
      .orderBy(invoiceItems.id);
    const ctx = await finance();
    const [{ value: before }] = await db().all<{ value: number }>(
      sql`SELECT coalesce((SELECT value FROM sequences WHERE name = 'credit_note'), 0) AS value`,
    );
    const note = await issueCreditNote(ctx, inv.public_id, { reason: 'Wrong dates', items: [items[1].id] });
    expect(note.number).toBe(`CN${String(Number(before) + 1).padStart(7, '0')}`);
    expect(note.total_minor).toBe(5250);
    const [row] = await db().select().from(invoices).where(eq(invoices.public_id, note.id));
    expect(row).toMatchObject({
      type: 'credit_note',
      status: 'issued',
      credit_for_id: inv.id,
      tax_minor: 150,
      stamp_duty_minor: 100,
      insurance_cost_minor: 5000,
    });
    const lines = await db().select().from(invoiceItems).where(eq(invoiceItems.invoice_id, row.id));
    expect(lines).toEqual([
      expect.objectContaining({
        credits_item_id: items[1].id,
        tax_rate_bp: 300,
        tax_minor: 150,
        stamp_duty_minor: 100,
      }),
    ]);
    const settled = await reloadInvoice(inv.id);
    expect(settled.credited_minor).toBe(5250);
    const d = await invoiceDetail(ctx, inv.public_id);
    expect(d.balance_minor).toBe(12_000);
    expect(d.credit_notes.map((c) => c.number)).toEqual([note.number]);
    expect(d.credited_item_ids).toEqual([items[1].id]);
    // The logs name each document by its number (a logs tab links it), the note's as the batch drew it.
    const logs = await db()
      .select()
      .from(activityLogs)
      .where(
        and(
          eq(activityLogs.entity_type, 'invoice'),
          sql`${activityLogs.entity_id} IN (${inv.id}, ${row.id})`,
        ),
      );
    expect(logs.find((l) => l.action === 'credit_note')?.after).toMatchObject({
      credit_note: note.number,
      credited_minor: 5250,
      reason: 'Wrong dates',
    });
    expect(logs.find((l) => l.action === 'created' && l.entity_id === row.id)?.after).toMatchObject({
      type: 'credit_note',
      credit_for: inv.number,
    });
    // The same line again is refused; the rest (whole invoice) credits only what is left.
    await expect(
      issueCreditNote(ctx, inv.public_id, { reason: 'again', items: [items[1].id] }),
    ).rejects.toBeInstanceOf(ValidationFailed);
    const rest = await issueCreditNote(ctx, inv.public_id, { reason: 'All of it', items: [] });
    expect(rest.total_minor).toBe(12_000);
    expect((await reloadInvoice(inv.id)).status).toBe('paid');
    await expect(issueCreditNote(ctx, inv.public_id, { reason: 'more', items: [] })).rejects.toThrow(
      'invoices.errors.nothing_to_credit',
    );
    await expect(issueCreditNote(ctx, note.id, { reason: 'x', items: [] })).rejects.toBeInstanceOf(Conflict);
  });

  it('issues one note when the same lines are submitted twice at once', async () => {
    const inv = await invoiceWithLines([[2000, 400, 2000, 0]]);
    const ctx = await finance();
    const results = await Promise.allSettled([
      issueCreditNote(ctx, inv.public_id, { reason: 'double', items: [] }),
      issueCreditNote(ctx, inv.public_id, { reason: 'double', items: [] }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const notes = await db().select().from(invoices).where(eq(invoices.credit_for_id, inv.id));
    expect(notes).toHaveLength(1);
    expect((await reloadInvoice(inv.id)).credited_minor).toBe(2400);
  });
});

describe('files', () => {
  it('writes the PDF (tax lines, totals, Unicode names) and the Excel named by the number, and a ZIP of both chosen', async () => {
    const inv = await invoiceWithLines([
      [10_000, 2000, 2000, 0],
      [3000, 90, 300, 100],
    ]);
    const ctx = await finance();
    const pdf = await invoiceFile(ctx, inv.public_id, 'pdf');
    expect(pdf.filename).toBe(`${inv.number}.pdf`);
    const text = (await pdfText(new Uint8Array(pdf.body))).join('\n');
    expect(text).toContain(inv.number);
    expect(text).toContain('Łukasz 王芳');
    expect(text).toContain('Insurance premium tax (20 %)');
    expect(text).toContain('Stamp duty (1)');
    expect(text).toContain('GBP 151.90');
    const xlsx = await invoiceFile(ctx, inv.public_id, 'excel');
    expect(xlsx.filename).toBe(`${inv.number}.xlsx`);
    const other = await invoiceWithLines([[1000, 0, null, 0]]);
    const zip = await downloadInvoices(ctx, {
      ids: [inv.public_id, other.public_id, 'nosuchid'],
      format: 'pdf',
    });
    const entries = readCentralDirectory(new Uint8Array(await zip.arrayBuffer()), 10);
    expect(Array.isArray(entries) && entries.map((e) => e.name).sort()).toEqual(
      [`${inv.number}.pdf`, `${other.number}.pdf`].sort(),
    );
    const stranger = await actorCtx(STRANGER.companyUser);
    await expect(
      downloadInvoices(stranger, { ids: [inv.public_id], format: 'excel' }),
    ).rejects.toBeInstanceOf(NotFound);
  });
});
