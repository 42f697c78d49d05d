/**
 * Reading the batches and enrollments not yet checked out (spec 002 s.7 "Policy batches and
 * enrollments"): a batch with its overview and fees, its applicants listed and paged with their errors,
 * one applicant, and what the group-leader step offers. Every read is in the actor's campus scope.
 */
import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import {
  campuses,
  clients,
  contracts,
  countries,
  enrollments,
  imports,
  policyBatches,
  products,
} from '../../../drizzle/schema';
import type { EnrollmentError } from '../../../drizzle/schema/ordering-enums';
import { inJson } from '../../platform/db';
import { requirePermission } from '../access/actor';
import { visibleCampus } from '../access/scope';
import type { ActorCtx } from '../context';
import { NotFound } from '../errors';
import { paginate, type Page } from '../lists';
import { msg } from '../validation';
import { ORDER_PERMISSION, findVisibleBatch, type BatchRow, type EnrollmentRow } from './batches';
import type { EnrollmentListQuery } from './inputs';

/** Who may read batches and enrollments: those who order, and those who read insureds or policies. */
export const READ_ORDER_PERMISSION = `${ORDER_PERMISSION}|read_insured|read_policy`;

const leader = alias(enrollments, 'group_leader');
const dependency = alias(enrollments, 'dependency');
const residence = alias(countries, 'residence');
const destination = alias(countries, 'destination');

/** A batch as pages and the API show it. */
export async function getBatch(ctx: ActorCtx, id: string) {
  const batch = await findVisibleBatch(ctx, id);
  return presentBatch(ctx, batch);
}

export async function presentBatch(ctx: ActorCtx, batch: BatchRow) {
  const [row] = await ctx.db
    .select({
      campus_id: sql<string>`${campuses.public_id}`.as('campus_public_id'),
      campus_name: sql<string>`${campuses.name}`.as('campus_name'),
      client_id: sql<string>`${clients.public_id}`.as('client_public_id'),
      client_name: sql<string>`${clients.name}`.as('client_name'),
      contract_id: sql<string>`${contracts.public_id}`.as('contract_public_id'),
      contract_name: sql<string>`${contracts.name}`.as('contract_name'),
      currency: contracts.currency,
      start_date: contracts.start_date,
      end_date: contracts.end_date,
      product_id: sql<string>`${products.public_id}`.as('product_public_id'),
      product_code: products.code,
      product_name: sql<string>`${products.name}`.as('product_name'),
      import_id: sql<string | null>`${imports.public_id}`.as('import_public_id'),
    })
    .from(policyBatches)
    .innerJoin(campuses, eq(campuses.id, policyBatches.campus_id))
    .innerJoin(clients, eq(clients.id, policyBatches.client_id))
    .innerJoin(contracts, eq(contracts.id, policyBatches.contract_id))
    .innerJoin(products, eq(products.id, contracts.product_id))
    .leftJoin(imports, eq(imports.id, policyBatches.import_id))
    .where(eq(policyBatches.id, batch.id));
  if (!row) throw new NotFound(msg('enrollments.errors.batch_not_found'));
  return {
    id: batch.public_id,
    id_numeric: batch.id,
    status: batch.status,
    source: batch.source,
    import_id: row.import_id,
    contract_id: row.contract_id,
    contact_source: batch.contact_source,
    conversation_id: batch.conversation_id,
    send_welcome_email: batch.send_welcome_email,
    // Policy numbers are given when the batch is checked out (one per insured).
    policy_number: null,
    campus: { id: row.campus_id, name: row.campus_name },
    client: { id: row.client_id, name: row.client_name },
    contract: {
      id: row.contract_id,
      name: row.contract_name,
      start_date: row.start_date,
      end_date: row.end_date,
      currency: row.currency,
    },
    product: { id: row.product_id, code: row.product_code, name: row.product_name },
    created_at: batch.created_at,
    opened_at: batch.opened_at,
    confirmed_at: batch.confirmed_at,
  };
}
export type BatchView = Awaited<ReturnType<typeof presentBatch>>;

