/**
 * Invoices (spec 001 s.3 "Invoice and payment transaction"; spec 002 s.7 "Invoices and payments"): the
 * list, one invoice with its policies (25 per page), the invoices made by the same checkout, and the
 * downloadable summary of what was bought (an .xlsx named by the invoice number).
 *
 * Scope and permissions are in queries.ts. The full invoice screens (billing, refunds, credit memos)
 * come with the accounting issue; this is what ordering needs.
 */
import { and, asc, desc, eq, gt, gte, lt, lte, sql, type SQL } from 'drizzle-orm';
import { INVOICE_STATUSES } from '../../../drizzle/schema/ordering-enums';
import {
  campuses,
  clients,
  companies,
  contracts,
  invoiceItems,
  invoices,
  policies,
  policyBatches,
  products,
} from '../../../drizzle/schema';
import { buildWorkbook } from '../../platform/xlsx';
import { loadLanguages, translate } from '../../platform/i18n';
import { requirePermission } from '../access/actor';
import { visibleInvoices } from '../access/scope';
import type { ActorCtx } from '../context';
import { countAll, likeAny, orderBy, paginate, type BulkSelection, type Page } from '../lists';
import { NotFound, ValidationFailed } from '../errors';
import { findCampus, findClient } from '../access/finders';
import { inJson } from '../../platform/db';
import { DUE_SOON_DAYS, DUE_STATES, type DueState, type InvoicePaymentStatus } from './status';
import { policyStatus } from '../policies/status';
import { msg, todayIso } from '../validation';
import {
  findVisibleInvoice,
  INVOICE_ACCESS,
  joinedInvoices,
  presentInvoice,
  presentInvoiceOn,
  invoicesOfCheckout,
  type InvoiceView,
  type JoinedInvoice,
} from './queries';
import { MAX_ZIP_INVOICES, type InvoiceItemsQuery, type InvoiceListQuery } from './schema';

const sortable = {
  number: invoices.number,
  date: invoices.date,
  due_at: invoices.due_at,
  status: invoices.status,
  total: invoices.total_minor,
  balance: sql`${invoices.total_minor} - ${invoices.paid_minor} + ${invoices.refunded_minor} - ${invoices.credited_minor}`,
  client: clients.name,
  currency: invoices.currency,
};

/** What is left to pay, as SQL (0 for a credit note or a void invoice), as status.ts's balanceMinor. */
export const balanceSql = sql<number>`(CASE WHEN ${invoices.type} = 'credit_note' OR ${invoices.voided_at} IS NOT NULL THEN 0
  ELSE max(0, ${invoices.total_minor} - ${invoices.paid_minor} + ${invoices.refunded_minor} - ${invoices.credited_minor}) END)`;

/** The due states as SQL on `today` (status.ts: overdue after the due date, due from 7 days before). */
export function dueStateSql(state: DueState, today: string): SQL {
  const soon = new Date(Date.parse(`${today}T00:00:00Z`) + DUE_SOON_DAYS * 86_400_000)
    .toISOString()
    .slice(0, 10);
  const owed = sql`${balanceSql} > 0`;
  if (state === 'overdue') return and(owed, lt(invoices.due_at, today))!;
  if (state === 'due') return and(owed, gte(invoices.due_at, today), lte(invoices.due_at, soon))!;
  return and(owed, gt(invoices.due_at, soon))!;
}

/** The WHERE of the invoice list (and its summary, export and "all matching" selection) for the actor. */
export function invoiceListWhere(ctx: ActorCtx, q: InvoiceListQuery): SQL | undefined {
  const today = todayIso(ctx.now);
  const status = q.status && q.status !== 'all' ? q.status : undefined;
  return and(
    visibleInvoices(ctx.actor),
    status && (DUE_STATES as readonly string[]).includes(status)
      ? dueStateSql(status as DueState, today)
      : status
        ? eq(invoices.status, status as (typeof invoices.$inferSelect)['status'])
        : undefined,
    q.number ? likeAny([invoices.number], q.number) : undefined,
    q.client_id ? eq(clients.public_id, q.client_id) : undefined,
    q.campus_id ? eq(campuses.public_id, q.campus_id) : undefined,
    q.type ? eq(invoices.type, q.type) : undefined,
    q.currency ? eq(invoices.currency, q.currency.toUpperCase()) : undefined,
    q.payment_method ? eq(invoices.payment_method, q.payment_method) : undefined,
    q.date_from ? gte(invoices.date, q.date_from) : undefined,
    q.date_to ? lte(invoices.date, q.date_to) : undefined,
    q.due_from ? gte(invoices.due_at, q.due_from) : undefined,
    q.due_to ? lte(invoices.due_at, q.due_to) : undefined,
    likeAny([invoices.number, invoices.payment_reference, clients.name, invoices.order_number], q.search),
  );
}

