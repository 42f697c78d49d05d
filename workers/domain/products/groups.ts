/**
 * Product groups (spec 001 s.3): a named set of products of one company, with a scheme, a type and a
 * description of up to 1000 characters. The catalogue has no calls for them; ours are listed in
 * workers/api/products.ts.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import { companies, productGroupProducts, productGroups, products } from '../../../drizzle/schema';
import { bulkInsert, idByPublicId, inJson, runBatch } from '../../platform/db';
import { publicId } from '../../platform/crypto';
import { requirePermission } from '../access/actor';
import { companyScope } from '../access/scope';
import { logActivity } from '../audit/activity-log';
import type { ActorCtx } from '../context';
import { NotFound, ValidationFailed } from '../errors';
import { likeAny, orderBy, paginate, type ListQuery, type Page } from '../lists';
import { msg } from '../validation';
import { activityFeed } from '../activity/feed';
import type { ProductGroupInput } from './schema';
import { companyForNew } from './service';

type GroupRow = typeof productGroups.$inferSelect;

export interface ProductGroupListItem {
  id: string;
  name: string;
  scheme: string | null;
  type: string | null;
  status: string;
  company: { id: string; name: string };
  products_count: number;
  created_at: string;
}

async function findGroup(ctx: ActorCtx, id: string): Promise<GroupRow> {
  const [row] = await ctx.db
    .select()
    .from(productGroups)
    .where(and(eq(productGroups.public_id, id), companyScope(ctx.actor, productGroups.company_id)))
    .limit(1);
  if (!row) throw new NotFound();
  return row;
}

const SORTABLE = {
  name: productGroups.name,
  scheme: productGroups.scheme,
  type: productGroups.type,
  created_at: productGroups.created_at,
};

/** The product groups of the actor's companies, one page. */
export async function listProductGroups(
  ctx: ActorCtx,
  query: ListQuery,
): Promise<Page<ProductGroupListItem>> {
  requirePermission(ctx.actor, 'read_product_group');
  const where = and(
    companyScope(ctx.actor, productGroups.company_id),
    likeAny([productGroups.name, productGroups.scheme, productGroups.type], query.search),
  );
  const page = await paginate<{
    id: string;
    name: string;
    scheme: string | null;
    type: string | null;
    status: string;
    company_id: string;
    company_name: string;
    products_count: number;
    created_at: Date;
  }>(ctx.db, query, {
    rows: (limit, offset) =>
      ctx.db
        .select({
          id: productGroups.public_id,
          name: productGroups.name,
          scheme: productGroups.scheme,
          type: productGroups.type,
          status: productGroups.status,
          // Joined columns get their own names: D1 answers a batch as objects keyed by name.
          company_id: sql<string>`${companies.public_id}`.as('company_public_id'),
          company_name: sql<string>`${companies.name}`.as('company_name'),
          products_count: sql<number>`(select count(*) from ${productGroupProducts} where ${productGroupProducts.group_id} = ${productGroups.id})`,
          created_at: productGroups.created_at,
        })
        .from(productGroups)
        .innerJoin(companies, eq(companies.id, productGroups.company_id))
        .where(where)
        .orderBy(...orderBy(query.order, SORTABLE, 'name_asc', productGroups.id))
        .limit(limit)
        .offset(offset),
    count: ctx.db
      .select({ total: sql<number>`count(*)` })
      .from(productGroups)
      .where(where),
  });
  return {
    items: page.items.map((r) => ({
      id: r.id,
      name: r.name,
      scheme: r.scheme,
      type: r.type,
      status: r.status,
      company: { id: r.company_id, name: r.company_name },
      products_count: Number(r.products_count),
      created_at: r.created_at.toISOString(),
    })),
    meta: page.meta,
  };
}