/** policy-batches/{id}/enrollments/overview: counts by type, errors, and the fees in total. */
export async function batchOverview(ctx: ActorCtx, id: string) {
  const batch = await findVisibleBatch(ctx, id);
  const [[totals], [contract]] = await Promise.all([
    ctx.db
      .select({
        total: sql<number>`count(*)`,
        with_errors: sql<number>`coalesce(sum(case when ${enrollments.error_count} > 0 then 1 else 0 end), 0)`,
        students: sql<number>`coalesce(sum(case when ${enrollments.type} = 'student' then 1 else 0 end), 0)`,
        family: sql<number>`coalesce(sum(case when ${enrollments.type} = 'immediate_family' then 1 else 0 end), 0)`,
        group_leaders: sql<number>`coalesce(sum(case when ${enrollments.type} = 'group_leader' then 1 else 0 end), 0)`,
        premium_minor: sql<number>`coalesce(sum(${enrollments.fee_minor}), 0)`,
        tax_minor: sql<number>`coalesce(sum(${enrollments.tax_minor}), 0)`,
        stamp_duty_minor: sql<number>`coalesce(sum(${enrollments.stamp_duty_minor}), 0)`,
      })
      .from(enrollments)
      .where(eq(enrollments.batch_id, batch.id)),
    ctx.db
      .select({ currency: contracts.currency })
      .from(contracts)
      .where(eq(contracts.id, batch.contract_id)),
  ]);
  const n = (v: unknown) => Number(v ?? 0);
  const premium = n(totals?.premium_minor);
  const tax = n(totals?.tax_minor);
  return {
    policy_batch: { id: batch.public_id, status: batch.status },
    total: n(totals?.total),
    with_errors: n(totals?.with_errors),
    without_errors: n(totals?.total) - n(totals?.with_errors),
    students: n(totals?.students),
    immediate_family: n(totals?.family),
    group_leaders: n(totals?.group_leaders),
    fees: money(premium, tax, contract?.currency ?? 'GBP', n(totals?.stamp_duty_minor)),
  };
}

/** Minor-unit amounts with their major-unit values, as pages and the API show money. */
export function money(premiumMinor: number, taxMinor: number, currency: string, stampDutyMinor = 0) {
  const total = premiumMinor + taxMinor + stampDutyMinor;
  return {
    premium_minor: premiumMinor,
    tax_minor: taxMinor,
    stamp_duty_minor: stampDutyMinor,
    total_minor: total,
    premium: premiumMinor / 100,
    tax: taxMinor / 100,
    stamp_duty: stampDutyMinor / 100,
    total: total / 100,
    currency,
  };
}

const enrollmentColumns = {
  enrollment: enrollments,
  batch_public_id: sql<string>`${policyBatches.public_id}`.as('batch_public_id'),
  batch_status: sql<string>`${policyBatches.status}`.as('batch_status'),
  campus_public_id: sql<string>`${campuses.public_id}`.as('campus_public_id'),
  campus_name: sql<string>`${campuses.name}`.as('campus_name'),
  currency: sql<string>`${contracts.currency}`.as('contract_currency'),
  leader_public_id: sql<string | null>`${leader.public_id}`.as('leader_public_id'),
  leader_first_name: sql<string | null>`${leader.first_name}`.as('leader_first_name'),
  leader_last_name: sql<string | null>`${leader.last_name}`.as('leader_last_name'),
  dependency_public_id: sql<string | null>`${dependency.public_id}`.as('dependency_public_id'),
  dependency_first_name: sql<string | null>`${dependency.first_name}`.as('dependency_first_name'),
  dependency_last_name: sql<string | null>`${dependency.last_name}`.as('dependency_last_name'),
  residence_name: sql<string | null>`${residence.name}`.as('residence_name'),
  destination_name: sql<string | null>`${destination.name}`.as('destination_name'),
};

