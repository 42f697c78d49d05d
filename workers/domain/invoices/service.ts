/**
 * Invoices (spec 001 s.3 "Invoice and payment transaction"; spec 002 s.7 "Invoices and payments"): the
 * list, one invoice with its policies (25 per page), the invoices made by the same checkout, and the
 * downloadable summary of what was bought (an .xlsx named by the invoice number).
 *
 * Scope and permissions are in queries.ts. The full invoice screens (billing, refunds, credit memos)
 * come with the accounting issue; this is what ordering needs.
 */
import { and, asc, eq, gte, lte, sql } from 'drizzle-orm';
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
import { translate } from '../../platform/i18n';
import { requirePermission } from '../access/actor';
import { visibleInvoices } from '../access/scope';
import type { ActorCtx } from '../context';
import { countAll, likeAny, orderBy, paginate, meta, type Page } from '../lists';
import { policyStatus } from '../policies/status';
import { todayIso } from '../validation';
import {
  findVisibleInvoice,
  INVOICE_ACCESS,
  joinedInvoices,
  presentInvoice,
  invoicesOfCheckout,
  type InvoiceView,
  type JoinedInvoice,
} from './queries';
import type { InvoiceItemsQuery, InvoiceListQuery } from './schema';

const sortable = {
  number: invoices.number,
  date: invoices.date,
  due_at: invoices.due_at,
  status: invoices.status,
  total: invoices.total_minor,
  client: clients.name,
};

/** GET invoices: the invoices the actor may see, filtered, sorted and paged. */
export async function listInvoices(ctx: ActorCtx, q: InvoiceListQuery): Promise<Page<InvoiceView>> {
  requirePermission(ctx.actor, INVOICE_ACCESS);
  const where = and(
    visibleInvoices(ctx.actor),
    q.status && q.status !== 'all' ? eq(invoices.status, q.status) : undefined,
    q.client_id ? eq(clients.public_id, q.client_id) : undefined,
    q.campus_id ? eq(campuses.public_id, q.campus_id) : undefined,
    q.date_from ? gte(invoices.date, q.date_from) : undefined,
    q.date_to ? lte(invoices.date, q.date_to) : undefined,
    likeAny([invoices.number, invoices.payment_reference, clients.name], q.search),
  );
  const page = await paginate<JoinedInvoice>(ctx.db, q, {
    rows: (limit, offset) =>
      joinedInvoices(ctx)
        .where(where)
        .orderBy(...orderBy(q.order, sortable, 'date_desc', invoices.id))
        .limit(limit)
        .offset(offset),
    count: ctx.db
      .select({ total: countAll })
      .from(invoices)
      .innerJoin(clients, eq(clients.id, invoices.client_id))
      .innerJoin(companies, eq(companies.id, invoices.company_id))
      .leftJoin(campuses, eq(campuses.id, invoices.campus_id))
      .where(where),
  });
  return { items: page.items.map(presentInvoice), meta: page.meta };
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
    total: r.item.total_minor / 100,
    unit_minor: r.item.unit_minor,
    tax_minor: r.item.tax_minor,
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
  // Not one db.batch: batched rows are keyed by column name, and an item and its policy share names.
  const [items, [counted]] = await Promise.all([
    itemRows(ctx, row.invoice.id)
      .limit(q.items)
      .offset((q.page - 1) * q.items),
    ctx.db.select({ total: countAll }).from(invoiceItems).where(eq(invoiceItems.invoice_id, row.invoice.id)),
  ]);
  return {
    ...presentInvoice(row),
    items: items.map((r) => presentItem(r, today)),
    meta: meta(Number(counted?.total ?? 0), q.page, q.items, items.length),
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
