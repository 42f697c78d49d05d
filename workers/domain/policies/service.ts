/**
 * The insureds (issued policies) read side: the list with its filters, the summary by status, the export,
 * one policy with the same person's other policies, family members, linked policies (group leader and the
 * insureds they lead), group names and groups, a policy's notes and logs. Every function checks its
 * permission and reads through the policies scope (filters.ts / access/scope.ts); another tenant's id is
 * "not found".
 *
 * Permissions (docs/decisions/after-the-sale.md "Insureds list and page"): reading the list and a policy is
 * `read_policy`; the same person's other policies are shown by state with `read_active_policy`,
 * `read_past_policy`, `read_cancelled_policy`.
 */
import { aliasedTable, and, asc, desc, eq, ne, sql, type SQL } from 'drizzle-orm';
import { inJson } from '../../platform/db';
import {
  campuses,
  clients,
  contracts,
  countries,
  policies,
  policyBatches,
  policyTransactions,
  products,
  users,
} from '../../../drizzle/schema';
import { can, requirePermission } from '../access/actor';
import { findPolicy } from '../access/finders';
import { contractScope, visibleCampus, visibleClients, visiblePolicies } from '../access/scope';
import { countryOptions } from '../contacts/service';
import type { ActorCtx } from '../context';
import { NotFound, ValidationFailed } from '../errors';
import { orderBy, paginate, type Page } from '../lists';
import { msg, todayIso } from '../validation';
import { policyConditions } from './filters';
import { POLICY_DEFAULT_ORDER, type PolicyListQuery, type PolicyListStatus } from './list-query';
import { policyStatus } from './status';

export const READ = 'read_policy';

const residence = aliasedTable(countries, 'residence');
const destination = aliasedTable(countries, 'destination');

/** The columns of a list row (aliased where two tables share a name: D1 batches key by name). */
const rowColumns = {
  id_numeric: policies.id,
  id: policies.public_id,
  policy_number: policies.policy_number,
  type: policies.type,
  first_name: policies.first_name,
  last_name: policies.last_name,
  date_of_birth: policies.date_of_birth,
  gender: policies.gender,
  email: policies.email,
  passport_number: policies.passport_number,
  student_number: policies.student_number,
  destination_address: policies.destination_address,
  residence_country_id: policies.residence_country_id,
  destination_country_id: policies.destination_country_id,
  start_date: policies.start_date,
  end_date: policies.end_date,
  booking_date: policies.booking_date,
  issued_at: policies.issued_at,
  stored_status: policies.status,
  group_name: policies.group_name,
  premium_minor: policies.premium_minor,
  currency: policies.currency,
  client_id: sql<string>`${clients.public_id}`.as('client_public_id'),
  client_name: sql<string>`${clients.name}`.as('client_name'),
  campus_id: sql<string>`${campuses.public_id}`.as('campus_public_id'),
  campus_name: sql<string>`${campuses.name}`.as('campus_name'),
  product_id: sql<string>`${products.public_id}`.as('product_public_id'),
  product_code: sql<string>`${products.code}`.as('product_code'),
  product_name: sql<string>`${products.name}`.as('product_name'),
  residence_country_code: sql<string | null>`${residence.code}`.as('residence_code'),
  residence_country_name: sql<string | null>`${residence.name}`.as('residence_name'),
};

type RawRow = Awaited<ReturnType<ReturnType<typeof listSelect>['execute']>>[number];

/** A policy as the list (and the API's `policies` and `insureds`) shows it: spec 002's policy row. */
export interface PolicyListRow {
  id: string;
  id_numeric: number;
  policy_number: string;
  product_code: string;
  type: string;
  first_name: string;
  last_name: string;
  full_name: string;
  date_of_birth: string;
  gender: string | null;
  email: string | null;
  passport_number: string | null;
  student_number: string | null;
  /** The address at the destination. */
  address: string | null;
  residence_country_id: number | null;
  destination_country_id: number | null;
  start_date: string;
  end_date: string;
  booking_date: string;
  issued_at: string;
  status: PolicyListStatus;
  group_name: string | null;
  premium: number;
  currency: string;
  client: { id: string; name: string };
  campus: { id: string; name: string };
  product: { id: string; code: string; name: string };
  residence_country: { code: string; name: string } | null;
}