function countQuery(ctx: ActorCtx, where: SQL | undefined) {
  return ctx.db
    .select({ total: countAll })
    .from(invoices)
    .innerJoin(clients, eq(clients.id, invoices.client_id))
    .innerJoin(companies, eq(companies.id, invoices.company_id))
    .leftJoin(campuses, eq(campuses.id, invoices.campus_id))
    .where(where);
}

/** GET invoices: the invoices the actor may see, filtered, sorted and paged. */
export async function listInvoices(ctx: ActorCtx, q: InvoiceListQuery): Promise<Page<InvoiceView>> {
  requirePermission(ctx.actor, INVOICE_ACCESS);
  const where = invoiceListWhere(ctx, q);
  const today = todayIso(ctx.now);
  const page = await paginate<JoinedInvoice>(ctx.db, q, {
    rows: (limit, offset) =>
      joinedInvoices(ctx)
        .where(where)
        .orderBy(...orderBy(q.order, sortable, 'date_desc', invoices.id))
        .limit(limit)
        .offset(offset),
    count: countQuery(ctx, where),
  });
  return { items: page.items.map((r) => presentInvoiceOn(r, today)), meta: page.meta };
}

/** One currency's figures of the list's summary. */
export interface InvoiceSummaryRow {
  currency: string;
  /** Invoices and supplementary invoices, not void: how many and their totals ("invoiced"). */
  count: number;
  total_minor: number;
  /** Credit notes: how many and their totals ("credited"). */
  credit_notes: { count: number; total_minor: number };
  /** What the invoices still owe (their positive balances: after payments, refunds and credit notes). */
  balance_minor: number;
  /** Credit on the account: paid beyond what an invoice owes after its credit notes, to use or refund. */
  credit_minor: number;
  /** Money received on the invoices less what was refunded. */
  paid_minor: number;
  by_status: Record<InvoicePaymentStatus, { count: number; total_minor: number; balance_minor: number }>;
  overdue: { count: number; balance_minor: number };
}

/**
 * GET invoices/summary: over the list's filters, per currency, the invoices (count and total invoiced)
 * and the credit notes (count and total credited) apart, what is still owed, the credit on the account,
 * what was received less refunds, how much is overdue, and each payment status's figures. Void invoices
 * are counted under their status but not as invoiced. Outstanding, overdue and credit are /billing's
 * figures over the same invoices: invoiced - credited - paid = outstanding - credit.
 */