function enrollmentQuery(ctx: ActorCtx) {
  return ctx.db
    .select(enrollmentColumns)
    .from(enrollments)
    .innerJoin(policyBatches, eq(policyBatches.id, enrollments.batch_id))
    .innerJoin(campuses, eq(campuses.id, policyBatches.campus_id))
    .innerJoin(clients, eq(clients.id, campuses.client_id))
    .innerJoin(contracts, eq(contracts.id, policyBatches.contract_id))
    .leftJoin(leader, eq(leader.id, enrollments.group_leader_id))
    .leftJoin(dependency, eq(dependency.id, enrollments.dependency_id))
    .leftJoin(residence, eq(residence.id, enrollments.residence_country_id))
    .leftJoin(destination, eq(destination.id, enrollments.destination_country_id));
}

interface EnrollmentJoined {
  enrollment: EnrollmentRow;
  batch_public_id: string;
  batch_status: string;
  campus_public_id: string;
  campus_name: string;
  currency: string;
  leader_public_id: string | null;
  leader_first_name: string | null;
  leader_last_name: string | null;
  dependency_public_id: string | null;
  dependency_first_name: string | null;
  dependency_last_name: string | null;
  residence_name: string | null;
  destination_name: string | null;
}

const fullName = (first: string | null, last: string | null) =>
  [first, last].filter(Boolean).join(' ') || null;

/** An enrollment as pages and the API show it: public ids, its errors, its links and its fee. */
export function presentEnrollment(r: EnrollmentJoined) {
  const e = r.enrollment;
  return {
    id: e.public_id,
    id_numeric: e.id,
    batch_id: r.batch_public_id,
    policy_batch: { id: r.batch_public_id, status: r.batch_status },
    position: e.position,
    type: e.type,
    first_name: e.first_name,
    last_name: e.last_name,
    full_name: fullName(e.first_name, e.last_name),
    date_of_birth: e.date_of_birth,
    gender: e.gender,
    email: e.email,
    personal_email: e.personal_email,
    phone_country: e.phone_country,
    phone_number: e.phone_number,
    passport_number: e.passport_number,
    residence_country_id: e.residence_country_id,
    residence_country: r.residence_name,
    destination_country_id: e.destination_country_id,
    destination_country: r.destination_name,
    start_date: e.start_date,
    end_date: e.end_date,
    destination_address: e.destination_address,
    student_number: e.student_number,
    plan: e.plan,
    year_of_study: e.year_of_study,
    group_name: e.group_name,
    data: { date_of_birth: e.date_of_birth, start_date: e.start_date, end_date: e.end_date },
    errors: e.errors ?? [],
    error_count: e.error_count,
    group_leader_id: r.leader_public_id,
    group_leader_name: fullName(r.leader_first_name, r.leader_last_name),
    dependency_id: r.dependency_public_id,
    dependency_name: fullName(r.dependency_first_name, r.dependency_last_name),
    fee:
      e.fee_minor == null ? null : money(e.fee_minor, e.tax_minor ?? 0, r.currency, e.stamp_duty_minor ?? 0),
    campus: { id: r.campus_public_id, name: r.campus_name },
    created_at: e.created_at,
  };
}
export type EnrollmentView = ReturnType<typeof presentEnrollment>;

/** An enrollment error as a message (key with its parameters) for a page or the API to render. */
export function errorMessage(e: EnrollmentError): string {
  return msg(e.message, e.params);
}

/**
 * The enrollments of one batch (or, without `policy_batch`, of the actor's cart), in order, a page at a
 * time (500 by default: spec 002 s.9).
 */
