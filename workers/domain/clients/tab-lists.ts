/** The lists of one client's tabs: campuses, service agreements (its users: users/service.ts listClientUsers), and who may request. (Which tabs a user gets: tabs.ts.) */
import { and, asc, eq, sql } from 'drizzle-orm';
import {
  campuses,
  contracts,
  countries,
  insurers,
  serviceAgreementRows,
  serviceAgreements,
  userCompanies,
  users,
} from '../../../drizzle/schema';
import { requirePermission } from '../access/actor';
import type { ActorCtx } from '../context';
import { countAll, likeAny, listQuerySchema, orderBy, paginate, type ListQuery } from '../lists';
import { findClient } from '../access/finders';

/** GET clients/{id}/campuses: the client's campuses (the campus pages belong to the campuses area). */
export async function listClientCampuses(ctx: ActorCtx, id: string, query: Partial<ListQuery> = {}) {
  const client = await findClient(ctx, id, 'read_client');
  const q = listQuerySchema.parse(query);
  const where = and(eq(campuses.client_id, client.id), likeAny([campuses.name], q.search));
  const contractCount = sql<number>`(select count(*) from ${contracts} where ${contracts.campus_id} = ${campuses.id} and ${contracts.status} = 'active')`;
  const page = await paginate<{
    id: string;
    name: string;
    status: 'active' | 'archived';
    country: string | null;
    contracts: number;
    created_at: Date;
  }>(ctx.db, q, {
    rows: (limit, offset) =>
      ctx.db
        .select({
          id: campuses.public_id,
          name: sql<string>`${campuses.name}`.as('campus_name'),
          status: campuses.status,
          country: sql<string | null>`${countries.name}`.as('country_name'),
          contracts: contractCount.as('contract_count'),
          created_at: campuses.created_at,
        })
        .from(campuses)
        .leftJoin(countries, eq(countries.id, campuses.country_id))
        .where(where)
        .orderBy(
          ...orderBy(
            q.order,
            { name: campuses.name, status: campuses.status, created_at: campuses.created_at },
            'name_asc',
            campuses.id,
          ),
        )
        .limit(limit)
        .offset(offset),
    count: ctx.db.select({ total: countAll }).from(campuses).where(where),
  });
  return {
    meta: page.meta,
    items: page.items.map((c) => ({
      ...c,
      contracts: Number(c.contracts),
      created_at: new Date(c.created_at).toISOString(),
    })),
  };
}

/**
 * The client's service agreements (its tab). A valid agreement is one whose start date falls in the
 * current calendar year (spec 001 s.3); the create and edit pages belong to the service-agreements area.
 */
export async function listClientAgreements(ctx: ActorCtx, id: string, query: Partial<ListQuery> = {}) {
  requirePermission(ctx.actor, 'read_client');
  const client = await findClient(ctx, id, 'read_service_agreement');
  const q = listQuerySchema.parse(query);
  const where = and(eq(serviceAgreements.client_id, client.id), likeAny([serviceAgreements.name], q.search));
  const rowCount = sql<number>`(select count(*) from ${serviceAgreementRows} where ${serviceAgreementRows.service_agreement_id} = ${serviceAgreements.id})`;
  const contractCount = sql<number>`(select count(*) from ${contracts} where ${contracts.service_agreement_id} = ${serviceAgreements.id})`;
  const page = await paginate<{
    id: string;
    name: string;
    insurer: string | null;
    start_date: string;
    end_date: string | null;
    status: string;
    products: number;
    contracts: number;
  }>(ctx.db, q, {
    rows: (limit, offset) =>
      ctx.db
        .select({
          id: serviceAgreements.public_id,
          name: sql<string>`${serviceAgreements.name}`.as('agreement_name'),
          insurer: sql<string | null>`${insurers.name}`.as('insurer_name'),
          start_date: serviceAgreements.start_date,
          end_date: serviceAgreements.end_date,
          status: serviceAgreements.status,
          products: rowCount.as('product_count'),
          contracts: contractCount.as('contract_count'),
        })
        .from(serviceAgreements)
        .leftJoin(insurers, eq(insurers.id, serviceAgreements.insurer_id))
        .where(where)
        .orderBy(
          ...orderBy(
            q.order,
            {
              name: serviceAgreements.name,
              start_date: serviceAgreements.start_date,
              status: serviceAgreements.status,
            },
            'start_date_desc',
            serviceAgreements.id,
          ),
        )
        .limit(limit)
        .offset(offset),
    count: ctx.db.select({ total: countAll }).from(serviceAgreements).where(where),
  });
  const year = String(ctx.now.getUTCFullYear());
  return {
    meta: page.meta,
    items: page.items.map((a) => ({
      ...a,
      products: Number(a.products),
      contracts: Number(a.contracts),
      valid: a.start_date.slice(0, 4) === year,
    })),
  };
}

/** Names of the people who may request a note on this client, per requester type (the notes form). */
export async function clientRequesters(ctx: ActorCtx, clientId: number, companyId: number) {
  const [school, company] = await ctx.db.batch([
    ctx.db
      .select({ first_name: users.first_name, last_name: users.last_name })
      .from(users)
      .where(and(eq(users.client_id, clientId), eq(users.user_type, 'school'), eq(users.status, 'active')))
      .orderBy(asc(users.first_name))
      .limit(200),
    ctx.db
      .selectDistinct({ first_name: users.first_name, last_name: users.last_name })
      .from(users)
      .innerJoin(
        userCompanies,
        and(eq(userCompanies.user_id, users.id), eq(userCompanies.company_id, companyId)),
      )
      .where(and(eq(users.user_type, 'company'), eq(users.status, 'active')))
      .orderBy(asc(users.first_name))
      .limit(200),
  ]);
  const names = (rows: { first_name: string; last_name: string }[]) =>
    rows.map((r) => `${r.first_name} ${r.last_name}`).sort();
  return { school: names(school), company: names(company) };
}