export async function invoiceSummary(ctx: ActorCtx, q: InvoiceListQuery): Promise<InvoiceSummaryRow[]> {
  requirePermission(ctx.actor, INVOICE_ACCESS);
  const where = invoiceListWhere(ctx, q);
  const today = todayIso(ctx.now);
  const live = sql`${invoices.voided_at} IS NULL`;
  const note = sql`${invoices.type} = 'credit_note'`;
  const raw = sql`(${invoices.total_minor} - ${invoices.paid_minor} + ${invoices.refunded_minor} - ${invoices.credited_minor})`;
  const rows = await ctx.db
    .select({
      currency: invoices.currency,
      status: invoices.status,
      count: sql<number>`count(*)`,
      total: sql<number>`coalesce(sum(${invoices.total_minor}), 0)`,
      invoiced_count: sql<number>`coalesce(sum(CASE WHEN ${live} AND NOT ${note} THEN 1 ELSE 0 END), 0)`,
      invoiced: sql<number>`coalesce(sum(CASE WHEN ${live} AND NOT ${note} THEN ${invoices.total_minor} ELSE 0 END), 0)`,
      credited_count: sql<number>`coalesce(sum(CASE WHEN ${live} AND ${note} THEN 1 ELSE 0 END), 0)`,
      credited: sql<number>`coalesce(sum(CASE WHEN ${live} AND ${note} THEN ${invoices.total_minor} ELSE 0 END), 0)`,
      // A credit note against an invoice is in that invoice's balance; one on the account (older data) is credit.
      credit: sql<number>`coalesce(sum(CASE WHEN NOT ${live} THEN 0
        WHEN ${note} THEN CASE WHEN ${invoices.credit_for_id} IS NULL THEN ${invoices.total_minor} ELSE 0 END
        ELSE max(0, -${raw}) END), 0)`,
      received: sql<number>`coalesce(sum(CASE WHEN ${note} THEN 0 ELSE ${invoices.paid_minor} - ${invoices.refunded_minor} END), 0)`,
      balance: sql<number>`coalesce(sum(${balanceSql}), 0)`,
      overdue_count: sql<number>`coalesce(sum(CASE WHEN ${balanceSql} > 0 AND ${invoices.due_at} < ${today} THEN 1 ELSE 0 END), 0)`,
      overdue_balance: sql<number>`coalesce(sum(CASE WHEN ${balanceSql} > 0 AND ${invoices.due_at} < ${today} THEN ${balanceSql} ELSE 0 END), 0)`,
    })
    .from(invoices)
    .innerJoin(clients, eq(clients.id, invoices.client_id))
    .innerJoin(companies, eq(companies.id, invoices.company_id))
    .leftJoin(campuses, eq(campuses.id, invoices.campus_id))
    .where(where)
    .groupBy(invoices.currency, invoices.status)
    .orderBy(invoices.currency);
  const out = new Map<string, InvoiceSummaryRow>();
  for (const r of rows) {
    let row = out.get(r.currency);
    if (!row) {
      row = {
        currency: r.currency,
        count: 0,
        total_minor: 0,
        credit_notes: { count: 0, total_minor: 0 },
        balance_minor: 0,
        credit_minor: 0,
        paid_minor: 0,
        by_status: Object.fromEntries(
          INVOICE_STATUSES.map((s) => [s, { count: 0, total_minor: 0, balance_minor: 0 }]),
        ) as InvoiceSummaryRow['by_status'],
        overdue: { count: 0, balance_minor: 0 },
      };
      out.set(r.currency, row);
    }
    const [count, total, balance] = [Number(r.count), Number(r.total), Number(r.balance)];
    row.count += Number(r.invoiced_count);
    row.total_minor += Number(r.invoiced);
    row.credit_notes.count += Number(r.credited_count);
    row.credit_notes.total_minor += Number(r.credited);
    row.balance_minor += balance;
    row.credit_minor += Number(r.credit);
    row.paid_minor += Number(r.received);
    row.by_status[r.status] = { count, total_minor: total, balance_minor: balance };
    row.overdue.count += Number(r.overdue_count);
    row.overdue.balance_minor += Number(r.overdue_balance);
  }
  return [...out.values()];
}

/** Most rows an export holds. */
export const MAX_EXPORT_INVOICES = 20_000;

/** GET invoices/export: every invoice matching the filters (refused past MAX_EXPORT_INVOICES). */
export async function exportInvoices(ctx: ActorCtx, q: InvoiceListQuery): Promise<InvoiceView[]> {
  requirePermission(ctx.actor, INVOICE_ACCESS);
  const where = invoiceListWhere(ctx, q);
  const [counted] = await countQuery(ctx, where);
  if (Number(counted?.total ?? 0) > MAX_EXPORT_INVOICES)
    throw new ValidationFailed([{ key: 'invoices', message: msg('invoices.errors.download_failed') }]);
  const today = todayIso(ctx.now);
  const rows = (await joinedInvoices(ctx)
    .where(where)
    .orderBy(...orderBy(q.order, sortable, 'date_desc', invoices.id))) as JoinedInvoice[];
  return rows.map((r) => presentInvoiceOn(r, today));
}

