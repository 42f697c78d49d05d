/**
 * An invoice's page ("Invoice detail"): the invoice with one page of its items (25 at a time),
 * the billing address (as it was at issue, else the campus's or the client's current one, else none: the
 * page says 'Billing address has not been specified.'), its tax lines over all its items (tax-lines.ts),
 * its payments and refunds, the credit notes issued against it, the overdue reminders sent, and what the
 * reader may do with it. Read by the API (GET invoices/{id}), the pages, the PDF and the Excel.
 */
import { and, asc, desc, eq, or, sql } from 'drizzle-orm';
import {
  addresses,
  campuses,
  companies,
  countries,
  invoiceItems,
  invoiceReminders,
  invoices,
  transactions,
} from '../../../drizzle/schema';
import { inJson } from '../../platform/db';
import { can, canAny } from '../access/actor';
import { STATEMENT_ACCESS } from '../billing/statement';
import type { ActorCtx } from '../context';
import { roomFor } from '../payments/record';
import { invoiceTransactions } from '../payments/service';
import { todayIso } from '../validation';
import { balanceMinor } from './status';
import { findVisibleInvoice, type JoinedInvoice } from './queries';
import type { InvoiceItemsQuery } from './schema';
import { getInvoice } from './service';
import { invoiceTaxLines, stampDutyNotRefunded, type StampDutyNotRefunded, type TaxLine } from './tax-lines';

export interface BillingAddress {
  name: string | null;
  address: string | null;
  address2: string | null;
  city: string | null;
  province: string | null;
  postal_code: string | null;
  country: string | null;
  email: string | null;
}

const ADDRESS_FIELDS = ['name', 'address', 'address2', 'city', 'province', 'postal_code', 'country', 'email'];

/** The address as lines to print (empty parts left out). */
export function addressLines(a: BillingAddress | null): string[] {
  if (!a) return [];
  const cityLine = [a.city, a.province, a.postal_code].filter(Boolean).join(', ');
  return [a.name, a.address, a.address2, cityLine, a.country].filter((l): l is string => !!l && !!l.trim());
}

function fromSnapshot(s: Record<string, string | null>): BillingAddress | null {
  const a = Object.fromEntries(ADDRESS_FIELDS.map((k) => [k, s[k] ?? null])) as unknown as BillingAddress;
  return addressLines(a).length ? a : null;
}

/** The billing address of an invoice: its snapshot, else the campus's, else the client's current one. */
export async function billingAddressOf(
  ctx: Pick<ActorCtx, 'db'>,
  r: JoinedInvoice,
): Promise<BillingAddress | null> {
  const i = r.invoice;
  if (i.billing_address) {
    const snap = fromSnapshot(i.billing_address);
    if (snap) return snap;
  }
  const owners = [
    ...(i.campus_id ? [and(eq(addresses.owner_type, 'campus'), eq(addresses.owner_id, i.campus_id))] : []),
    and(eq(addresses.owner_type, 'client'), eq(addresses.owner_id, i.client_id)),
  ];
  const rows = await ctx.db
    .select({ a: addresses, country: sql<string | null>`${countries.name}`.as('country_name') })
    .from(addresses)
    .leftJoin(countries, eq(countries.id, addresses.country_id))
    .where(and(eq(addresses.kind, 'billing'), or(...owners)));
  const pick = (type: 'campus' | 'client') => rows.find((x) => x.a.owner_type === type);
  for (const row of [pick('campus'), pick('client')]) {
    if (!row) continue;
    const a = row.a;
    const name = [a.first_name, a.last_name].filter(Boolean).join(' ');
    const address: BillingAddress = {
      name:
        [name, a.department].filter(Boolean).join(', ') ||
        (row === pick('campus') ? r.campus_name : r.client_name),
      address: a.address,
      address2: a.address2,
      city: a.city,
      province: a.province,
      postal_code: a.postal_code,
      country: row.country,
      email: a.email,
    };
    if (a.address || a.city || a.postal_code) return address;
  }
  return null;
}