function shape(r: RawRow, today: string): PolicyListRow {
  return {
    id: r.id,
    id_numeric: r.id_numeric,
    policy_number: r.policy_number,
    type: r.type,
    first_name: r.first_name,
    last_name: r.last_name,
    full_name: `${r.first_name} ${r.last_name}`,
    product_code: r.product_code,
    date_of_birth: r.date_of_birth,
    gender: r.gender,
    email: r.email,
    passport_number: r.passport_number,
    student_number: r.student_number,
    address: r.destination_address,
    residence_country_id: r.residence_country_id,
    destination_country_id: r.destination_country_id,
    start_date: r.start_date,
    end_date: r.end_date,
    booking_date: r.booking_date,
    issued_at: new Date(Number(r.issued_at)).toISOString(),
    status: policyStatus({ ...r, status: r.stored_status }, today),
    group_name: r.group_name,
    premium: r.premium_minor / 100,
    currency: r.currency,
    client: { id: r.client_id, name: r.client_name },
    campus: { id: r.campus_id, name: r.campus_name },
    product: { id: r.product_id, code: r.product_code, name: r.product_name },
    residence_country: r.residence_country_code
      ? { code: r.residence_country_code, name: r.residence_country_name ?? r.residence_country_code }
      : null,
  };
}

function listSelect(ctx: ActorCtx) {
  return ctx.db
    .select(rowColumns)
    .from(policies)
    .innerJoin(clients, eq(clients.id, policies.client_id))
    .innerJoin(campuses, eq(campuses.id, policies.campus_id))
    .innerJoin(products, eq(products.id, policies.product_id))
    .leftJoin(residence, eq(residence.id, policies.residence_country_id));
}

const SORTABLE = {
  policy_number: policies.policy_number,
  full_name: policies.last_name,
  start_date: policies.start_date,
  end_date: policies.end_date,
  issued_at: policies.issued_at,
  booking_date: policies.booking_date,
};

/**
 * The insureds list: one page of the policies matching the filters, in the actor's scope. The rows are
 * read in two steps (the page's ids from the policies table alone, then their joined rows), so the
 * filter, the sort and the count run on the policies indexes only.
 */
/** The two statements of a list page: the page's ids (filtered, sorted) and the count. */
export function listStatements(ctx: ActorCtx, query: PolicyListQuery) {
  const where = policyConditions(ctx, query);
  const order = orderBy(query.order, SORTABLE, POLICY_DEFAULT_ORDER, policies.id);
  return {
    rows: (limit: number, offset: number) =>
      ctx.db
        .select({ id: policies.id })
        .from(policies)
        .where(where)
        .orderBy(...order)
        .limit(limit)
        .offset(offset),
    count: ctx.db
      .select({ total: sql<number>`count(*)` })
      .from(policies)
      .where(where),
  };
}

export async function listPolicies(ctx: ActorCtx, query: PolicyListQuery): Promise<Page<PolicyListRow>> {
  requirePermission(ctx.actor, READ);
  const today = todayIso(ctx.now);
  const page = await paginate<{ id: number }>(ctx.db, query, listStatements(ctx, query));
  const ids = page.items.map((r) => r.id);
  if (!ids.length) return { items: [], meta: page.meta };
  const rows = await listSelect(ctx).where(inJson(policies.id, ids));
  const byId = new Map(rows.map((r) => [r.id_numeric, r as RawRow]));
  return {
    meta: page.meta,
    items: ids.map((id) => shape(byId.get(id)!, today)),
  };
}

/** At most this many rows in one export (a larger one is refused: 'An error occurred while downloading insureds'). */
export const EXPORT_LIMIT = 50_000;