/** The ids (row ids) of a bulk selection of the list: the named public ids or all matching, in scope. */
export async function selectedInvoiceIds(
  ctx: ActorCtx,
  selection: BulkSelection,
  q: InvoiceListQuery,
): Promise<string[]> {
  requirePermission(ctx.actor, INVOICE_ACCESS);
  const where = selection.all_matching
    ? invoiceListWhere(ctx, q)
    : and(visibleInvoices(ctx.actor), inJson(invoices.public_id, selection.ids ?? []));
  const rows = await ctx.db
    .select({ id: invoices.public_id })
    .from(invoices)
    .innerJoin(clients, eq(clients.id, invoices.client_id))
    .innerJoin(companies, eq(companies.id, invoices.company_id))
    .leftJoin(campuses, eq(campuses.id, invoices.campus_id))
    .where(where)
    .orderBy(desc(invoices.date), asc(invoices.id))
    .limit(MAX_ZIP_INVOICES + 1);
  return rows.map((r) => r.id);
}

/** One line of an invoice: the policy it bought, with its fee. */
export function presentItem(
  r: {
    item: typeof invoiceItems.$inferSelect;
    policy: typeof policies.$inferSelect | null;
    campus_name: string | null;
    product_name: string | null;
    product_code: string | null;
  },
  today: string,
) {
  const p = r.policy;
  return {
    id: r.item.id,
    description: r.item.description,
    quantity: r.item.quantity,
    unit_price: r.item.unit_minor / 100,
    tax: r.item.tax_minor / 100,
    stamp_duty: r.item.stamp_duty_minor / 100,
    total: r.item.total_minor / 100,
    unit_minor: r.item.unit_minor,
    tax_minor: r.item.tax_minor,
    /** Ireland's stamp duty on this line's policy (its total includes it). */
    stamp_duty_minor: r.item.stamp_duty_minor,
    total_minor: r.item.total_minor,
    policy: p
      ? {
          id: p.public_id,
          id_numeric: p.id,
          policy_number: p.policy_number,
          type: p.type,
          first_name: p.first_name,
          last_name: p.last_name,
          full_name: `${p.first_name} ${p.last_name}`,
          email: p.email,
          date_of_birth: p.date_of_birth,
          start_date: p.start_date,
          end_date: p.end_date,
          booking_date: p.booking_date,
          status: policyStatus(p, today),
          premium: p.premium_minor / 100,
          tax: p.tax_minor / 100,
          currency: p.currency,
          campus: r.campus_name,
          product_code: r.product_code,
          product: r.product_name,
          welcome_email_sent_at: p.welcome_email_sent_at,
        }
      : null,
  };
}
export type InvoiceItemView = ReturnType<typeof presentItem>;

function itemRows(ctx: ActorCtx, invoiceId: number) {
  return ctx.db
    .select({
      item: invoiceItems,
      policy: policies,
      campus_name: sql<string | null>`${campuses.name}`.as('campus_name'),
      product_name: sql<string | null>`${products.name}`.as('product_name'),
      product_code: sql<string | null>`${products.code}`.as('product_code'),
    })
    .from(invoiceItems)
    .leftJoin(policies, eq(policies.id, invoiceItems.policy_id))
    .leftJoin(campuses, eq(campuses.id, policies.campus_id))
    .leftJoin(products, eq(products.id, policies.product_id))
    .where(eq(invoiceItems.invoice_id, invoiceId))
    .orderBy(asc(invoiceItems.id));
}

/** GET invoices/{id}: the invoice with one page of its items (the policies it bought) and their meta. */
export async function getInvoice(ctx: ActorCtx, id: string, q: InvoiceItemsQuery = { page: 1, items: 25 }) {
  const row = await findVisibleInvoice(ctx, id);
  const today = todayIso(ctx.now);
  const page = await paginate(ctx.db, q, {
    rows: (limit, offset) => itemRows(ctx, row.invoice.id).limit(limit).offset(offset),
    count: ctx.db
      .select({ total: countAll })
      .from(invoiceItems)
      .where(eq(invoiceItems.invoice_id, row.invoice.id)),
    // Apart: batched rows are keyed by column name, and an item and its policy share names.
    apart: true,
  });
  return {
    ...presentInvoice(row),
    items: page.items.map((r) => presentItem(r, today)),
    meta: page.meta,
  };
}
export type InvoiceDetail = Awaited<ReturnType<typeof getInvoice>>;