export async function listEnrollments(
  ctx: ActorCtx,
  q: Pick<EnrollmentListQuery, 'page' | 'items'> & { policy_batch?: string; only_errors?: boolean },
  scope?: SQL,
): Promise<Page<EnrollmentView>> {
  requirePermission(ctx.actor, READ_ORDER_PERMISSION);
  let where: SQL | undefined;
  if (q.policy_batch) {
    const batch = await findVisibleBatch(ctx, q.policy_batch);
    where = eq(enrollments.batch_id, batch.id);
  } else {
    where = scope ? and(scope, visibleCampus(ctx.actor)) : cartScope(ctx);
  }
  if (q.only_errors) where = and(where, sql`${enrollments.error_count} > 0`);
  const page = await paginate(ctx.db, q, {
    // Apart: the page's select joins tables whose columns share names (see paginate).
    apart: true,
    rows: (limit, offset) =>
      enrollmentQuery(ctx)
        .where(where)
        .orderBy(
          asc(policyBatches.opened_at),
          asc(policyBatches.id),
          asc(enrollments.position),
          asc(enrollments.id),
        )
        .limit(limit)
        .offset(offset),
    count: ctx.db
      .select({ total: sql<number>`count(*)` })
      .from(enrollments)
      .innerJoin(policyBatches, eq(policyBatches.id, enrollments.batch_id))
      .innerJoin(campuses, eq(campuses.id, policyBatches.campus_id))
      .innerJoin(clients, eq(clients.id, campuses.client_id))
      .where(where),
  });
  return { ...page, items: page.items.map(presentEnrollment) };
}

/**
 * The actor's cart: the open batches they put there, on campuses they may still see. The cart page,
 * its badge and checkout all read it (the query joins the batch's campus).
 */
export function cartScope(ctx: ActorCtx): SQL {
  return and(
    eq(policyBatches.created_by, ctx.actor.user_id),
    eq(policyBatches.status, 'open'),
    visibleCampus(ctx.actor),
  )!;
}

/** enrollments/{id}. */
export async function getEnrollment(ctx: ActorCtx, id: string): Promise<EnrollmentView> {
  requirePermission(ctx.actor, READ_ORDER_PERMISSION);
  const [row] = await enrollmentQuery(ctx)
    .where(and(eq(enrollments.public_id, id), visibleCampus(ctx.actor)))
    .limit(1);
  if (!row) throw new NotFound(msg('order.errors.enrollment_not_found'));
  return presentEnrollment(row);
}

/** Enrollments by public id with their batches, all in the actor's scope; any id not found: NotFound. */
export async function findVisibleEnrollments(ctx: ActorCtx, ids: readonly string[]) {
  const unique = [...new Set(ids)];
  const rows = unique.length
    ? await ctx.db
        .select({ enrollment: enrollments, batch: policyBatches })
        .from(enrollments)
        .innerJoin(policyBatches, eq(policyBatches.id, enrollments.batch_id))
        .innerJoin(campuses, eq(campuses.id, policyBatches.campus_id))
        .innerJoin(clients, eq(clients.id, campuses.client_id))
        .where(and(inJson(enrollments.public_id, unique), visibleCampus(ctx.actor)))
    : [];
  if (rows.length !== unique.length) throw new NotFound(msg('order.errors.enrollment_not_found'));
  return rows;
}

/**
 * What the group-leader step offers for a batch: its group leaders, and the other applicants with the
 * leader each has now. One light query, however many applicants (a sheet has up to 5000).
 */
export async function groupLeaderChoices(ctx: ActorCtx, batchId: string) {
  const batch = await findVisibleBatch(ctx, batchId);
  const rows = await ctx.db
    .select({
      id: enrollments.public_id,
      type: enrollments.type,
      first_name: enrollments.first_name,
      last_name: enrollments.last_name,
      leader_first_name: sql<string | null>`${leader.first_name}`.as('leader_first_name'),
      leader_last_name: sql<string | null>`${leader.last_name}`.as('leader_last_name'),
    })
    .from(enrollments)
    .leftJoin(leader, eq(leader.id, enrollments.group_leader_id))
    .where(eq(enrollments.batch_id, batch.id))
    .orderBy(asc(enrollments.position), asc(enrollments.id));
  const named = rows.map((r) => ({
    id: r.id,
    type: r.type,
    name: fullName(r.first_name, r.last_name) ?? '—',
    group_leader_name: fullName(r.leader_first_name, r.leader_last_name),
  }));
  return {
    leaders: named.filter((r) => r.type === 'group_leader').map(({ id, name }) => ({ id, name })),
    members: named.filter((r) => r.type !== 'group_leader'),
  };
}
