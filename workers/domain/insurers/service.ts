/**
 * Insurers (spec 001 s.3, catalogue: Insurers). Each insurer belongs to one company; every query is
 * limited to the companies the actor is looking at (top-bar selection), so another company's insurer
 * answers "not found". An insurer that a product or a service agreement uses cannot be deleted: it is
 * archived instead.
 */
import { and, eq, ne, sql, type SQL } from 'drizzle-orm';
import { companies, countries, insurers, products, serviceAgreements } from '../../../drizzle/schema';
import { publicId } from '../../platform/crypto';
import { runBatch } from '../../platform/db';
import { requirePermission } from '../access/actor';
import { companyScope, visibleCompanyIds } from '../access/scope';
import { activityFeed } from '../activity/feed';
import { logActivity } from '../audit/activity-log';
import type { ActorCtx } from '../context';
import { Conflict, NotFound, ValidationFailed } from '../errors';
import { countAll, likeAny, orderBy, paginate, type Page } from '../lists';
import { msg } from '../validation';
import type { InsurerInput, InsurerListQuery } from './schema';

type InsurerRow = typeof insurers.$inferSelect;

const columns = {
  id: insurers.public_id,
  name: insurers.name,
  code: insurers.code,
  email: insurers.email,
  phone_country: insurers.phone_country,
  phone_number: insurers.phone_number,
  website: insurers.website,
  status: insurers.status,
  // Aliased: D1 batches answer rows as objects, so two columns called "name" would collide.
  company_id: sql<string>`${companies.public_id}`.as('company_public_id'),
  company_name: sql<string>`${companies.name}`.as('company_name'),
  created_at: insurers.created_at,
  updated_at: insurers.updated_at,
};
export type InsurerView = {
  id: string;
  name: string;
  code: string | null;
  email: string | null;
  phone_country: string | null;
  phone_number: string | null;
  website: string | null;
  status: 'active' | 'archived';
  company_id: string;
  company_name: string;
  created_at: Date;
  updated_at: Date;
};

const sortable = {
  name: insurers.name,
  code: insurers.code,
  email: insurers.email,
  status: insurers.status,
  company: companies.name,
  created_at: insurers.created_at,
};

function listWhere(ctx: ActorCtx, q: InsurerListQuery): SQL | undefined {
  return and(
    companyScope(ctx.actor, insurers.company_id),
    q.status && q.status !== 'all' ? eq(insurers.status, q.status) : undefined,
    likeAny([insurers.name, insurers.code, insurers.email], q.search),
  );
}

function selectInsurers(ctx: ActorCtx) {
  return ctx.db.select(columns).from(insurers).innerJoin(companies, eq(companies.id, insurers.company_id));
}

/** insurers/list: the insurers of the companies in view, with filters, sorting and paging. */
export async function listInsurers(ctx: ActorCtx, q: InsurerListQuery): Promise<Page<InsurerView>> {
  requirePermission(ctx.actor, 'read_insurer');
  const where = listWhere(ctx, q);
  return paginate<InsurerView>(ctx.db, q, {
    rows: (limit, offset) =>
      selectInsurers(ctx)
        .where(where)
        .orderBy(...orderBy(q.order, sortable, 'name_asc', insurers.id))
        .limit(limit)
        .offset(offset),
    count: ctx.db.select({ total: countAll }).from(insurers).where(where),
  });
}

/** Every insurer matching the list's filters (the Excel export). */
export async function exportInsurers(ctx: ActorCtx, q: InsurerListQuery): Promise<InsurerView[]> {
  requirePermission(ctx.actor, 'read_insurer');
  return selectInsurers(ctx)
    .where(listWhere(ctx, q))
    .orderBy(...orderBy(q.order, sortable, 'name_asc', insurers.id))
    .limit(5000);
}

/** How many insurers are in view, active and archived. */
export async function insurersSummary(ctx: ActorCtx) {
  requirePermission(ctx.actor, 'read_insurer');
  const [row] = await ctx.db
    .select({
      total: sql<number>`count(*)`,
      active: sql<number>`coalesce(sum(case when ${insurers.status} = 'active' then 1 else 0 end), 0)`,
      archived: sql<number>`coalesce(sum(case when ${insurers.status} = 'archived' then 1 else 0 end), 0)`,
    })
    .from(insurers)
    .where(companyScope(ctx.actor, insurers.company_id));
  return { total: Number(row.total), active: Number(row.active), archived: Number(row.archived) };
}

/** The insurer row behind a public id, in the actor's scope; another company's insurer is not found. */
async function findInsurer(ctx: ActorCtx, id: string): Promise<InsurerRow> {
  const [row] = await ctx.db
    .select()
    .from(insurers)
    .where(and(eq(insurers.public_id, id), companyScope(ctx.actor, insurers.company_id)))
    .limit(1);
  if (!row) throw new NotFound(msg('insurers.errors.not_found'));
  return row;
}

/** One insurer. */
export async function getInsurer(ctx: ActorCtx, id: string): Promise<InsurerView> {
  requirePermission(ctx.actor, 'read_insurer');
  const row = await findInsurer(ctx, id);
  const [view] = await selectInsurers(ctx).where(eq(insurers.id, row.id)).limit(1);
  return view;
}

/** The insurer's logs: its changes, newest first. */
export async function insurerActivity(ctx: ActorCtx, id: string, page = 1) {
  requirePermission(ctx.actor, 'read_insurer');
  const row = await findInsurer(ctx, id);
  return activityFeed(ctx.db, 'insurer', row.id, page, 100);
}