/** The other invoices made by the same checkout (one per client and currency), in the actor's view. */
export async function siblingInvoices(ctx: ActorCtx, id: string): Promise<InvoiceView[]> {
  const row = await findVisibleInvoice(ctx, id);
  const key = row.invoice.checkout_key?.split(':')[0];
  if (!key) return [];
  const rows = await invoicesOfCheckout(ctx, key);
  return rows.map(presentInvoice).filter((i) => i.id !== row.invoice.public_id);
}

/**
 * The summary of what an invoice bought, as an .xlsx named by the invoice number (spec 000 s.3): a sheet
 * of its policies and a sheet with the invoice's figures. Texts in the reader's language.
 */
export async function invoiceSummaryWorkbook(
  ctx: ActorCtx,
  id: string,
): Promise<{ filename: string; body: ArrayBuffer }> {
  const row = await findVisibleInvoice(ctx, id);
  const lang = ctx.lang ?? 'en';
  await loadLanguages([lang]);
  const t = (key: string) => translate(lang, `checkout.summary.${key}`);
  const today = todayIso(ctx.now);
  const rows = (await itemRows(ctx, row.invoice.id).limit(10_000)).map((r) => presentItem(r, today));
  const invoice = presentInvoice(row);
  const money = (minor: number) => Math.round(minor) / 100;
  const body = await buildWorkbook([
    {
      name: t('policies_sheet'),
      columns: [
        { header: t('policy_number'), key: 'policy_number', width: 14 },
        { header: t('first_name'), key: 'first_name', width: 18 },
        { header: t('last_name'), key: 'last_name', width: 18 },
        { header: t('type'), key: 'type', width: 16 },
        { header: t('date_of_birth'), key: 'date_of_birth', width: 14 },
        { header: t('email'), key: 'email', width: 28 },
        { header: t('start_date'), key: 'start_date', width: 12 },
        { header: t('end_date'), key: 'end_date', width: 12 },
        { header: t('product'), key: 'product', width: 24 },
        { header: t('campus'), key: 'campus', width: 24 },
        { header: t('status'), key: 'status', width: 12 },
        { header: t('premium'), key: 'premium', width: 12 },
        { header: t('tax'), key: 'tax', width: 10 },
        { header: t('total'), key: 'total', width: 12 },
        { header: t('currency'), key: 'currency', width: 10 },
      ],
      rows: rows.map((r) => ({
        policy_number: r.policy?.policy_number ?? '',
        first_name: r.policy?.first_name ?? '',
        last_name: r.policy?.last_name ?? '',
        type: r.policy ? translate(lang, `checkout.types.${r.policy.type}`) : '',
        date_of_birth: r.policy?.date_of_birth ?? '',
        email: r.policy?.email ?? '',
        start_date: r.policy?.start_date ?? '',
        end_date: r.policy?.end_date ?? '',
        product: r.policy?.product ?? '',
        campus: r.policy?.campus ?? '',
        status: r.policy ? translate(lang, `checkout.policy_status.${r.policy.status}`) : '',
        premium: money(r.unit_minor),
        tax: money(r.tax_minor),
        total: money(r.total_minor),
        currency: invoice.currency,
      })),
    },
    {
      name: t('invoice_sheet'),
      columns: [
        { header: t('field'), key: 'field', width: 24 },
        { header: t('value'), key: 'value', width: 36 },
      ],
      rows: [
        { field: t('invoice_number'), value: invoice.number },
        { field: t('client'), value: invoice.client.name },
        { field: t('campus'), value: invoice.campus?.name ?? '' },
        { field: t('date'), value: invoice.date },
        { field: t('due_at'), value: invoice.due_at },
        { field: t('status'), value: translate(lang, `checkout.invoice_status.${invoice.status}`) },
        { field: t('payment_method'), value: translate(lang, `checkout.methods.${invoice.payment_method}`) },
        { field: t('payment_reference'), value: invoice.payment_reference },
        { field: t('policy_count'), value: invoice.policy_count },
        { field: t('insurance_cost'), value: invoice.insurance_cost },
        { field: t('tax'), value: invoice.tax },
        { field: t('total'), value: invoice.total },
        { field: t('currency'), value: invoice.currency },
      ],
    },
  ]);
  return { filename: `${invoice.number}.xlsx`, body };
}

