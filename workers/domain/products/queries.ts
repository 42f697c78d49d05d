/**
 * Reads shared by the product services: finding a product within the actor's scope, the companies and
 * insurers a product may belong to, money in major units, and an entity's activity log.
 */
import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { activityLogs, companies, countries, insurers, products, users } from '../../../drizzle/schema';
import type { DB } from '../../platform/db';
import type { Actor } from '../access/actor';
import { companyScope, visibleCompanyIds } from '../access/scope';
import type { ActorCtx } from '../context';
import { NotFound } from '../errors';
import { meta, type ListQuery, type Page } from '../lists';

export type ProductRow = typeof products.$inferSelect;

/** Integer minor units as a number of major units (1250 → 12.5). */
export function major(minor: number | null | undefined): number | null {
  return minor == null ? null : minor / 100;
}

/**
 * The id of a row written earlier in the same batch, found by its public id. Lets a new row and its
 * activity-log row go into one batch (one transaction) although the log needs the new row's id.
 */
export function idByPublicId(
  table: SQLiteTable & { id: SQLiteColumn; public_id: SQLiteColumn },
  publicId: string,
) {
  return sql`(select ${table.id} from ${table} where ${table.public_id} = ${publicId})` as unknown as number;
}

/** A product of the actor's visible companies, by its public id; another tenant's id is "not found". */
export async function findProduct(ctx: ActorCtx, publicId: string): Promise<ProductRow> {
  const [row] = await ctx.db
    .select()
    .from(products)
    .where(and(eq(products.public_id, publicId), companyScope(ctx.actor, products.company_id)))
    .limit(1);
  if (!row) throw new NotFound();
  return row;
}

/** The companies the actor is looking at (the top-bar choice), for forms and the company of a new row. */
export async function visibleCompanies(db: DB, actor: Actor) {
  const ids = visibleCompanyIds(actor);
  if (!ids.length) return [];
  return db
    .select({
      id: companies.id,
      public_id: companies.public_id,
      name: companies.name,
      currency: companies.currency,
      status: companies.status,
      country_name: sql<string | null>`${countries.name}`.as('country_name'),
    })
    .from(companies)
    .leftJoin(countries, eq(countries.id, companies.country_id))
    .where(inArray(companies.id, ids))
    .orderBy(companies.name);
}

/** Insurers of the given companies (read here directly: the insurers area owns their management). */
export async function insurersOf(db: DB, companyIds: number[]) {
  if (!companyIds.length) return [];
  return db
    .select({
      id: insurers.id,
      public_id: insurers.public_id,
      company_id: insurers.company_id,
      name: insurers.name,
      status: insurers.status,
    })
    .from(insurers)
    .where(inArray(insurers.company_id, companyIds))
    .orderBy(insurers.name);
}

export interface ActivityItem {
  id: number;
  action: string;
  actor: { id: string; name: string } | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  created_at: string;
}

/** One entity's activity log, newest first, with who did it. Callers check the entity is visible first. */
export async function activityPage(
  db: DB,
  entityType: string,
  entityId: number,
  query: Pick<ListQuery, 'page' | 'items'>,
): Promise<Page<ActivityItem>> {
  const where: SQL = and(eq(activityLogs.entity_type, entityType), eq(activityLogs.entity_id, entityId))!;
  const perPage = Math.min(query.items, 100);
  const [rows, [{ total }]] = await db.batch([
    db
      .select({
        id: activityLogs.id,
        action: activityLogs.action,
        before: activityLogs.before,
        after: activityLogs.after,
        created_at: activityLogs.created_at,
        actor_id: users.public_id,
        first_name: users.first_name,
        last_name: users.last_name,
      })
      .from(activityLogs)
      .leftJoin(users, eq(users.id, activityLogs.actor_user_id))
      .where(where)
      .orderBy(desc(activityLogs.created_at), desc(activityLogs.id))
      .limit(perPage)
      .offset((query.page - 1) * perPage),
    db
      .select({ total: sql<number>`count(*)` })
      .from(activityLogs)
      .where(where),
  ]);
  const items = rows.map((r) => ({
    id: r.id,
    action: r.action,
    actor: r.actor_id ? { id: r.actor_id, name: `${r.first_name ?? ''} ${r.last_name ?? ''}`.trim() } : null,
    before: r.before,
    after: r.after,
    created_at: r.created_at.toISOString(),
  }));
  return { items, meta: meta(Number(total), query.page, perPage, items.length) };
}
