/**
 * The order page (spec 001 s.3): the clients, campuses and products a person may order for, starting a
 * one-by-one order, and the orders left unfinished.
 */
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { campuses, clients, contracts, imports, policyBatches, products } from '../../../drizzle/schema';
import { requirePermission } from '../access/actor';
import { findCampus, findOwnClient } from '../access/finders';
import { visibleCampus, visibleClients } from '../access/scope';
import type { ActorCtx } from '../context';
import type { AvailableContract } from '../contracts/service';
import { ValidationFailed } from '../errors';
import { activeImports } from '../imports/service';
import { ORDER_PERMISSION, createBatch, orderableContracts, type BatchRow } from './batches';

export interface OrderProduct {
  id: string;
  name: string;
  product_name: string;
  product_code: string;
  start_date: string;
  end_date: string | null;
  price: number;
  currency: string;
  min_days: number;
  in_cart: boolean;
}

const presentProduct = (c: AvailableContract): OrderProduct => ({
  id: c.id,
  name: c.name,
  product_name: c.product_name,
  product_code: c.product_code,
  start_date: c.start_date,
  end_date: c.end_date,
  price: c.custom_price ?? c.sale_price,
  currency: c.currency,
  min_days: c.min_days,
  in_cart: c.source === 'cart',
});

/**
 * What the order page offers: staff choose a client they can see (a school user's client is fixed), a
 * campus of that client in their scope, and a product available for that campus (its current contracts
 * and those of its batches in the cart). With no product: the spec's "No contract found" message.
 */
export async function orderChoices(ctx: ActorCtx, chosen: { client_id?: string; campus_id?: string }) {
  requirePermission(ctx.actor, ORDER_PERMISSION);
  const staff = ctx.actor.user_type === 'company';
  const clientRows = staff
    ? await ctx.db
        .select({ id: clients.public_id, internal: clients.id, name: clients.name })
        .from(clients)
        .where(and(eq(clients.status, 'active'), visibleClients(ctx.actor)))
        .orderBy(asc(clients.name))
        .limit(2000)
    : [];
  let client: { id: string; internal: number; name: string } | null = null;
  if (staff) {
    client = clientRows.find((c) => c.id === chosen.client_id) ?? null;
    // A remembered campus brings its client back with it.
    if (!client && !chosen.client_id && chosen.campus_id) {
      const [owner] = await ctx.db
        .select({ id: clients.id })
        .from(campuses)
        .innerJoin(clients, eq(clients.id, campuses.client_id))
        .where(and(eq(campuses.public_id, chosen.campus_id), visibleCampus(ctx.actor)))
        .limit(1);
      client = clientRows.find((c) => c.internal === owner?.id) ?? null;
    }
  } else if (ctx.actor.client_id) {
    const own = await findOwnClient(ctx, ORDER_PERMISSION);
    client = { id: own.public_id, internal: own.id, name: own.name };
  }
  const campusRows = client
    ? await ctx.db
        .select({ id: campuses.public_id, internal: campuses.id, name: campuses.name })
        .from(campuses)
        .innerJoin(clients, eq(clients.id, campuses.client_id))
        .where(
          and(
            eq(campuses.client_id, client.internal),
            eq(campuses.status, 'active'),
            visibleCampus(ctx.actor),
          ),
        )
        .orderBy(asc(campuses.name))
    : [];
  // A single campus is chosen for the user.
  const campus =
    campusRows.find((c) => c.id === chosen.campus_id) ?? (campusRows.length === 1 ? campusRows[0]! : null);
  let products: OrderProduct[] = [];
  let noContract: string | null = null;
  if (campus) {
    try {
      products = (await orderableContracts(ctx, campus.internal)).map(presentProduct);
    } catch (e) {
      if (!(e instanceof ValidationFailed)) throw e;
      noContract = e.message;
    }
  }
  const strip = <T extends { internal: number }>(r: T | null) => {
    if (!r) return null;
    const { internal: _, ...rest } = r;
    return rest;
  };
  return {
    staff,
    clients: clientRows.map((c) => strip(c)!),
    client: strip(client),
    campuses: campusRows.map((c) => strip(c)!),
    campus: strip(campus),
    products,
    no_contract: noContract,
  };
}
export type OrderChoices = Awaited<ReturnType<typeof orderChoices>>;