/** The policy batches an invoice confirmed: campus, product, how many policies, welcome-email choice. */
export async function invoiceBatches(ctx: ActorCtx, id: string) {
  const row = await findVisibleInvoice(ctx, id);
  const rows = await ctx.db
    .select({
      id: policyBatches.public_id,
      campus: sql<string>`${campuses.name}`.as('campus_name'),
      product: sql<string>`${products.name}`.as('product_name'),
      send_welcome_email: policyBatches.send_welcome_email,
      confirmed_at: policyBatches.confirmed_at,
      policies:
        sql<number>`(SELECT count(*) FROM ${policies} WHERE ${policies.batch_id} = ${policyBatches.id})`.as(
          'policy_count',
        ),
    })
    .from(policyBatches)
    .innerJoin(campuses, eq(campuses.id, policyBatches.campus_id))
    .innerJoin(contracts, eq(contracts.id, policyBatches.contract_id))
    .innerJoin(products, eq(products.id, contracts.product_id))
    .where(eq(policyBatches.invoice_id, row.invoice.id))
    .orderBy(asc(policyBatches.id));
  return rows.map((r) => ({ ...r, policies: Number(r.policies) }));
}

/** Who may download or view the confirmation: same as the invoice. */
export { findVisibleInvoice };

// ---------------------------------------------------------------- a client's and a campus's invoices

/** GET clients/{id}/invoices: the list filtered to a client the actor may see (NotFound otherwise). */
export async function clientInvoices(ctx: ActorCtx, clientId: string, q: InvoiceListQuery) {
  const client = await findClient(ctx, clientId, INVOICE_ACCESS);
  return listInvoices(ctx, { ...q, client_id: client.public_id });
}

/** GET campuses/{id}/invoices: the list filtered to a campus the actor may see (NotFound otherwise). */
export async function campusInvoices(ctx: ActorCtx, campusId: string, q: InvoiceListQuery) {
  const { campus } = await findCampus(ctx, campusId, INVOICE_ACCESS);
  return listInvoices(ctx, { ...q, campus_id: campus.public_id });
}

/** The invoice, when it is the client's (or the campus's): NotFound otherwise. */
export async function requireInvoiceOf(
  ctx: ActorCtx,
  owner: { client?: string; campus?: string },
  invoiceId: string,
): Promise<JoinedInvoice> {
  const row = await findVisibleInvoice(ctx, invoiceId);
  if (owner.client) {
    const client = await findClient(ctx, owner.client, INVOICE_ACCESS);
    if (row.invoice.client_id !== client.id) throw new NotFound(msg('checkout.errors.invoice_not_found'));
  }
  if (owner.campus) {
    const { campus } = await findCampus(ctx, owner.campus, INVOICE_ACCESS);
    if (row.invoice.campus_id !== campus.id) throw new NotFound(msg('checkout.errors.invoice_not_found'));
  }
  return row;
}

/** The choices of the list's filters: the currencies and (for staff) the clients of the visible invoices. */
export async function invoiceFilterOptions(ctx: ActorCtx) {
  requirePermission(ctx.actor, INVOICE_ACCESS);
  const scope = visibleInvoices(ctx.actor);
  const [currencies, clientRows] = await Promise.all([
    ctx.db
      .selectDistinct({ currency: invoices.currency })
      .from(invoices)
      .where(scope)
      .orderBy(invoices.currency),
    ctx.actor.user_type === 'company'
      ? ctx.db
          .selectDistinct({ id: clients.public_id, name: clients.name })
          .from(invoices)
          .innerJoin(clients, eq(clients.id, invoices.client_id))
          .where(scope)
          .orderBy(clients.name)
          .limit(500)
      : Promise.resolve([] as { id: string; name: string }[]),
  ]);
  return { currencies: currencies.map((c) => c.currency), clients: clientRows };
}