/** The country (ISO code) whose tax the invoice's lines are named by: the campus's, else the company's. */
async function taxCountryOf(ctx: Pick<ActorCtx, 'db'>, r: JoinedInvoice): Promise<string | null> {
  const [row] = await ctx.db
    .select({
      campus: sql<
        string | null
      >`(SELECT co.code FROM ${campuses} cp JOIN ${countries} co ON co.id = cp.country_id WHERE cp.id = ${r.invoice.campus_id ?? -1})`,
      company: sql<
        string | null
      >`(SELECT co.code FROM ${companies} cm JOIN ${countries} co ON co.id = cm.country_id WHERE cm.id = ${r.invoice.company_id})`,
    })
    .from(invoices)
    .where(eq(invoices.id, r.invoice.id));
  return row?.campus ?? row?.company ?? null;
}

/** The tax lines of an invoice over all its items. */
export async function taxLinesOf(ctx: Pick<ActorCtx, 'db'>, r: JoinedInvoice): Promise<TaxLine[]> {
  const [items, country] = await Promise.all([
    ctx.db
      .select({
        base_minor: sql<number>`${invoiceItems.unit_minor} * ${invoiceItems.quantity}`,
        tax_minor: invoiceItems.tax_minor,
        tax_rate_bp: invoiceItems.tax_rate_bp,
        stamp_duty_minor: invoiceItems.stamp_duty_minor,
      })
      .from(invoiceItems)
      .where(eq(invoiceItems.invoice_id, r.invoice.id)),
    taxCountryOf(ctx, r),
  ]);
  return invoiceTaxLines(
    items.map((i) => ({ ...i, base_minor: Number(i.base_minor) })),
    country,
  );
}

/**
 * The stamp duty a cancellation's credit note does not give back (null for any other document): the
 * policies whose cancellation it records (their policy transactions name it), each with the duty it was
 * charged and what the note credits of it.
 */
export async function stampDutyNotRefundedOf(
  ctx: Pick<ActorCtx, 'db'>,
  r: JoinedInvoice,
): Promise<StampDutyNotRefunded | null> {
  if (r.invoice.type !== 'credit_note') return null;
  const rows = await ctx.db.all<{ charged_minor: number; credited_minor: number }>(sql`
    SELECT p.stamp_duty_minor AS charged_minor,
      coalesce((SELECT sum(x.stamp_duty_minor) FROM invoice_items x
        WHERE x.invoice_id = t.invoice_id AND x.policy_id = p.id), 0) AS credited_minor
    FROM policy_transactions t JOIN policies p ON p.id = t.policy_id
    WHERE t.invoice_id = ${r.invoice.id} AND t.kind = 'cancellation' AND p.stamp_duty_minor > 0`);
  return stampDutyNotRefunded(
    rows.map((x) => ({ charged_minor: Number(x.charged_minor), credited_minor: Number(x.credited_minor) })),
  );
}

/** The credit notes issued against an invoice. */
async function creditNotesOf(ctx: ActorCtx, invoiceId: number) {
  const rows = await ctx.db
    .select({
      id: invoices.public_id,
      number: invoices.number,
      date: invoices.date,
      total_minor: invoices.total_minor,
      currency: invoices.currency,
      voided_at: invoices.voided_at,
      campus_public_id: sql<
        string | null
      >`(SELECT cp.public_id FROM ${campuses} cp WHERE cp.id = ${invoices.campus_id})`,
    })
    .from(invoices)
    .where(and(eq(invoices.credit_for_id, invoiceId), eq(invoices.type, 'credit_note')))
    .orderBy(asc(invoices.id));
  return rows;
}

/**
 * A credit note's invoice as it stands now: what it still owes, the credit on the account it holds (its
 * credit notes beyond what was left to pay, or an overpayment), what was refunded on it.
 */
export async function creditedInvoiceOf(ctx: Pick<ActorCtx, 'db'>, invoiceId: number | null) {
  if (invoiceId == null) return null;
  const [t] = await ctx.db.select().from(invoices).where(eq(invoices.id, invoiceId)).limit(1);
  if (!t) return null;
  const b = balanceMinor(t);
  return {
    id: t.public_id,
    number: t.number,
    balance_minor: Math.max(0, b),
    account_credit_minor: Math.max(0, -b),
    refunded_minor: t.refunded_minor,
  };
}

/** The overdue reminders sent for an invoice (written by the overdue reminders), newest first. */
async function remindersOf(ctx: ActorCtx, invoiceId: number) {
  return ctx.db
    .select({
      kind: invoiceReminders.kind,
      step_days: invoiceReminders.step_days,
      recipient: invoiceReminders.recipient,
      created_at: invoiceReminders.created_at,
    })
    .from(invoiceReminders)
    .where(eq(invoiceReminders.invoice_id, invoiceId))
    .orderBy(desc(invoiceReminders.created_at), desc(invoiceReminders.id));
}

