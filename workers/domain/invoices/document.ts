/**
 * What an invoice's PDF and Excel show ("Invoice PDF and Excel"): the company's letterhead
 * (name, address, registration number), the billing address, the header, every line, the tax lines,
 * the totals, the payments and refunds, and where to pay (bank details and the payment reference).
 * Read once per document from the invoice in the reader's scope; texts in the reader's language.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import { addresses, companies, countries, invoiceItems, policies } from '../../../drizzle/schema';
import type { ActorCtx } from '../context';
import { bankDetailsOf, invoiceTransactions } from '../payments/service';
import {
  addressLines,
  billingAddressOf,
  creditedInvoiceOf,
  stampDutyNotRefundedOf,
  taxLinesOf,
} from './detail';
import { findVisibleInvoice, presentInvoiceOn, type JoinedInvoice } from './queries';
import type { StampDutyNotRefunded, TaxLine } from './tax-lines';
import { todayIso } from '../validation';

export interface InvoiceDocumentLine {
  description: string;
  policy_number: string | null;
  insured: string | null;
  dates: string | null;
  quantity: number;
  unit_minor: number;
  tax_minor: number;
  tax_rate_bp: number | null;
  stamp_duty_minor: number;
  total_minor: number;
}

export interface InvoiceDocument {
  lang: string;
  invoice: ReturnType<typeof presentInvoiceOn>;
  company: {
    name: string;
    registration_number: string | null;
    address: string[];
    bank: Awaited<ReturnType<typeof bankDetailsOf>>;
  };
  bill_to: string[];
  lines: InvoiceDocumentLine[];
  tax_lines: TaxLine[];
  /** On a cancellation's credit note: the stamp duty it does not refund. */
  stamp_duty_not_refunded: StampDutyNotRefunded | null;
  transactions: Awaited<ReturnType<typeof invoiceTransactions>>;
  /** A credit note: the invoice it corrects as that stands now. */
  credited_invoice: Awaited<ReturnType<typeof creditedInvoiceOf>>;
}

async function companyLetterhead(ctx: Pick<ActorCtx, 'db'>, companyId: number) {
  const [row] = await ctx.db
    .select({
      name: companies.name,
      registration_number: companies.registration_number,
      a: addresses,
      country: sql<string | null>`${countries.name}`.as('country_name'),
    })
    .from(companies)
    .leftJoin(
      addresses,
      and(
        eq(addresses.owner_type, 'company'),
        eq(addresses.owner_id, companies.id),
        eq(addresses.kind, 'billing'),
      ),
    )
    .leftJoin(countries, eq(countries.id, addresses.country_id))
    .where(eq(companies.id, companyId));
  const a = row?.a;
  const lines = a
    ? addressLines({
        name: null,
        address: a.address,
        address2: a.address2,
        city: a.city,
        province: a.province,
        postal_code: a.postal_code,
        country: row.country,
        email: a.email,
      })
    : [];
  return { name: row?.name ?? '', registration_number: row?.registration_number ?? null, address: lines };
}

/** Every line of an invoice, in order, with its policy (5000 lines are one query). */
async function documentLines(ctx: Pick<ActorCtx, 'db'>, invoiceId: number): Promise<InvoiceDocumentLine[]> {
  const rows = await ctx.db
    .select({
      description: invoiceItems.description,
      quantity: invoiceItems.quantity,
      unit_minor: invoiceItems.unit_minor,
      tax_minor: invoiceItems.tax_minor,
      tax_rate_bp: invoiceItems.tax_rate_bp,
      stamp_duty_minor: invoiceItems.stamp_duty_minor,
      total_minor: invoiceItems.total_minor,
      policy_number: policies.policy_number,
      first_name: policies.first_name,
      last_name: policies.last_name,
      start_date: policies.start_date,
      end_date: policies.end_date,
    })
    .from(invoiceItems)
    .leftJoin(policies, eq(policies.id, invoiceItems.policy_id))
    .where(eq(invoiceItems.invoice_id, invoiceId))
    .orderBy(asc(invoiceItems.id));
  return rows.map((r) => ({
    description: r.description,
    policy_number: r.policy_number,
    insured: r.first_name != null ? `${r.first_name} ${r.last_name}` : null,
    dates: r.start_date ? `${r.start_date} – ${r.end_date}` : null,
    quantity: r.quantity,
    unit_minor: r.unit_minor,
    tax_minor: r.tax_minor,
    tax_rate_bp: r.tax_rate_bp,
    stamp_duty_minor: r.stamp_duty_minor,
    total_minor: r.total_minor,
  }));
}

/** The document of an invoice the actor may see (NotFound otherwise). */
export async function invoiceDocument(ctx: ActorCtx, id: string): Promise<InvoiceDocument> {
  return documentOf(ctx, await findVisibleInvoice(ctx, id));
}

export async function documentOf(ctx: ActorCtx, row: JoinedInvoice): Promise<InvoiceDocument> {
  const i = row.invoice;
  const [company, bank, address, lines, taxLines, stampKept, payments, credited] = await Promise.all([
    companyLetterhead(ctx, i.company_id),
    bankDetailsOf(ctx.db, i.company_id),
    billingAddressOf(ctx, row),
    documentLines(ctx, i.id),
    taxLinesOf(ctx, row),
    stampDutyNotRefundedOf(ctx, row),
    invoiceTransactions(ctx, i.public_id),
    i.type === 'credit_note' ? creditedInvoiceOf(ctx, i.credit_for_id) : Promise.resolve(null),
  ]);
  return {
    lang: ctx.lang ?? 'en',
    invoice: presentInvoiceOn(row, todayIso(ctx.now)),
    company: { ...company, bank },
    bill_to: addressLines(address),
    lines,
    tax_lines: taxLines,
    stamp_duty_not_refunded: stampKept,
    transactions: payments,
    credited_invoice: credited,
  };
}