async function groupView(ctx: ActorCtx, row: GroupRow) {
  const [[company], members] = await ctx.db.batch([
    ctx.db
      .select({ id: companies.public_id, name: companies.name })
      .from(companies)
      .where(eq(companies.id, row.company_id)),
    ctx.db
      .select({ id: products.public_id, code: products.code, name: products.name, status: products.status })
      .from(productGroupProducts)
      .innerJoin(products, eq(products.id, productGroupProducts.product_id))
      .where(eq(productGroupProducts.group_id, row.id))
      .orderBy(asc(products.name)),
  ]);
  return {
    id: row.public_id,
    name: row.name,
    scheme: row.scheme,
    type: row.type,
    description: row.description,
    status: row.status,
    company,
    products: members,
    product_ids: members.map((m) => m.id),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
export type ProductGroupView = Awaited<ReturnType<typeof groupView>>;

/** One product group with its products. */
export async function getProductGroup(ctx: ActorCtx, id: string): Promise<ProductGroupView> {
  requirePermission(ctx.actor, 'read_product_group');
  return groupView(ctx, await findGroup(ctx, id));
}

/** The products a group of the company may hold (every product of it, active first). */
export async function groupProductOptions(ctx: ActorCtx) {
  requirePermission(ctx.actor, 'read_product_group');
  const rows = await ctx.db
    .select({
      id: products.public_id,
      code: products.code,
      name: products.name,
      status: products.status,
      company_id: companies.public_id,
    })
    .from(products)
    .innerJoin(companies, eq(companies.id, products.company_id))
    .where(companyScope(ctx.actor, products.company_id))
    .orderBy(asc(products.status), asc(products.name))
    .limit(2000);
  return rows;
}

/** The internal ids of the named products, all of which must belong to the group's company. */
async function memberIds(ctx: ActorCtx, companyId: number, ids: string[] | undefined): Promise<number[]> {
  const wanted = [...new Set(ids ?? [])];
  if (!wanted.length) return [];
  const rows = await ctx.db
    .select({ id: products.id })
    .from(products)
    .where(and(inJson(products.public_id, wanted), eq(products.company_id, companyId)));
  if (rows.length !== wanted.length)
    throw ValidationFailed.field('product_ids', msg('products.errors.group_product_unknown'));
  return rows.map((r) => r.id);
}

function groupValues(input: ProductGroupInput) {
  return {
    name: input.name,
    scheme: input.scheme ?? null,
    type: input.type ?? null,
    description: input.description ?? null,
  };
}

const storedValues = (r: GroupRow) => ({
  name: r.name,
  scheme: r.scheme,
  type: r.type,
  description: r.description,
});

/** Creates a product group in the company named (or the one in view). */
export async function createProductGroup(ctx: ActorCtx, input: ProductGroupInput): Promise<ProductGroupView> {
  requirePermission(ctx.actor, 'create_product_group');
  const company = await companyForNew(ctx, input.company_id);
  const members = await memberIds(ctx, company.id, input.product_ids);
  const id = publicId();
  const values = groupValues(input);
  const groupId = idByPublicId(productGroups, id);
  await runBatch(ctx.db, [
    ctx.db.insert(productGroups).values({
      ...values,
      public_id: id,
      company_id: company.id,
      created_at: ctx.now,
      updated_at: ctx.now,
    }),
    ...bulkInsert(
      ctx.db,
      productGroupProducts,
      members.map((product_id) => ({ group_id: groupId, product_id })),
    ),
    logActivity(ctx, {
      entity_type: 'product_group',
      entity_id: groupId,
      action: 'created',
      after: { ...values, product_ids: input.product_ids ?? [] },
      company_id: company.id,
    }),
  ]);
  return getProductGroup(ctx, id);
}

/** Changes a group's details and replaces its products with the ones named. */
export async function updateProductGroup(
  ctx: ActorCtx,
  id: string,
  input: ProductGroupInput,
): Promise<ProductGroupView> {
  requirePermission(ctx.actor, 'update_product_group');
  const before = await findGroup(ctx, id);
  const previous = await groupView(ctx, before);
  const members = await memberIds(ctx, before.company_id, input.product_ids);
  const values = groupValues(input);
  await runBatch(ctx.db, [
    ctx.db
      .update(productGroups)
      .set({ ...values, updated_at: ctx.now })
      .where(eq(productGroups.id, before.id)),
    ctx.db.delete(productGroupProducts).where(eq(productGroupProducts.group_id, before.id)),
    ...bulkInsert(
      ctx.db,
      productGroupProducts,
      members.map((product_id) => ({ group_id: before.id, product_id })),
    ),
    logActivity(ctx, {
      entity_type: 'product_group',
      entity_id: before.id,
      action: 'updated',
      before: { ...storedValues(before), product_ids: previous.product_ids },
      after: { ...values, product_ids: [...new Set(input.product_ids ?? [])] },
      company_id: before.company_id,
    }),
  ]);
  return getProductGroup(ctx, id);
}

/** Deletes a group (its products stay). */
export async function deleteProductGroup(ctx: ActorCtx, id: string): Promise<void> {
  requirePermission(ctx.actor, 'delete_product_group');
  const before = await findGroup(ctx, id);
  await runBatch(ctx.db, [
    ctx.db.delete(productGroups).where(eq(productGroups.id, before.id)),
    logActivity(ctx, {
      entity_type: 'product_group',
      entity_id: before.id,
      action: 'deleted',
      before: storedValues(before),
      company_id: before.company_id,
    }),
  ]);
}

/** The group's logs. */
export async function productGroupActivities(
  ctx: ActorCtx,
  id: string,
  query: Pick<ListQuery, 'page' | 'items'>,
) {
  requirePermission(ctx.actor, 'read_product_group');
  const group = await findGroup(ctx, id);
  return activityFeed(ctx.db, 'product_group', group.id, query.page, Math.min(query.items, 100));
}