/** Every policy matching the filters (the .xlsx export), in the list's order. */
export async function exportPolicies(ctx: ActorCtx, query: PolicyListQuery): Promise<PolicyListRow[]> {
  requirePermission(ctx.actor, READ);
  const today = todayIso(ctx.now);
  const where = policyConditions(ctx, query);
  const [{ total }] = await ctx.db
    .select({ total: sql<number>`count(*)` })
    .from(policies)
    .where(where);
  if (Number(total) > EXPORT_LIMIT)
    throw ValidationFailed.field('policies', msg('insureds.errors.download_failed'));
  const rows = await listSelect(ctx)
    .where(where)
    .orderBy(...orderBy(query.order, SORTABLE, POLICY_DEFAULT_ORDER, policies.id));
  return rows.map((r) => shape(r as RawRow, today));
}

/** The policies named by public ids (`POST policies/list`), in the actor's scope; unknown ids are left out. */
export async function policiesByIds(ctx: ActorCtx, ids: readonly string[]): Promise<PolicyListRow[]> {
  requirePermission(ctx.actor, READ);
  if (!ids.length) return [];
  const today = todayIso(ctx.now);
  const rows = await listSelect(ctx)
    .where(and(visiblePolicies(ctx.actor), inJson(policies.public_id, ids)))
    .orderBy(asc(policies.policy_number));
  return rows.map((r) => shape(r as RawRow, today));
}

export { groupNames, policySummary, type PolicySummary } from './overview';

// ---------------------------------------------------------------- one policy

/** A short view of a related policy (family, linked policies, the same person's other policies). */
export interface PolicySummaryRow {
  id: string;
  policy_number: string;
  first_name: string;
  last_name: string;
  full_name: string;
  type: string;
  status: PolicyListStatus;
  start_date: string;
  end_date: string;
  product: { code: string; name: string };
}

const summaryColumns = {
  id: policies.public_id,
  policy_number: policies.policy_number,
  first_name: policies.first_name,
  last_name: policies.last_name,
  type: policies.type,
  stored_status: policies.status,
  start_date: policies.start_date,
  end_date: policies.end_date,
  product_code: sql<string>`${products.code}`.as('product_code'),
  product_name: sql<string>`${products.name}`.as('product_name'),
};

async function summaries(ctx: ActorCtx, where: SQL): Promise<PolicySummaryRow[]> {
  const today = todayIso(ctx.now);
  const rows = await ctx.db
    .select(summaryColumns)
    .from(policies)
    .innerJoin(products, eq(products.id, policies.product_id))
    .where(and(visiblePolicies(ctx.actor), where))
    .orderBy(desc(policies.start_date), asc(policies.id))
    .limit(200);
  return rows.map((r) => ({
    id: r.id,
    policy_number: r.policy_number,
    first_name: r.first_name,
    last_name: r.last_name,
    full_name: `${r.first_name} ${r.last_name}`,
    type: r.type,
    status: policyStatus({ ...r, status: r.stored_status }, today),
    start_date: r.start_date,
    end_date: r.end_date,
    product: { code: r.product_code, name: r.product_name },
  }));
}

export type PolicyRecord = Awaited<ReturnType<typeof findPolicy>>;

