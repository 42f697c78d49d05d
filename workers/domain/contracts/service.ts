/**
 * Contracts (spec 001 s.3 Contract, s.4, s.5, s.6; spec 002 s.7 Contracts): what a campus may sell, at
 * which net and sale price, for which dates. Contracts are made by approving a service agreement (one per
 * product row) or added directly; they are listed, cloned, archived and reactivated.
 *
 * Ordering depends on one rule here: `productsAvailableForCampus`.
 *
 * Scope: a contract belongs to a campus, so every query is filtered with access/scope.ts contractScope (school users see
 * their client's contracts, and only their campuses' unless can_access_all_campuses).
 */
import { and, asc, desc, eq, gt, gte, isNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import {
  campuses,
  clients,
  companies,
  contracts,
  products,
  serviceAgreements,
  taxRates,
  units,
} from '../../../drizzle/schema';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { publicId } from '../../platform/crypto';
import { idByPublicId, inJson, runBatch } from '../../platform/db';
import { requirePermission } from '../access/actor';
import { contractScope } from '../access/scope';
import { activityFeed } from '../activity/feed';
import { logActivity } from '../audit/activity-log';
import { findCampus } from '../access/finders';
import type { ActorCtx } from '../context';
import { NotFound, ValidationFailed } from '../errors';
import { countAll, likeAny, orderBy, paginate, type Page } from '../lists';
import { major, msg, todayIso } from '../validation';
import {
  contractDateErrors,
  contractPeriod,
  type AddContractInput,
  type CloneContractInput,
  type ContractListQuery,
  type ContractStatus,
} from './schema';

type ContractRow = typeof contracts.$inferSelect;

/** The success message of spec 002 s.8 for a created or updated contract. */
export const CONTRACT_SAVED = msg('contracts.saved');

/**
 * A joined column under its own name: D1 batches answer rows keyed by column name, so two columns
 * called `name` (or `public_id`) would collapse into one. Every joined column gets a unique alias.
 */
function as<T>(column: SQLiteColumn, alias: string) {
  return sql<T>`${column}`.as(alias);
}

const joinedColumns = {
  contract: contracts,
  company_public_id: as<string>(companies.public_id, 'company_public_id'),
  company_name: as<string>(companies.name, 'company_name'),
  client_public_id: as<string>(clients.public_id, 'client_public_id'),
  client_name: as<string>(clients.name, 'client_name'),
  campus_public_id: as<string>(campuses.public_id, 'campus_public_id'),
  campus_name: as<string>(campuses.name, 'campus_name'),
  product_public_id: as<string>(products.public_id, 'product_public_id'),
  product_code: as<string>(products.code, 'product_code'),
  product_name: as<string>(products.name, 'product_name'),
  product_status: as<'active' | 'archived'>(products.status, 'product_status'),
  agreement_public_id: as<string | null>(serviceAgreements.public_id, 'agreement_public_id'),
  agreement_name: as<string | null>(serviceAgreements.name, 'agreement_name'),
};

type JoinedRow = {
  contract: ContractRow;
  company_public_id: string;
  company_name: string;
  client_public_id: string;
  client_name: string;
  campus_public_id: string;
  campus_name: string;
  product_public_id: string;
  product_code: string;
  product_name: string;
  product_status: 'active' | 'archived';
  agreement_public_id: string | null;
  agreement_name: string | null;
};

function joined(ctx: ActorCtx) {
  return ctx.db
    .select(joinedColumns)
    .from(contracts)
    .innerJoin(campuses, eq(campuses.id, contracts.campus_id))
    .innerJoin(clients, eq(clients.id, contracts.client_id))
    .innerJoin(companies, eq(companies.id, contracts.company_id))
    .innerJoin(products, eq(products.id, contracts.product_id))
    .leftJoin(serviceAgreements, eq(serviceAgreements.id, contracts.service_agreement_id));
}

/** The scope condition of contract rows. */
export function visibleContracts(ctx: ActorCtx): SQL {
  return contractScope(ctx.actor);
}

/** A contract as lists, pages and the API show it (public ids, prices in major units). */
export function presentContract(r: JoinedRow, today: string) {
  const c = r.contract;
  return {
    id: c.public_id,
    name: c.name,
    description: c.description,
    status: c.status,
    period: contractPeriod(c, today),
    is_default: c.is_default,
    start_date: c.start_date,
    end_date: c.end_date,
    net_price: major(c.net_minor)!,
    sale_price: major(c.sale_minor)!,
    custom_price: major(c.custom_minor),
    currency: c.currency,
    min_days: c.min_days,
    po_number: c.po_number,
    payment_method: c.payment_method,
    company: { id: r.company_public_id, name: r.company_name },
    client: { id: r.client_public_id, name: r.client_name },
    campus: { id: r.campus_public_id, name: r.campus_name },
    product: {
      id: r.product_public_id,
      code: r.product_code,
      name: r.product_name,
      status: r.product_status,
    },
    service_agreement: r.agreement_public_id ? { id: r.agreement_public_id, name: r.agreement_name } : null,
    created_at: c.created_at,
    updated_at: c.updated_at,
  };
}
export type ContractView = ReturnType<typeof presentContract>;

function periodCondition(period: ContractListQuery['period'], today: string): SQL | undefined {
  switch (period) {
    case 'current':
      return and(
        lte(contracts.start_date, today),
        or(isNull(contracts.end_date), gte(contracts.end_date, today)),
      );
    case 'future':
      return gt(contracts.start_date, today);
    case 'expired':
      return lt(contracts.end_date, today);
    default:
      return undefined;
  }
}

function listWhere(ctx: ActorCtx, q: ContractListQuery, fixed: FixedFilters = {}): SQL | undefined {
  const today = todayIso(ctx.now);
  return and(
    visibleContracts(ctx),
    fixed.campusId ? eq(contracts.campus_id, fixed.campusId) : undefined,
    fixed.agreementId ? eq(contracts.service_agreement_id, fixed.agreementId) : undefined,
    q.status && q.status !== 'all' ? eq(contracts.status, q.status) : undefined,
    periodCondition(q.period, today),
    q.client_id ? eq(clients.public_id, q.client_id) : undefined,
    q.campus_id ? eq(campuses.public_id, q.campus_id) : undefined,
    q.product_id ? eq(products.public_id, q.product_id) : undefined,
    q.service_agreement_id ? eq(serviceAgreements.public_id, q.service_agreement_id) : undefined,
    likeAny(
      [contracts.name, contracts.po_number, products.name, products.code, campuses.name, clients.name],
      q.search,
    ),
  );
}

const sortable = {
  name: contracts.name,
  start_date: contracts.start_date,
  end_date: contracts.end_date,
  status: contracts.status,
  net_price: contracts.net_minor,
  sale_price: contracts.sale_minor,
  min_days: contracts.min_days,
  created_at: contracts.created_at,
  campus: campuses.name,
  client: clients.name,
  product: products.name,
};

interface FixedFilters {
  campusId?: number;
  agreementId?: number;
}

/** Lists contracts (filters, sorting, paging). Other services pass a fixed campus or agreement. */
export async function queryContracts(
  ctx: ActorCtx,
  q: ContractListQuery,
  fixed: FixedFilters = {},
): Promise<Page<ContractView>> {
  const where = listWhere(ctx, q, fixed);
  const today = todayIso(ctx.now);
  const page = await paginate<JoinedRow>(ctx.db, q, {
    rows: (limit, offset) =>
      joined(ctx)
        .where(where)
        .orderBy(...orderBy(q.order, sortable, 'start_date_desc', contracts.id))
        .limit(limit)
        .offset(offset),
    count: ctx.db
      .select({ total: countAll })
      .from(contracts)
      .innerJoin(campuses, eq(campuses.id, contracts.campus_id))
      .innerJoin(clients, eq(clients.id, contracts.client_id))
      .innerJoin(products, eq(products.id, contracts.product_id))
      .leftJoin(serviceAgreements, eq(serviceAgreements.id, contracts.service_agreement_id))
      .where(where),
  });
  return { items: page.items.map((r) => presentContract(r, today)), meta: page.meta };
}

/** contracts/list: the contracts the actor may see. */
export async function listContracts(ctx: ActorCtx, q: ContractListQuery): Promise<Page<ContractView>> {
  requirePermission(ctx.actor, 'read_contract');
  return queryContracts(ctx, q);
}

/** Every contract matching the list's filters, in its order (the Excel export). */
export async function exportContracts(ctx: ActorCtx, q: ContractListQuery, limit = 10_000) {
  requirePermission(ctx.actor, 'read_contract');
  const today = todayIso(ctx.now);
  const rows = await joined(ctx)
    .where(listWhere(ctx, q))
    .orderBy(...orderBy(q.order, sortable, 'start_date_desc', contracts.id))
    .limit(limit);
  return rows.map((r) => presentContract(r as JoinedRow, today));
}

async function findContractRow(ctx: ActorCtx, id: string, extra?: SQL): Promise<JoinedRow> {
  const [row] = await joined(ctx)
    .where(and(eq(contracts.public_id, id), visibleContracts(ctx), extra))
    .limit(1);
  if (!row) throw new NotFound(msg('contracts.errors.not_found'));
  return row as JoinedRow;
}

/** contracts/{id} (and campuses/{id}/contracts/{contractId}): one contract with its tax rate and unit. */
export async function getContract(ctx: ActorCtx, id: string, opts: { campusId?: number } = {}) {
  requirePermission(ctx.actor, 'read_contract');
  const row = await findContractRow(
    ctx,
    id,
    opts.campusId ? eq(contracts.campus_id, opts.campusId) : undefined,
  );
  const [[campus], [product]] = await ctx.db.batch([
    ctx.db
      .select({ country_id: campuses.country_id })
      .from(campuses)
      .where(eq(campuses.id, row.contract.campus_id)),
    ctx.db
      .select({
        unit: units.name,
        effective_start_date: products.effective_start_date,
        effective_end_date: products.effective_end_date,
        currency: products.currency,
      })
      .from(products)
      .leftJoin(units, eq(units.id, products.unit_id))
      .where(eq(products.id, row.contract.product_id)),
  ]);
  const [rate] = campus?.country_id
    ? await ctx.db
        .select({ rate_bp: taxRates.rate_bp, amount_minor: taxRates.amount_minor })
        .from(taxRates)
        .where(and(eq(taxRates.country_id, campus.country_id), eq(taxRates.active, true)))
        .limit(1)
    : [];
  return {
    ...presentContract(row, todayIso(ctx.now)),
    tax_rate: rate?.rate_bp == null ? null : rate.rate_bp / 100,
    tax_amount: rate?.amount_minor == null ? null : rate.amount_minor / 100,
    unit: product?.unit ?? null,
    product_effective_start_date: product?.effective_start_date ?? null,
    product_effective_end_date: product?.effective_end_date ?? null,
  };
}
export type ContractDetail = Awaited<ReturnType<typeof getContract>>;

/** contracts/{id}/activities: the contract's logs. */
export async function contractActivities(ctx: ActorCtx, id: string, page = 1, perPage = 25) {
  requirePermission(ctx.actor, 'read_contract');
  const row = await findContractRow(ctx, id);
  return activityFeed(ctx.db, 'contract', row.contract.id, page, perPage);
}

/** contracts/summary: how many contracts the actor sees, by status and period. */
export async function contractsSummary(ctx: ActorCtx, opts: { campusId?: number } = {}) {
  requirePermission(ctx.actor, 'read_contract');
  const today = todayIso(ctx.now);
  const current = sql`${contracts.status} = 'active' and ${contracts.start_date} <= ${today} and (${contracts.end_date} is null or ${contracts.end_date} >= ${today})`;
  const soon = todayIso(new Date(ctx.now.getTime() + 30 * 86_400_000));
  const [row] = await ctx.db
    .select({
      total: sql<number>`count(*)`,
      active: sql<number>`coalesce(sum(case when ${contracts.status} = 'active' then 1 else 0 end), 0)`,
      archived: sql<number>`coalesce(sum(case when ${contracts.status} = 'archived' then 1 else 0 end), 0)`,
      current: sql<number>`coalesce(sum(case when ${current} then 1 else 0 end), 0)`,
      expiring: sql<number>`coalesce(sum(case when ${current} and ${contracts.end_date} <= ${soon} then 1 else 0 end), 0)`,
    })
    .from(contracts)
    .where(and(visibleContracts(ctx), opts.campusId ? eq(contracts.campus_id, opts.campusId) : undefined));
  return {
    total: Number(row.total),
    active: Number(row.active),
    archived: Number(row.archived),
    current: Number(row.current),
    expiring_within_30_days: Number(row.expiring),
  };
}

/** The product of a contract: of the campus's company, by public id. */
async function productOfCompany(
  ctx: ActorCtx,
  productPublicId: string,
  companyId: number,
  key = 'product_id',
) {
  const [product] = await ctx.db
    .select()
    .from(products)
    .where(and(eq(products.public_id, productPublicId), eq(products.company_id, companyId)))
    .limit(1);
  if (!product) throw ValidationFailed.field(key, msg('contracts.errors.product_not_found'));
  return product;
}

function contractForLog(c: Partial<ContractRow>) {
  return {
    name: c.name,
    status: c.status,
    campus_id: c.campus_id,
    product_id: c.product_id,
    start_date: c.start_date,
    end_date: c.end_date ?? null,
    net_price: major(c.net_minor ?? null),
    sale_price: major(c.sale_minor ?? null),
    custom_price: major(c.custom_minor ?? null),
    min_days: c.min_days,
    po_number: c.po_number ?? null,
    is_default: c.is_default,
  };
}

/**
 * contracts/add: a contract of a visible campus for a product of the campus's company. The contract
 * dates rule of spec 001 s.5 applies (start and end required, not in the past, end after start, within
 * the product's effective dates); sale not below net; min days at least 6.
 */
export async function addContract(ctx: ActorCtx, input: AddContractInput): Promise<ContractDetail> {
  const { campus, client } = await findCampus(ctx, input.campus_id, 'create_contract').catch((e) => {
    if (e instanceof NotFound)
      throw ValidationFailed.field('campus_id', msg('contracts.errors.campus_not_found'));
    throw e;
  });
  const product = await productOfCompany(ctx, input.product_id, client.company_id);
  const errors = contractDateErrors(input, { today: todayIso(ctx.now), product });
  if (errors.length) throw new ValidationFailed(errors);
  const id = publicId();
  const values = {
    public_id: id,
    company_id: client.company_id,
    client_id: client.id,
    campus_id: campus.id,
    product_id: product.id,
    name: input.name ?? product.name,
    description: input.description ?? null,
    start_date: input.start_date,
    end_date: input.end_date,
    status: 'active' as const,
    is_default: input.is_default ?? false,
    net_minor: input.net_price,
    sale_minor: input.sale_price,
    custom_minor: input.custom_price ?? null,
    currency: product.currency,
    min_days: input.min_days,
    po_number: input.po_number ?? null,
    created_at: ctx.now,
    updated_at: ctx.now,
  };
  await runBatch(ctx.db, [
    ctx.db.insert(contracts).values(values),
    logActivity(ctx, {
      entity_type: 'contract',
      entity_id: idByPublicId(contracts, id),
      action: 'created',
      after: contractForLog(values),
      company_id: client.company_id,
      client_id: client.id,
    }),
  ]);
  return getContract(ctx, id);
}

/**
 * contracts/{id}/status/update: archive or reactivate (spec 001 s.4). Both are the archive permission
 * (archive and reactivate are one right); setting the status a contract already has is refused.
 */
export async function updateContractStatus(
  ctx: ActorCtx,
  id: string,
  status: ContractStatus,
): Promise<ContractDetail> {
  requirePermission(ctx.actor, 'archive_contract');
  const row = await findContractRow(ctx, id);
  if (row.contract.status === status)
    throw ValidationFailed.field('status', msg(`contracts.errors.already_${status}`));
  await runBatch(ctx.db, [
    ctx.db.update(contracts).set({ status, updated_at: ctx.now }).where(eq(contracts.id, row.contract.id)),
    logActivity(ctx, {
      entity_type: 'contract',
      entity_id: row.contract.id,
      action: status === 'archived' ? 'archived' : 'activated',
      before: { status: row.contract.status },
      after: { status },
      company_id: row.contract.company_id,
      client_id: row.contract.client_id,
    }),
  ]);
  return getContract(ctx, id);
}

/**
 * contracts/{id}/clone: a new active contract with the same product and prices, for the same campus or
 * another campus of the same client, with the given dates (default: the original's). It stands on its
 * own: it belongs to no service agreement. The contract dates rule applies to the copy.
 */
export async function cloneContract(
  ctx: ActorCtx,
  id: string,
  input: CloneContractInput = {},
): Promise<ContractDetail> {
  requirePermission(ctx.actor, 'create_contract');
  const source = (await findContractRow(ctx, id)).contract;
  let campusId = source.campus_id;
  if (input.campus_id) {
    const target = await findCampus(ctx, input.campus_id, 'create_contract').catch((e) => {
      if (e instanceof NotFound)
        throw ValidationFailed.field('campus_id', msg('contracts.errors.campus_not_found'));
      throw e;
    });
    if (target.client.id !== source.client_id)
      throw ValidationFailed.field('campus_id', msg('contracts.errors.campus_other_client'));
    campusId = target.campus.id;
  }
  const [product] = await ctx.db.select().from(products).where(eq(products.id, source.product_id)).limit(1);
  const dates = {
    start_date: input.start_date ?? source.start_date,
    end_date: input.end_date ?? source.end_date,
  };
  const errors = contractDateErrors(dates, { today: todayIso(ctx.now), product });
  if (errors.length) throw new ValidationFailed(errors);
  const newId = publicId();
  const values = {
    public_id: newId,
    company_id: source.company_id,
    client_id: source.client_id,
    campus_id: campusId,
    product_id: source.product_id,
    name: input.name ?? source.name,
    description: source.description,
    start_date: dates.start_date,
    end_date: dates.end_date,
    status: 'active' as const,
    is_default: false,
    net_minor: source.net_minor,
    sale_minor: source.sale_minor,
    custom_minor: source.custom_minor,
    currency: source.currency,
    min_days: source.min_days,
    po_number: source.po_number,
    payment_method: source.payment_method,
    created_at: ctx.now,
    updated_at: ctx.now,
  };
  await runBatch(ctx.db, [
    ctx.db.insert(contracts).values(values),
    logActivity(ctx, {
      entity_type: 'contract',
      entity_id: idByPublicId(contracts, newId),
      action: 'cloned',
      after: { ...contractForLog(values), cloned_from: source.public_id },
      company_id: source.company_id,
      client_id: source.client_id,
    }),
  ]);
  return getContract(ctx, newId);
}

/** A contract a campus may order under: the product and the prices. */
export interface AvailableContract {
  /** Internal ids, for the ordering code that stores them. */
  contract_id: number;
  product_id: number;
  campus_id: number;
  /** Public ids, for pages and the API. */
  id: string;
  product_public_id: string;
  product_code: string;
  product_name: string;
  name: string;
  start_date: string;
  end_date: string | null;
  net_price: number;
  sale_price: number;
  custom_price: number | null;
  net_minor: number;
  sale_minor: number;
  custom_minor: number | null;
  currency: string;
  min_days: number;
  po_number: string | null;
  is_default: boolean;
  /** `contract`: a current contract of the campus; `cart`: a contract of one of its open cart batches. */
  source: 'contract' | 'cart';
}

/**
 * THE rule ordering depends on (spec 001 s.6): the products a campus may order are its contracts whose
 * status is active and which are current (today on or after start_date and on or before end_date, or no
 * end date), merged with the contracts of the campus's open cart batches (`cartContractIds`, internal
 * ids), de-duplicated by contract id. Nothing available: ValidationFailed 'No contract found for any
 * product for campus {campus}. Please review the service agreements for client.'
 *
 * The campus is looked up in the actor's scope (an invisible campus is NotFound). Cart contracts of
 * another campus are ignored.
 */
export async function productsAvailableForCampus(
  ctx: ActorCtx,
  campusId: number | string,
  opts: { cartContractIds?: readonly number[] } = {},
): Promise<AvailableContract[]> {
  const { campus } = await findCampus(ctx, campusId, 'read_contract|create_insured|create_policy');
  const today = todayIso(ctx.now);
  const cartIds = [...new Set(opts.cartContractIds ?? [])];
  const currentCondition = and(
    eq(contracts.status, 'active'),
    lte(contracts.start_date, today),
    or(isNull(contracts.end_date), gte(contracts.end_date, today)),
  );
  const rows = await ctx.db
    .select({
      contract: contracts,
      product_public_id: products.public_id,
      product_code: products.code,
      product_name: products.name,
      current: sql<number>`case when ${currentCondition} then 1 else 0 end`,
    })
    .from(contracts)
    .innerJoin(products, eq(products.id, contracts.product_id))
    .where(
      and(
        eq(contracts.campus_id, campus.id),
        cartIds.length ? or(currentCondition, inJson(contracts.id, cartIds)) : currentCondition,
      ),
    )
    .orderBy(desc(contracts.is_default), asc(products.name), asc(contracts.start_date), asc(contracts.id));
  const seen = new Set<number>();
  const available: AvailableContract[] = [];
  for (const r of rows) {
    const c = r.contract;
    if (seen.has(c.id)) continue;
    seen.add(c.id);
    available.push({
      contract_id: c.id,
      product_id: c.product_id,
      campus_id: c.campus_id,
      id: c.public_id,
      product_public_id: r.product_public_id,
      product_code: r.product_code,
      product_name: r.product_name,
      name: c.name,
      start_date: c.start_date,
      end_date: c.end_date,
      net_price: c.net_minor / 100,
      sale_price: c.sale_minor / 100,
      custom_price: major(c.custom_minor),
      net_minor: c.net_minor,
      sale_minor: c.sale_minor,
      custom_minor: c.custom_minor,
      currency: c.currency,
      min_days: c.min_days,
      po_number: c.po_number,
      is_default: c.is_default,
      source: Number(r.current) === 1 ? 'contract' : 'cart',
    });
  }
  if (!available.length)
    throw ValidationFailed.field(
      'campus_id',
      msg('contracts.errors.no_contract_for_campus', { campus: campus.name }),
    );
  return available;
}