/** The company a new insurer belongs to: the one given (if in view), else the top-bar company. */
async function targetCompany(ctx: ActorCtx, given: string | undefined): Promise<number> {
  const visible = visibleCompanyIds(ctx.actor);
  if (given) {
    const [row] = await ctx.db
      .select({ id: companies.id })
      .from(companies)
      .where(and(eq(companies.public_id, given), companyScope(ctx.actor, companies.id)))
      .limit(1);
    if (!row) throw ValidationFailed.field('company_id', msg('insurers.errors.company'));
    return row.id;
  }
  if (visible.length === 1) return visible[0];
  throw ValidationFailed.field('company_id', msg('insurers.errors.company'));
}

async function values(ctx: ActorCtx, input: InsurerInput, companyId: number, exceptId?: number) {
  const phoneCountry = input.phone_country?.toUpperCase() ?? null;
  const errors = [];
  if (phoneCountry) {
    const [known] = await ctx.db
      .select({ id: countries.id })
      .from(countries)
      .where(eq(countries.abbreviation, phoneCountry))
      .limit(1);
    if (!known) errors.push({ key: 'phone_country', message: msg('validation.phone_country') });
  }
  if (input.code) {
    const [clash] = await ctx.db
      .select({ id: insurers.id })
      .from(insurers)
      .where(
        and(
          eq(insurers.company_id, companyId),
          sql`lower(${insurers.code}) = lower(${input.code})`,
          exceptId ? ne(insurers.id, exceptId) : undefined,
        ),
      )
      .limit(1);
    if (clash) errors.push({ key: 'code', message: msg('insurers.errors.code_taken') });
  }
  if (errors.length) throw new ValidationFailed(errors);
  return {
    name: input.name,
    code: input.code ?? null,
    email: input.email ?? null,
    phone_country: phoneCountry,
    phone_number: input.phone_number ?? null,
    website: input.website ?? null,
  };
}

/** insurers/add. */
export async function createInsurer(ctx: ActorCtx, input: InsurerInput): Promise<InsurerView> {
  requirePermission(ctx.actor, 'create_insurer');
  const companyId = await targetCompany(ctx, input.company_id);
  const row = await values(ctx, input, companyId);
  const [created] = await ctx.db
    .insert(insurers)
    .values({
      ...row,
      public_id: publicId(),
      company_id: companyId,
      created_at: ctx.now,
      updated_at: ctx.now,
    })
    .returning();
  await runBatch(ctx.db, [
    logActivity(ctx, {
      entity_type: 'insurer',
      entity_id: created.id,
      action: 'created',
      after: row,
      company_id: companyId,
    }),
  ]);
  return getInsurer(ctx, created.public_id);
}

/** insurers/{id}/update. The company of an insurer does not change. */
export async function updateInsurer(ctx: ActorCtx, id: string, input: InsurerInput): Promise<InsurerView> {
  requirePermission(ctx.actor, 'update_insurer');
  const before = await findInsurer(ctx, id);
  const row = await values(ctx, input, before.company_id, before.id);
  await runBatch(ctx.db, [
    ctx.db
      .update(insurers)
      .set({ ...row, updated_at: ctx.now })
      .where(eq(insurers.id, before.id)),
    logActivity(ctx, {
      entity_type: 'insurer',
      entity_id: before.id,
      action: 'updated',
      before: {
        name: before.name,
        code: before.code,
        email: before.email,
        phone_country: before.phone_country,
        phone_number: before.phone_number,
        website: before.website,
      },
      after: row,
      company_id: before.company_id,
    }),
  ]);
  return getInsurer(ctx, id);
}

/** insurers/{id}/status/update: active or archived. */
export async function updateInsurerStatus(
  ctx: ActorCtx,
  id: string,
  status: 'active' | 'archived',
): Promise<InsurerView> {
  requirePermission(ctx.actor, 'update_insurer');
  const before = await findInsurer(ctx, id);
  if (before.status !== status) {
    await runBatch(ctx.db, [
      ctx.db.update(insurers).set({ status, updated_at: ctx.now }).where(eq(insurers.id, before.id)),
      logActivity(ctx, {
        entity_type: 'insurer',
        entity_id: before.id,
        action: status === 'active' ? 'activated' : 'archived',
        before: { status: before.status },
        after: { status },
        company_id: before.company_id,
      }),
    ]);
  }
  return getInsurer(ctx, id);
}

/**
 * insurers/company/{id} (DELETE). Refused while a product or a service agreement uses the insurer,
 * so no record is left pointing at nothing; archive it instead.
 */
export async function deleteInsurer(ctx: ActorCtx, id: string): Promise<void> {
  requirePermission(ctx.actor, 'delete_insurer');
  const row = await findInsurer(ctx, id);
  const [[usedByProduct], [usedByAgreement]] = await ctx.db.batch([
    ctx.db.select({ id: products.id }).from(products).where(eq(products.insurer_id, row.id)).limit(1),
    ctx.db
      .select({ id: serviceAgreements.id })
      .from(serviceAgreements)
      .where(eq(serviceAgreements.insurer_id, row.id))
      .limit(1),
  ]);
  if (usedByProduct || usedByAgreement) throw new Conflict(msg('insurers.errors.in_use'));
  await runBatch(ctx.db, [
    ctx.db.delete(insurers).where(eq(insurers.id, row.id)),
    logActivity(ctx, {
      entity_type: 'insurer',
      entity_id: row.id,
      action: 'deleted',
      before: { name: row.name, code: row.code, status: row.status },
      company_id: row.company_id,
    }),
  ]);
}