/** The policy with what its page shows around it (names of its client, campus, product, countries). */
export async function getPolicy(ctx: ActorCtx, id: string) {
  const p = await findPolicy(ctx, id, READ);
  const today = todayIso(ctx.now);
  const [row] = await ctx.db
    .select({
      client_id: sql<string>`${clients.public_id}`.as('client_public_id'),
      client_name: sql<string>`${clients.name}`.as('client_name'),
      campus_id: sql<string>`${campuses.public_id}`.as('campus_public_id'),
      campus_name: sql<string>`${campuses.name}`.as('campus_name'),
      product_id: sql<string>`${products.public_id}`.as('product_public_id'),
      product_code: sql<string>`${products.code}`.as('product_code'),
      product_name: sql<string>`${products.name}`.as('product_name'),
      contract_id: sql<string>`${contracts.public_id}`.as('contract_public_id'),
      contract_name: sql<string>`${contracts.name}`.as('contract_name'),
      batch_id: sql<string>`${policyBatches.public_id}`.as('batch_public_id'),
      residence_name: sql<string | null>`${residence.name}`.as('residence_name'),
      residence_code: sql<string | null>`${residence.code}`.as('residence_code'),
      destination_name: sql<string | null>`${destination.name}`.as('destination_name'),
      destination_code: sql<string | null>`${destination.code}`.as('destination_code'),
      cancelled_by_first: sql<string | null>`${users.first_name}`.as('cancelled_by_first'),
      cancelled_by_last: sql<string | null>`${users.last_name}`.as('cancelled_by_last'),
    })
    .from(policies)
    .innerJoin(clients, eq(clients.id, policies.client_id))
    .innerJoin(campuses, eq(campuses.id, policies.campus_id))
    .innerJoin(products, eq(products.id, policies.product_id))
    .innerJoin(contracts, eq(contracts.id, policies.contract_id))
    .innerJoin(policyBatches, eq(policyBatches.id, policies.batch_id))
    .leftJoin(residence, eq(residence.id, policies.residence_country_id))
    .leftJoin(destination, eq(destination.id, policies.destination_country_id))
    .leftJoin(users, eq(users.id, policies.cancelled_by))
    .where(eq(policies.id, p.id));
  const [leader] = p.group_leader_id ? await summaries(ctx, eq(policies.id, p.group_leader_id)) : [];
  const [dependency] = p.dependency_id ? await summaries(ctx, eq(policies.id, p.dependency_id)) : [];
  return {
    id: p.public_id,
    id_numeric: p.id,
    policy_number: p.policy_number,
    version: p.version,
    type: p.type,
    first_name: p.first_name,
    last_name: p.last_name,
    full_name: `${p.first_name} ${p.last_name}`,
    date_of_birth: p.date_of_birth,
    gender: p.gender,
    email: p.email,
    personal_email: p.personal_email,
    phone_country: p.phone_country,
    phone_number: p.phone_number,
    passport_number: p.passport_number,
    residence_country_id: p.residence_country_id,
    destination_country_id: p.destination_country_id,
    residence_country: row.residence_code ? { code: row.residence_code, name: row.residence_name } : null,
    destination_country: row.destination_code
      ? { code: row.destination_code, name: row.destination_name }
      : null,
    start_date: p.start_date,
    end_date: p.end_date,
    destination_address: p.destination_address,
    student_number: p.student_number,
    plan: p.plan,
    year_of_study: p.year_of_study,
    group_name: p.group_name,
    status: policyStatus(p, today),
    premium: p.premium_minor / 100,
    net: p.net_minor / 100,
    tax: p.tax_minor / 100,
    currency: p.currency,
    booking_date: p.booking_date,
    issued_at: p.issued_at.toISOString(),
    welcome_email_sent_at: p.welcome_email_sent_at?.toISOString() ?? null,
    cancelled_at: p.cancelled_at?.toISOString() ?? null,
    cancelled_by: row.cancelled_by_first
      ? `${row.cancelled_by_first} ${row.cancelled_by_last ?? ''}`.trim()
      : null,
    cancel_reason: p.cancel_reason,
    updated_at: p.updated_at.toISOString(),
    client: { id: row.client_id, name: row.client_name },
    campus: { id: row.campus_id, name: row.campus_name },
    product: { id: row.product_id, code: row.product_code, name: row.product_name },
    contract: { id: row.contract_id, name: row.contract_name },
    policy_batch_id: row.batch_id,
    group_leader: leader ?? null,
    dependency: dependency ?? null,
  };
}
export type PolicyDetail = Awaited<ReturnType<typeof getPolicy>>;

/** The same person: same first name, last name and date of birth within the client (another policy). */
function samePerson(p: PolicyRecord): SQL {
  return and(
    eq(policies.client_id, p.client_id),
    sql`${policies.last_name} = ${p.last_name} COLLATE NOCASE`,
    sql`${policies.first_name} = ${p.first_name} COLLATE NOCASE`,
    eq(policies.date_of_birth, p.date_of_birth),
    ne(policies.id, p.id),
  )!;
}

