/**
 * Ireland as an Irish user finds it: the 3 % levy and the €1 stamp duty at and around the €20 threshold,
 * a cancellation that credits premium and levy but not the stamp duty (and its credit note saying so, on
 * the page's data, the PDF and the Excel), and the Ireland demo (drizzle/seed/ireland.ts): its taxes, its
 * school with campuses in Dublin and Galway, orders, invoices, payments and a cancellation.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import {
  campuses,
  clients,
  countries,
  invoiceItems,
  invoices,
  policies,
  taxRates,
} from '../../drizzle/schema';
import { countryId } from '../../drizzle/seed/builders';
import { DEMO_ACCOUNTS, seedDemo } from '../../drizzle/seed/demo';
import { IRISH_DEMO_CANCEL_REASON, IRISH_DEMO_CLIENT } from '../../drizzle/seed/ireland';
import { feeForDays, type Pricing } from '../../workers/domain/enrollments/fees';
import { invoiceDetail } from '../../workers/domain/invoices/detail';
import { invoiceFile } from '../../workers/domain/invoices/files';
import { formatMoney } from '../../workers/domain/invoices/pdf';
import { stampDutyNotRefunded } from '../../workers/domain/invoices/tax-lines';
import { taxAtOriginalRate } from '../../workers/domain/invoices/taxes';
import { loadExcel } from '../../workers/platform/xlsx';
import { pdfText } from '../support/pdf-text';
import { actorCtx, db, SETUP_TIMEOUT_MS } from '../support/world';

const irish = (sale_minor: number): Pricing => ({
  sale_minor,
  custom_minor: null,
  net_minor: 500,
  currency: 'EUR',
  unit_days: null,
  min_days: 6,
  tax: { rate_bp: 300, amount_minor: null },
  stamp_duty: true,
});

describe('the levy and stamp duty around the €20 threshold', () => {
  it('charges €1 stamp duty from a premium of exactly €20, none a cent below, and the levy on every premium', () => {
    const at = (minor: number) => feeForDays(10, irish(minor));
    expect(at(1999)).toMatchObject({ tax_minor: 60, stamp_duty_minor: 0, total_minor: 1999 + 60 });
    expect(at(2000)).toMatchObject({ tax_minor: 60, stamp_duty_minor: 100, total_minor: 2000 + 60 + 100 });
    expect(at(2001)).toMatchObject({ tax_minor: 60, stamp_duty_minor: 100, total_minor: 2001 + 60 + 100 });
    // The levy rounds half up per policy: 3 % of €18.50 is 55.5 cent.
    expect(at(1850)).toMatchObject({ tax_minor: 56, tax_rate_bp: 300, stamp_duty_minor: 0 });
    expect(at(9500)).toMatchObject({ tax_minor: 285, stamp_duty_minor: 100, total_minor: 9885 });
  });

  it('credits a cancellation’s levy at the rate it was charged, and keeps its stamp duty', () => {
    const credit = taxAtOriginalRate(-9500, { premium_minor: 9500, tax_minor: 285, tax_rate_bp: 300 });
    expect(credit).toMatchObject({ tax: -285, rate_bp: 300 });
    expect(
      stampDutyNotRefunded([
        { charged_minor: 100, credited_minor: 0 },
        { charged_minor: 100, credited_minor: 0 },
        { charged_minor: 0, credited_minor: 0 }, // under €20: none was charged
      ]),
    ).toEqual({ count: 2, amount_minor: 200 });
    // A note that credits the duty (a correction of an invoice raised by mistake) keeps none.
    expect(stampDutyNotRefunded([{ charged_minor: 100, credited_minor: 100 }])).toBeNull();
    expect(stampDutyNotRefunded([])).toBeNull();
  });
});

describe('the Ireland demo', () => {
  let clientId: number;

  beforeAll(async () => {
    const { env } = await import('cloudflare:test');
    const { seeded } = await seedDemo(db(), 'ie', env as never);
    expect(seeded).toBe(true);
    const [client] = await db().select().from(clients).where(eq(clients.name, IRISH_DEMO_CLIENT));
    clientId = client.id;
  }, SETUP_TIMEOUT_MS);

  const staff = () => actorCtx(DEMO_ACCOUNTS.seniorAdmin);

  it('has the Irish levy and stamp duty, and a school with campuses in Dublin and Galway', async () => {
    const ie = await countryId(db(), 'IE');
    const rates = await db()
      .select()
      .from(taxRates)
      .where(and(eq(taxRates.country_id, ie), eq(taxRates.active, true)));
    expect(rates.map((r) => r.rate_bp)).toEqual([300]);
    const [country] = await db().select().from(countries).where(eq(countries.id, ie));
    expect(country.stamp_duty_applicable).toBe(true);
    const sites = await db()
      .select({ name: campuses.name, country_id: campuses.country_id })
      .from(campuses)
      .where(eq(campuses.client_id, clientId))
      .orderBy(asc(campuses.name));
    expect(sites).toEqual([
      { name: 'Liffeyside Dublin Campus', country_id: ie },
      { name: 'Liffeyside Galway Campus', country_id: ie },
    ]);
    expect((await seedDemo(db(), 'ie')).seeded).toBe(false);
  });

  it('invoices its orders in euro with the levy on every line and stamp duty on every policy of €20 or more', async () => {
    const issued = await db()
      .select()
      .from(invoices)
      .where(and(eq(invoices.client_id, clientId), eq(invoices.type, 'invoice')))
      .orderBy(asc(invoices.date), asc(invoices.id));
    expect(issued).toHaveLength(3);
    for (const inv of issued) {
      expect(inv.currency).toBe('EUR');
      const items = await db().select().from(invoiceItems).where(eq(invoiceItems.invoice_id, inv.id));
      for (const item of items) {
        expect(item.tax_rate_bp).toBe(300);
        expect(item.tax_minor).toBe(Math.round(item.unit_minor * 0.03));
        expect(item.stamp_duty_minor).toBe(item.unit_minor >= 2000 ? 100 : 0);
        expect(item.total_minor).toBe(item.unit_minor + item.tax_minor + item.stamp_duty_minor);
      }
      expect(inv.stamp_duty_minor).toBe(items.reduce((s, x) => s + x.stamp_duty_minor, 0));
      expect(inv.total_minor).toBe(inv.insurance_cost_minor + inv.tax_minor + inv.stamp_duty_minor);
    }
    // Dublin's first intake (6 × €95), paid; Galway's (4 × €95), part paid; Dublin's summer intake
    // (3 × €95 and 2 × €18.50, under the threshold), open.
    expect(issued.map((i) => [i.total_minor, i.stamp_duty_minor])).toEqual([
      [6 * 9885, 600],
      [4 * 9885, 400],
      [3 * 9885 + 2 * (1850 + 56), 300],
    ]);
    expect(issued.map((i) => i.status)).toEqual(['paid', 'unpaid', 'unpaid']);
    expect(issued.map((i) => i.paid_minor)).toEqual([6 * 9885, 20_000, 0]);
  });

  it('cancelled one policy: its credit note credits premium and levy, keeps the stamp duty and says so', async () => {
    const [cancelled] = await db()
      .select()
      .from(policies)
      .where(and(eq(policies.client_id, clientId), eq(policies.status, 'cancelled')));
    expect(cancelled).toMatchObject({ cancel_reason: IRISH_DEMO_CANCEL_REASON, stamp_duty_minor: 100 });
    const [note] = await db()
      .select()
      .from(invoices)
      .where(and(eq(invoices.client_id, clientId), eq(invoices.type, 'credit_note')));
    expect(note).toMatchObject({
      currency: 'EUR',
      insurance_cost_minor: 9500,
      tax_minor: 285,
      stamp_duty_minor: 0,
      total_minor: 9785,
    });

    const ctx = await staff();
    const detail = await invoiceDetail(ctx, note.public_id);
    expect(detail.stamp_duty_not_refunded).toEqual({ count: 1, amount_minor: 100 });
    expect(detail.tax_lines).toEqual([
      { kind: 'tax', label: 'taxes.lines.levy', rate_bp: 300, base_minor: 9500, amount_minor: 285 },
    ]);
    const pdf = await invoiceFile(ctx, note.public_id, 'pdf');
    const text = (await pdfText(new Uint8Array(pdf.body))).join('\n');
    expect(text).toContain('Levy on premiums (3 %)');
    expect(text).toContain(
      'Stamp duty is not refundable: the EUR 1.00 stamp duty charged on 1 cancelled policy is not credited.',
    );
    const xlsx = await invoiceFile(ctx, note.public_id, 'excel');
    const ExcelJS = await loadExcel();
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.body as ArrayBuffer);
    const cells: string[] = [];
    book.eachSheet((sheet) => sheet.eachRow((row) => row.eachCell((c) => cells.push(String(c.value)))));
    expect(cells).toContain(
      'Stamp duty is not refundable: the EUR 1.00 stamp duty charged on 1 cancelled policy is not credited.',
    );
    // A credit note's own figures are credits: negative on its PDF and in its Excel.
    expect(text).toContain(formatMoney(-note.total_minor, 'EUR'));
    const figures = book.worksheets.find((w) => w.name === 'Invoice')!;
    const total = figures
      .getSheetValues()
      .find((row) => Array.isArray(row) && row[1] === 'Total') as unknown[];
    expect(total[2]).toBe(-note.total_minor / 100);

    // The invoice it corrects, and a policy nobody cancelled, say nothing of it.
    const [original] = await db().select().from(invoices).where(eq(invoices.id, cancelled.invoice_id!));
    expect((await invoiceDetail(ctx, original.public_id)).stamp_duty_not_refunded).toBeNull();
    const german = await invoiceFile({ ...ctx, lang: 'de' }, note.public_id, 'pdf');
    expect((await pdfText(new Uint8Array(german.body))).join('\n')).toContain(
      'Die Stempelsteuer wird nicht erstattet',
    );
  });
});
