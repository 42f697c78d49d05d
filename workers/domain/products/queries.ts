/**
 * Reads shared by the product services: finding a product within the actor's scope, the companies and
 * insurers a product may belong to, and money in major units.
 */
import { and, eq, sql } from 'drizzle-orm';
import { companies, countries, insurers, products } from '../../../drizzle/schema';
import type { DB } from '../../platform/db';
import type { Actor } from '../access/actor';
import { companyScope, visibleCompanyIds } from '../access/scope';
import type { ActorCtx } from '../context';
import { NotFound } from '../errors';

export type ProductRow = typeof products.$inferSelect;

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
    .where(companyScope(actor, companies.id))
    .orderBy(companies.name);
}

/** Insurers of the companies in view (read here directly: the insurers area owns their management). */
export async function insurersOf(db: DB, actor: Actor) {
  return db
    .select({
      id: insurers.id,
      public_id: insurers.public_id,
      company_id: insurers.company_id,
      name: insurers.name,
      status: insurers.status,
    })
    .from(insurers)
    .where(companyScope(actor, insurers.company_id))
    .orderBy(insurers.name);
}