/**
 * The same person's other policies, by state: active and not started (`read_active_policy`), expired
 * (`read_past_policy`), cancelled (`read_cancelled_policy`). A list the actor may not read is null.
 */
export async function personPolicies(ctx: ActorCtx, id: string) {
  const p = await findPolicy(ctx, id, READ);
  const all = await summaries(ctx, samePerson(p));
  const pick = (permission: string, statuses: PolicyListStatus[]) =>
    can(ctx.actor, permission as never) ? all.filter((r) => statuses.includes(r.status)) : null;
  return {
    active_policies: pick('read_active_policy', ['active', 'not_started']),
    previous_policies: pick('read_past_policy', ['expired']),
    cancelled_policies: pick('read_cancelled_policy', ['cancelled']),
  };
}

/**
 * Immediate family members: the dependants of this insured, or, for a family member, the insured they
 * depend on and the other dependants of that insured.
 */
export async function immediateFamily(ctx: ActorCtx, id: string): Promise<PolicySummaryRow[]> {
  const p = await findPolicy(ctx, id, READ);
  const head = p.dependency_id ?? p.id;
  return summaries(
    ctx,
    and(
      ne(policies.id, p.id),
      sql`(${policies.dependency_id} = ${head} OR ${policies.id} = ${p.dependency_id ?? -1})`,
    )!,
  );
}

/** Linked policies: the insured's group leader, and the insureds this one leads. */
export async function linkedPolicies(ctx: ActorCtx, id: string) {
  const p = await findPolicy(ctx, id, READ);
  const [leader] = p.group_leader_id ? await summaries(ctx, eq(policies.id, p.group_leader_id)) : [];
  const led = await summaries(ctx, eq(policies.group_leader_id, p.id));
  return { group_leader: leader ?? null, led_insureds: led, led_count: led.length };
}

/** The policies issued from one policy batch (`policies/in-batch/{batch id}`). */
export async function policiesInBatch(ctx: ActorCtx, batchId: string): Promise<PolicyListRow[]> {
  requirePermission(ctx.actor, READ);
  const [batch] = await ctx.db
    .select({ id: policyBatches.id })
    .from(policyBatches)
    .where(eq(policyBatches.public_id, batchId))
    .limit(1);
  if (!batch) throw new NotFound();
  const today = todayIso(ctx.now);
  const rows = await listSelect(ctx)
    .where(and(visiblePolicies(ctx.actor), eq(policies.batch_id, batch.id)))
    .orderBy(asc(policies.policy_number));
  if (!rows.length) throw new NotFound();
  return rows.map((r) => shape(r as RawRow, today));
}

/** The groups (`policies/groups`): each group name with its insureds' count and group leaders. */
export async function policyGroups(ctx: ActorCtx) {
  requirePermission(ctx.actor, READ);
  const rows = await ctx.db
    .select({
      group_name: policies.group_name,
      insureds: sql<number>`count(*)`,
      group_leaders: sql<number>`sum(CASE WHEN ${policies.type} = 'group_leader' THEN 1 ELSE 0 END)`,
      start_date: sql<string>`min(${policies.start_date})`,
      end_date: sql<string>`max(${policies.end_date})`,
    })
    .from(policies)
    .where(
      and(
        visiblePolicies(ctx.actor),
        sql`${policies.group_name} IS NOT NULL AND trim(${policies.group_name}) <> ''`,
      ),
    )
    .groupBy(policies.group_name)
    .orderBy(asc(policies.group_name));
  return rows.map((r) => ({
    group_name: r.group_name!,
    insureds: Number(r.insureds),
    group_leaders: Number(r.group_leaders),
    start_date: r.start_date,
    end_date: r.end_date,
  }));
}

// ---------------------------------------------------------------- the Logs tab