/**
 * "One by one": a draft batch for the campus and the product. An empty one-by-one draft the user left
 * for the same campus and product is taken up again rather than a second one made.
 */
export async function startSingleOrder(
  ctx: ActorCtx,
  input: { campus_id: string; contract_id: string },
): Promise<BatchRow> {
  const { campus } = await findCampus(ctx, input.campus_id, ORDER_PERMISSION);
  const [empty] = await ctx.db
    .select({ batch: policyBatches })
    .from(policyBatches)
    .innerJoin(contracts, eq(contracts.id, policyBatches.contract_id))
    .where(
      and(
        eq(policyBatches.created_by, ctx.actor.user_id),
        eq(policyBatches.status, 'draft'),
        eq(policyBatches.source, 'single'),
        eq(policyBatches.campus_id, campus.id),
        eq(contracts.public_id, input.contract_id),
        sql`NOT EXISTS (SELECT 1 FROM enrollments e WHERE e.batch_id = ${policyBatches.id})`,
      ),
    )
    .limit(1);
  if (empty) {
    // Still orderable? createBatch's check, without making a row.
    const available = await orderableContracts(ctx, campus.id);
    if (available.some((c) => c.id === input.contract_id)) return empty.batch;
  }
  return createBatch(ctx, { ...input, source: 'single' });
}

/**
 * The orders the user left unfinished: their draft batches (one by one or staged from a sheet) with how
 * many applicants each has, and their spreadsheet imports not staged yet (uploaded, being read or
 * failed; an import under review is one of the drafts).
 */
export async function unfinishedOrders(ctx: ActorCtx) {
  requirePermission(ctx.actor, ORDER_PERMISSION);
  const [drafts, pending] = await Promise.all([
    ctx.db
      .select({
        id: policyBatches.public_id,
        source: policyBatches.source,
        created_at: policyBatches.created_at,
        updated_at: policyBatches.updated_at,
        campus_id: sql<string>`${campuses.public_id}`.as('campus_public_id'),
        campus_name: sql<string>`${campuses.name}`.as('campus_name'),
        product_name: sql<string>`${products.name}`.as('product_name'),
        import_id: sql<string | null>`${imports.public_id}`.as('import_public_id'),
        count: sql<number>`(SELECT count(*) FROM enrollments e WHERE e.batch_id = ${policyBatches.id})`.as(
          'applicants',
        ),
        with_errors:
          sql<number>`(SELECT count(*) FROM enrollments e WHERE e.batch_id = ${policyBatches.id} AND e.error_count > 0)`.as(
            'with_errors',
          ),
      })
      .from(policyBatches)
      .innerJoin(campuses, eq(campuses.id, policyBatches.campus_id))
      .innerJoin(clients, eq(clients.id, campuses.client_id))
      .innerJoin(contracts, eq(contracts.id, policyBatches.contract_id))
      .innerJoin(products, eq(products.id, contracts.product_id))
      .leftJoin(imports, eq(imports.id, policyBatches.import_id))
      .where(
        and(
          eq(policyBatches.created_by, ctx.actor.user_id),
          eq(policyBatches.status, 'draft'),
          visibleCampus(ctx.actor),
        ),
      )
      .orderBy(desc(policyBatches.updated_at))
      .limit(50),
    activeImports(ctx, { statuses: ['uploaded', 'staging', 'failed'] }, 50),
  ]);
  return {
    drafts: drafts.map((d) => ({ ...d, count: Number(d.count), with_errors: Number(d.with_errors) })),
    imports: pending,
  };
}