/** Whether the invoice has a payment (succeeded or started): it can no longer be voided. */
export async function hasPayments(ctx: Pick<ActorCtx, 'db'>, invoiceId: number): Promise<boolean> {
  const [row] = await ctx.db
    .select({ id: transactions.id })
    .from(transactions)
    .where(
      and(
        eq(transactions.invoice_id, invoiceId),
        eq(transactions.kind, 'payment'),
        inJson(transactions.status, ['succeeded', 'pending']),
      ),
    )
    .limit(1);
  return !!row;
}

/** The line ids of an invoice already credited by a credit note that stands. */
export async function creditedItemIds(ctx: Pick<ActorCtx, 'db'>, invoiceId: number): Promise<number[]> {
  const rows = await ctx.db.all<{ id: number }>(sql`SELECT ci.credits_item_id AS id
    FROM invoice_items ci JOIN invoices c ON c.id = ci.invoice_id
    WHERE c.credit_for_id = ${invoiceId} AND c.type = 'credit_note' AND c.voided_at IS NULL
      AND ci.credits_item_id IS NOT NULL`);
  return rows.map((r) => Number(r.id));
}

/** GET invoices/{id} with everything its page shows. */
export async function invoiceDetail(
  ctx: ActorCtx,
  id: string,
  q: InvoiceItemsQuery = { page: 1, items: 25 },
) {
  const base = await getInvoice(ctx, id, q);
  const row = await findVisibleInvoice(ctx, id);
  const i = row.invoice;
  const [address, taxLines, stampKept, payments, creditNotes, reminders, paid, credited, creditedInvoice] =
    await Promise.all([
      billingAddressOf(ctx, row),
      taxLinesOf(ctx, row),
      stampDutyNotRefundedOf(ctx, row),
      invoiceTransactions(ctx, id),
      creditNotesOf(ctx, i.id),
      remindersOf(ctx, i.id),
      hasPayments(ctx, i.id),
      creditedItemIds(ctx, i.id),
      i.type === 'credit_note' ? creditedInvoiceOf(ctx, i.credit_for_id) : Promise.resolve(null),
    ]);
  const a = ctx.actor;
  const isInvoice = i.type !== 'credit_note';
  const open = !i.voided_at && base.balance_minor > 0;
  const pendingTransfer = payments.some(
    (t) => t.gateway === 'bank_transfer' && t.status === 'pending' && t.kind === 'payment',
  );
  const today = todayIso(ctx.now);
  return {
    ...base,
    billing_address: address,
    tax_lines: taxLines,
    /** On a cancellation's credit note: the stamp duty it does not refund (taxes.ts). */
    stamp_duty_not_refunded: stampKept,
    transactions: payments,
    credit_notes: creditNotes,
    reminders,
    credited_item_ids: credited,
    /** A credit note: the invoice it corrects as that stands now. */
    credited_invoice: creditedInvoice,
    can: {
      void: can(a, 'update_invoice') && isInvoice && !i.voided_at && !paid && i.credited_minor === 0,
      credit_note: can(a, 'create_invoice') && isInvoice && !i.voided_at,
      record_payment: can(a, 'update_invoice') && isInvoice && open,
      record_refund: can(a, 'update_invoice') && isInvoice && !i.voided_at && roomFor('refund', i) > 0,
      /** Edit a recorded transaction (each one says whether it may be edited). */
      edit_transactions: can(a, 'update_invoice'),
      approve_bank_transfer: can(a, 'update_invoice') && pendingTransfer,
      overdue_email: can(a, 'update_invoice') && base.due_state === 'overdue',
      pay: a.user_type === 'school' && isInvoice && open && i.status !== 'pending',
    },
    /** The client's statement of account (a school user's own), for who may read statements. */
    statement_href: !canAny(a, STATEMENT_ACCESS)
      ? null
      : a.user_type === 'school'
        ? '/billing/statement'
        : `/clients/${base.client.id}/statement`,
    today,
  };
}
export type InvoiceDetailView = Awaited<ReturnType<typeof invoiceDetail>>;