export interface PolicyTransactionRow {
  id: string;
  kind: string;
  effective_date: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  premium_diff: number;
  tax_diff: number;
  tax_rate: number | null;
  currency: string;
  document_version: number;
  user: string | null;
  created_at: string;
}

/** The policy's transactions, newest first (every change with its before and after). */
export async function policyTransactionsOf(
  ctx: ActorCtx,
  id: string,
  page = 1,
): Promise<Page<PolicyTransactionRow>> {
  const p = await findPolicy(ctx, id, READ);
  const where = eq(policyTransactions.policy_id, p.id);
  const list = await paginate<{
    t: typeof policyTransactions.$inferSelect;
    first_name: string | null;
    last_name: string | null;
  }>(
    ctx.db,
    { page, items: 25 },
    {
      rows: (limit, offset) =>
        ctx.db
          .select({ t: policyTransactions, first_name: users.first_name, last_name: users.last_name })
          .from(policyTransactions)
          .leftJoin(users, eq(users.id, policyTransactions.user_id))
          .where(where)
          .orderBy(desc(policyTransactions.created_at), desc(policyTransactions.id))
          .limit(limit)
          .offset(offset),
      count: ctx.db
        .select({ total: sql<number>`count(*)` })
        .from(policyTransactions)
        .where(where),
    },
  );
  return {
    meta: list.meta,
    items: list.items.map(({ t, first_name, last_name }) => ({
      id: t.public_id,
      kind: t.kind,
      effective_date: t.effective_date,
      before: t.before,
      after: t.after,
      premium_diff: t.premium_diff_minor / 100,
      tax_diff: t.tax_diff_minor / 100,
      tax_rate: t.tax_rate,
      currency: t.currency,
      document_version: t.document_version,
      user: first_name ? `${first_name} ${last_name ?? ''}`.trim() : null,
      created_at: t.created_at.toISOString(),
    })),
  };
}

// ---------------------------------------------------------------- the list's filter choices

/** The choices of the list's filters: products under the actor's contracts, clients and campuses in view, countries. */
export async function policyFilterOptions(ctx: ActorCtx) {
  requirePermission(ctx.actor, READ);
  const company = ctx.actor.user_type === 'company';
  const [productRows, clientRows, campusRows, countryRows] = await Promise.all([
    ctx.db
      .selectDistinct({ id: products.public_id, code: products.code, name: products.name })
      .from(products)
      .innerJoin(contracts, eq(contracts.product_id, products.id))
      .where(contractScope(ctx.actor))
      .orderBy(asc(products.name)),
    company
      ? ctx.db
          .select({ id: clients.public_id, name: clients.name })
          .from(clients)
          .where(visibleClients(ctx.actor))
          .orderBy(asc(clients.name))
      : Promise.resolve([] as { id: string; name: string }[]),
    ctx.db
      .select({ id: campuses.public_id, name: campuses.name, client: clients.name })
      .from(campuses)
      .innerJoin(clients, eq(clients.id, campuses.client_id))
      .where(visibleCampus(ctx.actor))
      .orderBy(asc(clients.name), asc(campuses.name)),
    countryOptions(ctx.db),
  ]);
  return {
    products: productRows,
    clients: clientRows,
    campuses: campusRows,
    countries: countryRows.map((c) => ({ id: String(c.id), name: c.name })),
  };
}

/**
 * The person of a policy as the order form's fields (for "add a policy for the same person"): names,
 * birth date, contact, passport, countries and student number; the trip is for the user to choose.
 */
export async function personOfPolicy(ctx: ActorCtx, id: string): Promise<Record<string, string>> {
  const p = await findPolicy(ctx, id, READ);
  const fields = [
    'type',
    'first_name',
    'last_name',
    'date_of_birth',
    'gender',
    'email',
    'personal_email',
    'phone_country',
    'phone_number',
    'passport_number',
    'residence_country_id',
    'destination_country_id',
    'student_number',
    'plan',
    'year_of_study',
  ] as const;
  return Object.fromEntries(fields.map((f) => [f, p[f] == null ? '' : String(p[f])]));
}
