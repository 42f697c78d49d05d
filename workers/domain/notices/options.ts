/** The choices of the notice editor's audience: the records of the companies in view. */
import { and, asc, eq, sql } from 'drizzle-orm';
import { campuses, clients, countries, products } from '../../../drizzle/schema';
import { requirePermission } from '../access/actor';
import { companyScope, visibleClients } from '../access/scope';
import type { ActorCtx } from '../context';

/** At most this many of each kind are offered (the API takes any number). */
const OPTIONS_MAX = 2000;

export interface NoticeOptions {
  clients: { value: string; label: string }[];
  campuses: { value: string; label: string; client: string }[];
  products: { value: string; label: string }[];
  countries: { value: string; label: string }[];
}

export async function noticeOptions(ctx: ActorCtx): Promise<NoticeOptions> {
  requirePermission(ctx.actor, 'read_notice');
  const inView = visibleClients(ctx.actor);
  const [c, cp, p, co] = await ctx.db.batch([
    ctx.db
      .select({ value: clients.public_id, label: clients.name })
      .from(clients)
      .where(and(inView, eq(clients.status, 'active')))
      .orderBy(asc(clients.name))
      .limit(OPTIONS_MAX),
    ctx.db
      .select({
        value: campuses.public_id,
        label: campuses.name,
        // Aliased: D1 batches answer rows by column name, and both tables call theirs public_id.
        client: sql<string>`${clients.public_id}`.as('client_public_id'),
      })
      .from(campuses)
      .innerJoin(clients, eq(clients.id, campuses.client_id))
      .where(and(inView, eq(campuses.status, 'active')))
      .orderBy(asc(campuses.name))
      .limit(OPTIONS_MAX),
    ctx.db
      .select({ value: products.public_id, label: products.name })
      .from(products)
      .where(and(companyScope(ctx.actor, products.company_id), eq(products.status, 'active')))
      .orderBy(asc(products.name))
      .limit(OPTIONS_MAX),
    ctx.db
      .select({ value: countries.abbreviation, label: countries.name })
      .from(countries)
      .where(eq(countries.status, 'active'))
      .orderBy(asc(countries.name))
      .limit(OPTIONS_MAX),
  ]);
  return { clients: c, campuses: cp, products: p, countries: co };
}
