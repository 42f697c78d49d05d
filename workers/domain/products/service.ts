/**
 * Products (spec 001 s.3-5, 002 s.7): the list with its summary and filters, one product, create and
 * update with the product rules, activate and archive, the logs, and the units of a product's term.
 * Prices, documents and product groups are beside this file.
 */
import { and, asc, eq, gte, lte, ne, sql, type SQL } from 'drizzle-orm';
import { companies, countries, insurers, products, productPrices, units } from '../../../drizzle/schema';
import { idByPublicId, inJson, runBatch, type Statement } from '../../platform/db';
import { publicId } from '../../platform/crypto';
import { requirePermission } from '../access/actor';
import { ARCHIVE_PERMISSION } from '../access/archiving';
import { companyScope } from '../access/scope';
import { logActivities, logActivity } from '../audit/activity-log';
import { activityFeed, type ActivityRow } from '../activity/feed';
import type { ActorCtx } from '../context';
import { ValidationFailed, type FieldError } from '../errors';
import { likeAny, orderBy, paginate, type BulkSelection, type ListQuery, type Page } from '../lists';
import { major, msg, todayIso } from '../validation';
import { findProduct, insurersOf, visibleCompanies, type ProductRow } from './queries';
import {
  MIN_PURCHASE_DAYS,
  type CoverageLimit,
  type CreateProductInput,
  type ProductListQuery,
  type UpdateProductInput,
} from './schema';

/** Days ahead within which an active product counts as "expiring" in the summary and the filter. */
export const EXPIRING_WITHIN_DAYS = 30;

