/**
 * Scoped reads of invoices shared by checkout, payments and the invoice calls.
 *
 * Who sees an invoice (docs/decisions/billing.md, "Checkout"): a user with read_invoice sees the invoices of their
 * tenant scope (company users: the companies in view; school users: their client's, and only their
 * campuses' unless they may see all campuses, plus any they checked out themselves). A user who may order
 * (create_policy) but not read invoices sees the invoices of their own checkouts, so they can pay for and
 * review what they bought. Anything else answers "not found".
 */
import { and, eq, gte, lt, sql } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { campuses, clients, companies, invoiceItems, invoices } from '../../../drizzle/schema';
import { requirePermission } from '../access/actor';
import { visibleInvoices } from '../access/scope';
import type { ActorCtx } from '../context';
import { NotFound } from '../errors';
import { major, msg, todayIso } from '../validation';
import { balanceMinor, daysOverdue, dueState, partlyPaid } from './status';

export type InvoiceRow = typeof invoices.$inferSelect;

/**
 * Permissions that let a user reach an invoice at all (read_invoice or read_client_billing, or ordering
 * for their own).
 */
export const INVOICE_ACCESS = 'read_invoice|read_client_billing|create_policy';

function as<T>(column: SQLiteColumn, alias: string) {
  return sql<T>`${column}`.as(alias);
}

export const invoiceColumns = {
  invoice: invoices,
  client_public_id: as<string>(clients.public_id, 'client_public_id'),
  client_name: as<string>(clients.name, 'client_name'),
  campus_public_id: as<string | null>(campuses.public_id, 'campus_public_id'),
  campus_name: as<string | null>(campuses.name, 'campus_name'),
  company_public_id: as<string>(companies.public_id, 'company_public_id'),
  company_name: as<string>(companies.name, 'company_name'),
  /** The policies its lines bill or credit (a supplementary invoice or credit note names them too). */
  policy_count:
    sql<number>`(SELECT count(DISTINCT ${invoiceItems.policy_id}) FROM ${invoiceItems} WHERE ${invoiceItems.invoice_id} = ${invoices.id})`.as(
      'policy_count',
    ),
  credit_for_public_id: sql<
    string | null
  >`(SELECT cf.public_id FROM invoices cf WHERE cf.id = ${invoices.credit_for_id})`.as(
    'credit_for_public_id',
  ),
  credit_for_number: sql<
    string | null
  >`(SELECT cf.number FROM invoices cf WHERE cf.id = ${invoices.credit_for_id})`.as('credit_for_number'),
};

export interface JoinedInvoice {
  invoice: InvoiceRow;
  client_public_id: string;
  client_name: string;
  campus_public_id: string | null;
  campus_name: string | null;
  company_public_id: string;
  company_name: string;
  policy_count: number;
  credit_for_public_id: string | null;
  credit_for_number: string | null;
}

export function joinedInvoices(ctx: Pick<ActorCtx, 'db'>) {
  return ctx.db
    .select(invoiceColumns)
    .from(invoices)
    .innerJoin(clients, eq(clients.id, invoices.client_id))
    .innerJoin(companies, eq(companies.id, invoices.company_id))
    .leftJoin(campuses, eq(campuses.id, invoices.campus_id));
}

/** An invoice by public id (text) or id (number) as the actor may see it; otherwise NotFound. */
/**
 * The invoices one checkout issued, in the actor's scope: checkout keys are `<key>:<client>:<currency>`,
 * one invoice per client and currency.
 */
export async function invoicesOfCheckout(ctx: ActorCtx, key: string): Promise<JoinedInvoice[]> {
  const rows = await joinedInvoices(ctx)
    .where(
      and(
        gte(invoices.checkout_key, `${key}:`),
        lt(invoices.checkout_key, `${key};`),
        visibleInvoices(ctx.actor),
      ),
    )
    .orderBy(invoices.id);
  return rows as JoinedInvoice[];
}

