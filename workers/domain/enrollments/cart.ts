/**
 * The cart (spec 001 s.3-4 "Cart", spec 002 s.7 and s.9): the open policy batches the user put there,
 * per campus and contract, with their enrollments 500 a page, an overview and a summary with totals per
 * currency, the item count of the top bar's badge, and when the cart is cleared (checkout/clear.ts).
 *
 * A user's cart is the open batches they created (`created_by`, status `open`) on campuses they can
 * still see; checkout confirms exactly these (cartScope).
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import { campuses, clients, contracts, enrollments, policyBatches, products } from '../../../drizzle/schema';
import { canAny, requirePermission } from '../access/actor';
import { findCampus } from '../access/finders';
import { cartClearTime } from '../checkout/clear';
import type { ActorCtx } from '../context';
import { CART_PAGE_SIZE } from './schema';
import { deleteEnrollments } from './service';
import { READ_ORDER_PERMISSION, cartScope, listEnrollments, money } from './queries';

export { cartScope };

/** Who sees the cart: the cart icon needs read_insured (spec 000 s.6); those who order see it too. */
export const CART_PERMISSION = READ_ORDER_PERMISSION;

/**
 * The number of enrollments in the actor's cart: the badge of the top bar. One counting query over the
 * batches index (created_by, status) and the enrollments index (batch_id, position).
 */
export async function cartCount(ctx: ActorCtx): Promise<number> {
  if (!canAny(ctx.actor, CART_PERMISSION)) return 0;
  const [row] = await ctx.db
    .select({ n: sql<number>`count(*)` })
    .from(policyBatches)
    .innerJoin(enrollments, eq(enrollments.batch_id, policyBatches.id))
    .innerJoin(campuses, eq(campuses.id, policyBatches.campus_id))
    .innerJoin(clients, eq(clients.id, campuses.client_id))
    .where(cartScope(ctx));
  return Number(row?.n ?? 0);
}

/** The cart's batches: campus, product, how many applicants and their fees. */
export async function cartBatches(ctx: ActorCtx, opts: { campusId?: string } = {}) {
  requirePermission(ctx.actor, CART_PERMISSION);
  const campus = opts.campusId ? (await findCampus(ctx, opts.campusId, CART_PERMISSION)).campus : null;
  const rows = await ctx.db
    .select({
      id: policyBatches.public_id,
      opened_at: policyBatches.opened_at,
      send_welcome_email: policyBatches.send_welcome_email,
      campus_id: sql<string>`${campuses.public_id}`.as('campus_public_id'),
      campus_name: sql<string>`${campuses.name}`.as('campus_name'),
      client_id: sql<string>`${clients.public_id}`.as('client_public_id'),
      client_name: sql<string>`${clients.name}`.as('client_name'),
      contract_id: sql<string>`${contracts.public_id}`.as('contract_public_id'),
      currency: contracts.currency,
      product_name: sql<string>`${products.name}`.as('product_name'),
      product_code: products.code,
      count: sql<number>`count(${enrollments.id})`.as('applicants'),
      with_errors:
        sql<number>`coalesce(sum(case when ${enrollments.error_count} > 0 then 1 else 0 end), 0)`.as(
          'with_errors',
        ),
      premium_minor: sql<number>`coalesce(sum(${enrollments.fee_minor}), 0)`.as('premium_minor'),
      tax_minor: sql<number>`coalesce(sum(${enrollments.tax_minor}), 0)`.as('tax_minor'),
      stamp_duty_minor: sql<number>`coalesce(sum(${enrollments.stamp_duty_minor}), 0)`.as('stamp_duty_minor'),
    })
    .from(policyBatches)
    .innerJoin(campuses, eq(campuses.id, policyBatches.campus_id))
    .innerJoin(clients, eq(clients.id, campuses.client_id))
    .innerJoin(contracts, eq(contracts.id, policyBatches.contract_id))
    .innerJoin(products, eq(products.id, contracts.product_id))
    .leftJoin(enrollments, eq(enrollments.batch_id, policyBatches.id))
    .where(and(cartScope(ctx), campus ? eq(policyBatches.campus_id, campus.id) : undefined))
    .groupBy(policyBatches.id)
    .orderBy(asc(campuses.name), asc(policyBatches.opened_at), asc(policyBatches.id));
  return rows.map((r) => ({
    id: r.id,
    opened_at: r.opened_at,
    send_welcome_email: r.send_welcome_email,
    campus: { id: r.campus_id, name: r.campus_name },
    client: { id: r.client_id, name: r.client_name },
    contract_id: r.contract_id,
    product: { name: r.product_name, code: r.product_code },
    count: Number(r.count),
    with_errors: Number(r.with_errors),
    fees: money(Number(r.premium_minor), Number(r.tax_minor), r.currency, Number(r.stamp_duty_minor)),
  }));
}
export type CartBatch = Awaited<ReturnType<typeof cartBatches>>[number];

/** The cart's summary: applicants, batches and the totals per currency. */
export function cartSummary(batches: readonly CartBatch[]) {
  const byCurrency = new Map<
    string,
    { premium_minor: number; tax_minor: number; stamp_duty_minor: number }
  >();
  for (const b of batches) {
    const t = byCurrency.get(b.fees.currency) ?? { premium_minor: 0, tax_minor: 0, stamp_duty_minor: 0 };
    t.premium_minor += b.fees.premium_minor;
    t.tax_minor += b.fees.tax_minor;
    t.stamp_duty_minor += b.fees.stamp_duty_minor;
    byCurrency.set(b.fees.currency, t);
  }
  return {
    count: batches.reduce((n, b) => n + b.count, 0),
    with_errors: batches.reduce((n, b) => n + b.with_errors, 0),
    batches: batches.length,
    totals: [...byCurrency.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([currency, t]) => money(t.premium_minor, t.tax_minor, currency, t.stamp_duty_minor)),
  };
}

/** policy-batches/overview-open-batches (and campuses/{id}/overview-open-batches): batches and summary. */
export async function cartOverview(ctx: ActorCtx, opts: { campusId?: string } = {}) {
  const batches = await cartBatches(ctx, opts);
  return { batches, summary: cartSummary(batches), clearing: await cartClearTime(ctx.db, ctx.now) };
}

/** The cart's enrollments across its batches (or one of them), 500 a page in order. */
export async function cartEnrollments(
  ctx: ActorCtx,
  q: { page: number; items?: number; policy_batch?: string },
) {
  requirePermission(ctx.actor, CART_PERMISSION);
  return listEnrollments(ctx, {
    page: q.page,
    items: q.items ?? CART_PAGE_SIZE,
    policy_batch: q.policy_batch,
  });
}

/** Deletes selected enrollments of the cart (a batch left empty goes too). */
export const deleteCartEnrollments = deleteEnrollments;