export function addDays(isoDay: string, n: number): string {
  const d = new Date(`${isoDay}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

// ---------------------------------------------------------------- units

/** GET /company/units: the units a product's term is counted in. */
export async function listUnits(ctx: ActorCtx) {
  requirePermission(ctx.actor, 'read_product|read_contract|read_service_agreement');
  return ctx.db.select().from(units).orderBy(asc(units.days));
}

// ---------------------------------------------------------------- views

export interface ProductListItem {
  id: string;
  id_numeric: number;
  code: string;
  name: string;
  status: 'active' | 'archived';
  territorial_limit: string | null;
  effective_start_date: string;
  effective_end_date: string | null;
  currency: string;
  type: string | null;
  scheme: string | null;
  company: { id: string; name: string };
  insurer: { id: string; name: string } | null;
  prices_count: number;
  created_at: string;
}

export function presentProduct(
  row: ProductRow,
  related: {
    company: { public_id: string; name: string; currency: string; country_name: string | null };
    insurer: {
      public_id: string;
      name: string;
      email: string | null;
      phone_number: string | null;
      phone_country: string | null;
      website: string | null;
      status: string;
    } | null;
    unit: { id: number; name: string; days: number } | null;
  },
) {
  return {
    id: row.public_id,
    id_numeric: row.id,
    code: row.code,
    name: row.name,
    description: row.description,
    status: row.status,
    effective_start_date: row.effective_start_date,
    effective_end_date: row.effective_end_date,
    type: row.type,
    policy_type: row.policy_type,
    scheme: row.scheme,
    cover_type: row.cover_type,
    territorial_limit: row.territorial_limit,
    currency: row.currency,
    max_coverage_amount: major(row.max_coverage_amount_minor),
    max_coverage_amount_minor: row.max_coverage_amount_minor,
    max_enrolment_period_days: row.max_enrolment_period_days,
    max_term_days: row.max_term_days,
    min_purchase_days: row.min_purchase_days,
    insured_age_min: row.insured_age_min,
    insured_age_max: row.insured_age_max,
    master_certificate_number: row.master_certificate_number,
    claim_email: row.claim_email,
    claim_phone: row.claim_phone,
    claim_details: row.claim_details,
    medical_assistance_email: row.medical_assistance_email,
    medical_assistance_phone: row.medical_assistance_phone,
    coverage_limits: (row.coverage_limits ?? []) as CoverageLimit[],
    unit_id: row.unit_id,
    unit: related.unit,
    company: {
      id: related.company.public_id,
      name: related.company.name,
      currency: related.company.currency,
      country_name: related.company.country_name,
    },
    insurer: related.insurer
      ? {
          id: related.insurer.public_id,
          name: related.insurer.name,
          email: related.insurer.email,
          phone_country: related.insurer.phone_country,
          phone_number: related.insurer.phone_number,
          website: related.insurer.website,
          status: related.insurer.status,
        }
      : null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
export type ProductView = ReturnType<typeof presentProduct>;

async function productView(ctx: ActorCtx, row: ProductRow): Promise<ProductView> {
  const [[company], insurerRows, unitRows] = await ctx.db.batch([
    ctx.db
      .select({
        public_id: companies.public_id,
        name: companies.name,
        currency: companies.currency,
        country_name: sql<string | null>`${countries.name}`.as('country_name'),
      })
      .from(companies)
      .leftJoin(countries, eq(countries.id, companies.country_id))
      .where(eq(companies.id, row.company_id)),
    ctx.db
      .select()
      .from(insurers)
      .where(eq(insurers.id, row.insurer_id ?? 0)),
    ctx.db
      .select()
      .from(units)
      .where(eq(units.id, row.unit_id ?? 0)),
  ]);
  return presentProduct(row, { company, insurer: insurerRows[0] ?? null, unit: unitRows[0] ?? null });
}

// ---------------------------------------------------------------- list and summary

function listConditions(ctx: ActorCtx, query: ProductListQuery): SQL {
  const today = todayIso(ctx.now);
  const conditions: (SQL | undefined)[] = [
    companyScope(ctx.actor, products.company_id),
    likeAny([products.code, products.name, products.scheme, products.type], query.search),
    query.status ? eq(products.status, query.status) : undefined,
    query.territorial_limit ? eq(products.territorial_limit, query.territorial_limit) : undefined,
    query.insurer
      ? sql`${products.insurer_id} IN (SELECT ${insurers.id} FROM ${insurers} WHERE ${insurers.public_id} = ${query.insurer})`
      : undefined,
    query.effective_from ? gte(products.effective_start_date, query.effective_from) : undefined,
    query.effective_to ? lte(products.effective_end_date, query.effective_to) : undefined,
    query.expiring
      ? and(
          eq(products.status, 'active'),
          gte(products.effective_end_date, today),
          lte(products.effective_end_date, addDays(today, EXPIRING_WITHIN_DAYS)),
        )
      : undefined,
  ];
  return and(...conditions.filter(Boolean))!;
}

const SORTABLE = {
  code: products.code,
  name: products.name,
  insurer: insurers.name,
  status: products.status,
  territorial_limit: products.territorial_limit,
  effective_start_date: products.effective_start_date,
  effective_end_date: products.effective_end_date,
  created_at: products.created_at,
};

function listSelect(ctx: ActorCtx) {
  return ctx.db
    .select({
      id: products.public_id,
      id_numeric: products.id,
      code: products.code,
      name: products.name,
      status: products.status,
      territorial_limit: products.territorial_limit,
      effective_start_date: products.effective_start_date,
      effective_end_date: products.effective_end_date,
      currency: products.currency,
      type: products.type,
      scheme: products.scheme,
      // Columns of joined tables get their own names: D1 answers a batch as objects keyed by name.
      company_id: sql<string>`${companies.public_id}`.as('company_public_id'),
      company_name: sql<string>`${companies.name}`.as('company_name'),
      insurer_id: sql<string | null>`${insurers.public_id}`.as('insurer_public_id'),
      insurer_name: sql<string | null>`${insurers.name}`.as('insurer_name'),
      prices_count: sql<number>`(select count(*) from ${productPrices} where ${productPrices.product_id} = ${products.id})`,
      created_at: products.created_at,
    })
    .from(products)
    .innerJoin(companies, eq(companies.id, products.company_id))
    .leftJoin(insurers, eq(insurers.id, products.insurer_id));
}

type ListRow = Awaited<ReturnType<ReturnType<typeof listSelect>['all']>>[number];

function listItem(r: ListRow): ProductListItem {
  return {
    id: r.id,
    id_numeric: r.id_numeric,
    code: r.code,
    name: r.name,
    status: r.status,
    territorial_limit: r.territorial_limit,
    effective_start_date: r.effective_start_date,
    effective_end_date: r.effective_end_date,
    currency: r.currency,
    type: r.type,
    scheme: r.scheme,
    company: { id: r.company_id, name: r.company_name },
    insurer: r.insurer_id ? { id: r.insurer_id, name: r.insurer_name ?? '' } : null,
    prices_count: Number(r.prices_count),
    created_at: r.created_at.toISOString(),
  };
}

/** GET products: one page of the products of the actor's companies, filtered and sorted. */
export async function listProducts(ctx: ActorCtx, query: ProductListQuery): Promise<Page<ProductListItem>> {
  requirePermission(ctx.actor, 'read_product');
  const where = listConditions(ctx, query);
  const page = await paginate<ListRow>(ctx.db, query, {
    rows: (limit, offset) =>
      listSelect(ctx)
        .where(where)
        .orderBy(...orderBy(query.order, SORTABLE, 'name_asc', products.id))
        .limit(limit)
        .offset(offset),
    count: ctx.db
      .select({ total: sql<number>`count(*)` })
      .from(products)
      .where(where),
  });
  return { items: page.items.map(listItem), meta: page.meta };
}

/** Every product matching the filters (at most `limit`), for the .xlsx export. */
export async function exportProducts(ctx: ActorCtx, query: ProductListQuery, limit = 10_000) {
  requirePermission(ctx.actor, 'read_product');
  const rows = await listSelect(ctx)
    .where(listConditions(ctx, query))
    .orderBy(...orderBy(query.order, SORTABLE, 'name_asc', products.id))
    .limit(limit);
  return rows.map(listItem);
}

/** GET products/summary: active, archived and expiring (active, ending within 30 days) counts. */
export async function productSummary(ctx: ActorCtx) {
  requirePermission(ctx.actor, 'read_product');
  const today = todayIso(ctx.now);
  const soon = addDays(today, EXPIRING_WITHIN_DAYS);
  const [row] = await ctx.db
    .select({
      total: sql<number>`count(*)`,
      active: sql<number>`coalesce(sum(${products.status} = 'active'), 0)`,
      archived: sql<number>`coalesce(sum(${products.status} = 'archived'), 0)`,
      expiring: sql<number>`coalesce(sum(${products.status} = 'active' and ${products.effective_end_date} >= ${today} and ${products.effective_end_date} <= ${soon}), 0)`,
    })
    .from(products)
    .where(companyScope(ctx.actor, products.company_id));
  return {
    total: Number(row.total),
    active: Number(row.active),
    archived: Number(row.archived),
    expiring: Number(row.expiring),
    expiring_within_days: EXPIRING_WITHIN_DAYS,
  };
}

// ---------------------------------------------------------------- one product

/** GET products/{id}. */
export async function getProduct(ctx: ActorCtx, id: string): Promise<ProductView> {
  requirePermission(ctx.actor, 'read_product');
  return productView(ctx, await findProduct(ctx, id));
}

/** What the product forms offer: the companies in view, their insurers, the units and currencies. */
export async function productFormOptions(ctx: ActorCtx) {
  requirePermission(ctx.actor, 'read_product');
  const companyRows = await visibleCompanies(ctx.db, ctx.actor);
  const insurerRows = await insurersOf(ctx.db, ctx.actor);
  const unitRows = await ctx.db.select().from(units).orderBy(asc(units.days));
  return {
    companies: companyRows.map((c) => ({ id: c.public_id, name: c.name, currency: c.currency })),
    insurers: insurerRows.map((i) => ({
      id: i.public_id,
      name: i.name,
      status: i.status,
      company_id: companyRows.find((c) => c.id === i.company_id)!.public_id,
    })),
    units: unitRows,
  };
}

// ---------------------------------------------------------------- create and update

type ProductValues = Omit<
  typeof products.$inferInsert,
  'id' | 'public_id' | 'company_id' | 'created_at' | 'updated_at'
>;

const OPTIONAL_COLUMNS = [
  'description',
  'effective_end_date',
  'type',
  'policy_type',
  'scheme',
  'cover_type',
  'territorial_limit',
  'max_enrolment_period_days',
  'max_term_days',
  'insured_age_min',
  'insured_age_max',
  'master_certificate_number',
  'claim_email',
  'claim_phone',
  'claim_details',
  'medical_assistance_email',
  'medical_assistance_phone',
  'unit_id',
] as const;

/** The columns an input sets: absent fields are left out, null clears. Insurer is resolved separately. */
function columnsOf(input: UpdateProductInput): Partial<ProductValues> {
  const out: Partial<ProductValues> = {};
  const set = <K extends keyof ProductValues>(key: K, value: ProductValues[K] | undefined) => {
    if (value !== undefined) out[key] = value;
  };
  set('code', input.code);
  set('name', input.name);
  set('effective_start_date', input.effective_start_date);
  set('currency', input.currency);
  set('min_purchase_days', input.min_purchase_days);
  for (const key of OPTIONAL_COLUMNS) set(key, input[key] as never);
  set('max_coverage_amount_minor', input.max_coverage_amount);
  if (input.coverage_limits !== undefined)
    out.coverage_limits = input.coverage_limits.length
      ? input.coverage_limits.map((l) => ({
          benefit: l.benefit,
          limit: l.limit,
          ...(l.excess ? { excess: l.excess } : {}),
        }))
      : null;
  return out;
}

/**
 * The rules that need the clock or the database. Dates may not be in the past when they are set or
 * changed (a product that started last month can still be edited); the code is unique in the company;
 * the insurer is one of the company's; the unit exists.
 */
async function checkProduct(
  ctx: ActorCtx,
  companyId: number,
  next: Partial<ProductValues> & { insurer_public_id?: string | null },
  before: ProductRow | null,
): Promise<{ insurer_id: number | null | undefined }> {
  const errors: FieldError[] = [];
  const today = todayIso(ctx.now);
  const changed = <K extends keyof ProductRow>(key: K) =>
    next[key as keyof typeof next] !== undefined &&
    (!before || next[key as keyof typeof next] !== before[key]);

  const start = next.effective_start_date ?? before?.effective_start_date;
  const end = next.effective_end_date === undefined ? before?.effective_end_date : next.effective_end_date;
  if (changed('effective_start_date') && start && start < today)
    errors.push({ key: 'effective_start_date', message: msg('validation.start_not_past') });
  if (changed('effective_end_date') && end && end < today)
    errors.push({ key: 'effective_end_date', message: msg('products.errors.end_not_past') });
  if (before && start && end && end < start && !errors.some((e) => e.key === 'effective_end_date'))
    errors.push({ key: 'effective_end_date', message: msg('validation.end_after_start') });

  const ageMin = next.insured_age_min === undefined ? before?.insured_age_min : next.insured_age_min;
  const ageMax = next.insured_age_max === undefined ? before?.insured_age_max : next.insured_age_max;
  if (before && ageMin != null && ageMax != null && ageMax <= ageMin)
    errors.push({ key: 'insured_age_max', message: msg('products.errors.age_max') });

  if (next.code !== undefined && (!before || next.code !== before.code)) {
    const [clash] = await ctx.db
      .select({ id: products.id })
      .from(products)
      .where(
        and(
          eq(products.company_id, companyId),
          sql`upper(${products.code}) = ${next.code.toUpperCase()}`,
          before ? ne(products.id, before.id) : undefined,
        ),
      )
      .limit(1);
    if (clash) errors.push({ key: 'code', message: msg('products.errors.code_taken') });
  }

  let insurerId: number | null | undefined = undefined;
  if (next.insurer_public_id === null) insurerId = null;
  else if (next.insurer_public_id !== undefined) {
    const [insurer] = await ctx.db
      .select({ id: insurers.id, status: insurers.status })
      .from(insurers)
      .where(and(eq(insurers.public_id, next.insurer_public_id), eq(insurers.company_id, companyId)))
      .limit(1);
    if (!insurer || (insurer.status !== 'active' && insurer.id !== before?.insurer_id))
      errors.push({ key: 'insurer_id', message: msg('products.errors.insurer_unknown') });
    else insurerId = insurer.id;
  }

  if (next.unit_id != null) {
    const [unit] = await ctx.db
      .select({ id: units.id })
      .from(units)
      .where(eq(units.id, next.unit_id))
      .limit(1);
    if (!unit) errors.push({ key: 'unit_id', message: msg('products.errors.unit_unknown') });
  }
  if (errors.length) throw new ValidationFailed(errors);
  return { insurer_id: insurerId };
}

/**
 * A product row as its logs tab shows it: no internal ids or timestamps, money in major units, the
 * insurer and unit by name.
 */
async function loggable(ctx: ActorCtx, row: Partial<ProductRow>): Promise<Record<string, unknown>> {
  const {
    id: _id,
    public_id: _publicId,
    company_id: _companyId,
    created_at: _created,
    updated_at: _updated,
    insurer_id,
    unit_id,
    max_coverage_amount_minor,
    ...rest
  } = row;
  const [insurer] = insurer_id
    ? await ctx.db.select({ name: insurers.name }).from(insurers).where(eq(insurers.id, insurer_id))
    : [];
  const [unit] = unit_id
    ? await ctx.db.select({ name: units.name }).from(units).where(eq(units.id, unit_id))
    : [];
  return {
    ...rest,
    insurer: insurer?.name ?? null,
    unit: unit?.name ?? null,
    max_coverage_amount: major(max_coverage_amount_minor),
  };
}

/** The company of a new row: the one named (if the actor sees it), else the only one in view. */
export async function companyForNew(ctx: ActorCtx, companyPublicId: string | null | undefined) {
  const visible = await visibleCompanies(ctx.db, ctx.actor);
  if (companyPublicId) {
    const found = visible.find((c) => c.public_id === companyPublicId);
    if (!found) throw ValidationFailed.field('company_id', msg('products.errors.company_unknown'));
    return found;
  }
  if (visible.length === 1) return visible[0];
  throw ValidationFailed.field('company_id', msg('validation.required'));
}

/** POST products/add. */
export async function createProduct(ctx: ActorCtx, input: CreateProductInput): Promise<ProductView> {
  requirePermission(ctx.actor, 'create_product');
  const company = await companyForNew(ctx, input.company_id);
  const values = columnsOf(input);
  const { insurer_id } = await checkProduct(
    ctx,
    company.id,
    { ...values, insurer_public_id: input.insurer_id ?? null },
    null,
  );
  const id = publicId();
  const row = {
    ...values,
    code: input.code,
    name: input.name,
    effective_start_date: input.effective_start_date,
    min_purchase_days: input.min_purchase_days ?? MIN_PURCHASE_DAYS,
    currency: input.currency ?? company.currency,
    insurer_id: insurer_id ?? null,
    status: input.status ?? 'active',
    public_id: id,
    company_id: company.id,
    created_at: ctx.now,
    updated_at: ctx.now,
  };
  await runBatch(ctx.db, [
    ctx.db.insert(products).values(row),
    logActivity(ctx, {
      entity_type: 'product',
      entity_id: idByPublicId(products, id),
      action: 'created',
      after: await loggable(ctx, row),
      company_id: company.id,
    }),
  ]);
  return getProduct(ctx, id);
}

/** POST products/{id}/update: changes the fields given (null clears an optional field). */
export async function updateProduct(
  ctx: ActorCtx,
  id: string,
  input: UpdateProductInput,
): Promise<ProductView> {
  requirePermission(ctx.actor, 'update_product');
  const before = await findProduct(ctx, id);
  const values = columnsOf(input);
  const { insurer_id } = await checkProduct(
    ctx,
    before.company_id,
    { ...values, insurer_public_id: input.insurer_id },
    before,
  );
  const set = { ...values, ...(insurer_id !== undefined ? { insurer_id } : {}) };
  const after = { ...before, ...set };
  await runBatch(ctx.db, [
    ctx.db
      .update(products)
      .set({ ...set, updated_at: ctx.now })
      .where(eq(products.id, before.id)),
    logActivity(ctx, {
      entity_type: 'product',
      entity_id: before.id,
      action: 'updated',
      before: await loggable(ctx, before),
      after: await loggable(ctx, after),
      company_id: before.company_id,
    }),
  ]);
  return getProduct(ctx, id);
}

/**
 * PATCH products/{id}/activate and /archive (spec 001 s.4: setting active activates, otherwise archives).
 * Setting the status a product already has changes nothing and logs nothing.
 */
export async function setProductStatus(
  ctx: ActorCtx,
  id: string,
  status: 'active' | 'archived',
): Promise<ProductView> {
  requirePermission(ctx.actor, ARCHIVE_PERMISSION.product);
  const before = await findProduct(ctx, id);
  if (before.status !== status) {
    await runBatch(ctx.db, [
      ctx.db.update(products).set({ status, updated_at: ctx.now }).where(eq(products.id, before.id)),
      logActivity(ctx, {
        entity_type: 'product',
        entity_id: before.id,
        action: status === 'active' ? 'activated' : 'archived',
        before: { status: before.status },
        after: { status },
        company_id: before.company_id,
      }),
    ]);
  }
  return getProduct(ctx, id);
}

export const activateProduct = (ctx: ActorCtx, id: string) => setProductStatus(ctx, id, 'active');
export const archiveProduct = (ctx: ActorCtx, id: string) => setProductStatus(ctx, id, 'archived');

/** GET products/{id}/activities: the product's logs (its own changes, its prices and documents). */
export async function productActivities(
  ctx: ActorCtx,
  id: string,
  query: Pick<ListQuery, 'page' | 'items'>,
): Promise<Page<ActivityRow>> {
  requirePermission(ctx.actor, 'read_product');
  const product = await findProduct(ctx, id);
  return activityFeed(ctx.db, 'product', product.id, query.page, Math.min(query.items, 100));
}

/** At most this many products change in one bulk action ("all matching" included). */
export const BULK_LIMIT = 2000;

/**
 * Archives or activates several products at once: the ids given, or every product matching the list's
 * filters. Products already in that status are left alone; each change has its log row, all in one batch.
 */
export async function bulkSetProductStatus(
  ctx: ActorCtx,
  selection: BulkSelection,
  filters: ProductListQuery,
  status: 'active' | 'archived',
): Promise<{ changed: number }> {
  requirePermission(ctx.actor, ARCHIVE_PERMISSION.product);
  const scope = selection.all_matching
    ? listConditions(ctx, filters)
    : and(
        companyScope(ctx.actor, products.company_id),
        inJson(products.public_id, selection.ids.slice(0, BULK_LIMIT)),
      )!;
  const rows = await ctx.db
    .select({ id: products.id, status: products.status, company_id: products.company_id })
    .from(products)
    .where(and(scope, ne(products.status, status)))
    .limit(BULK_LIMIT);
  if (!rows.length) return { changed: 0 };
  const ids = rows.map((r) => r.id);
  const statements: Statement[] = [
    ctx.db.update(products).set({ status, updated_at: ctx.now }).where(inJson(products.id, ids)),
  ];
  statements.push(
    ...logActivities(
      ctx,
      rows.map((r) => ({
        entity_type: 'product',
        entity_id: r.id,
        action: status === 'active' ? 'activated' : 'archived',
        before: { status: r.status },
        after: { status },
        company_id: r.company_id,
      })),
    ),
  );
  await runBatch(ctx.db, statements);
  return { changed: rows.length };
}