export async function findVisibleInvoice(ctx: ActorCtx, id: string | number): Promise<JoinedInvoice> {
  requirePermission(ctx.actor, INVOICE_ACCESS);
  const [row] = await joinedInvoices(ctx)
    .where(
      and(
        typeof id === 'number' ? eq(invoices.id, id) : eq(invoices.public_id, id),
        visibleInvoices(ctx.actor),
      ),
    )
    .limit(1);
  if (!row) throw new NotFound(msg('checkout.errors.invoice_not_found'));
  return row as JoinedInvoice;
}

/**
 * Where an invoice or credit note named only by its number lives (its public id and its client's): the
 * address a reference by number leads to (an audit entry, a statement's "Credits INV…"). Numbers are
 * unique across the region; an invoice the actor may not see is NotFound, as on its own page.
 */
export async function invoiceByNumber(
  ctx: ActorCtx,
  number: string,
): Promise<{ id: string; client_id: string }> {
  requirePermission(ctx.actor, INVOICE_ACCESS);
  const [row] = await ctx.db
    .select({ id: invoices.public_id, client_id: clients.public_id })
    .from(invoices)
    .innerJoin(clients, eq(clients.id, invoices.client_id))
    .where(and(eq(invoices.number, number), visibleInvoices(ctx.actor)))
    .limit(1);
  if (!row) throw new NotFound(msg('checkout.errors.invoice_not_found'));
  return row;
}

/** An invoice as the API and the pages show it (public ids; money in major units and minor units). */
export function presentInvoice(r: JoinedInvoice) {
  return presentInvoiceOn(r, todayIso(new Date()));
}

/** presentInvoice with the due state as of `today` (YYYY-MM-DD). */
export function presentInvoiceOn(r: JoinedInvoice, today: string) {
  const i = r.invoice;
  // What is still owed (never below zero: a credit beyond it is the client's, given back by a refund).
  const balance = Math.max(0, balanceMinor(i));
  return {
    id: i.public_id,
    id_numeric: i.id,
    number: i.number,
    invoice_number: i.number,
    status: i.status,
    payment_method: i.payment_method,
    currency: i.currency,
    date: i.date,
    due_at: i.due_at,
    paid_at: i.paid_at,
    insurance_cost: major(i.insurance_cost_minor),
    tax: major(i.tax_minor),
    admin_fee: major(i.admin_fee_minor),
    amount: major(i.total_minor),
    total: major(i.total_minor),
    paid_amount: major(i.paid_minor),
    total_minor: i.total_minor,
    tax_minor: i.tax_minor,
    insurance_cost_minor: i.insurance_cost_minor,
    paid_minor: i.paid_minor,
    payment_reference: i.payment_reference,
    order_number: i.order_number,
    policy_count: Number(r.policy_count ?? 0),
    client: { id: r.client_public_id, name: r.client_name },
    campus: r.campus_public_id ? { id: r.campus_public_id, name: r.campus_name } : null,
    company: { id: r.company_public_id, name: r.company_name },
    created_at: i.created_at,
    // ---- billing
    type: i.type,
    admin_fee_minor: i.admin_fee_minor,
    stamp_duty: major(i.stamp_duty_minor),
    stamp_duty_minor: i.stamp_duty_minor,
    credited: major(i.credited_minor),
    credited_minor: i.credited_minor,
    refunded: major(i.refunded_minor),
    refunded_minor: i.refunded_minor,
    balance: major(balance),
    balance_minor: balance,
    /** Credit on the account from this invoice: paid beyond what it owes after its credit notes. */
    account_credit_minor: Math.max(0, -balanceMinor(i)),
    due_state: dueState(i, today),
    /** Days past the due date of an invoice still owing (0 otherwise): the page's "overdue by N days". */
    days_overdue: dueState(i, today) === 'overdue' ? daysOverdue(i.due_at, today) : 0,
    partly_paid: partlyPaid(i),
    voided_at: i.voided_at,
    void_reason: i.void_reason,
    /** The billing address as it was at issue (the detail falls back on the current one). */
    billing_address: i.billing_address ?? null,
    credit_for: r.credit_for_public_id ? { id: r.credit_for_public_id, number: r.credit_for_number } : null,
    period_from: i.period_from,
    period_to: i.period_to,
    group_name: i.group_name,
  };
}
export type InvoiceView = ReturnType<typeof presentInvoice>;
