/**
 * The SQL of the insureds list's filters (list-query.ts) inside the actor's tenant scope, shared by the
 * list, its export, its summary and every bulk action's "all matching": one definition of "the policies
 * this user is looking at". Ids in a selection are always re-read through the same scope, so a bulk action
 * never reaches a policy the user cannot see.
 */
import { and, eq, gte, lte, sql, type SQL } from 'drizzle-orm';
import { inJson } from '../../platform/db';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { campuses, clients, countries, policies, policyBatches, products } from '../../../drizzle/schema';
import { visiblePolicies } from '../access/scope';
import type { ActorCtx } from '../context';
import type { BulkSelection } from '../list-query';
import { todayIso } from '../validation';
import type { PolicyListQuery, PolicyListStatus } from './list-query';

/** Epoch ms of the start of a YYYY-MM-DD day (UTC), and of the next day. */
const dayStart = (d: string) => Date.parse(`${d}T00:00:00Z`);
const dayAfter = (d: string) => dayStart(d) + 86_400_000;

/** A case-insensitive "begins with" (LIKE; the list bench checks the plan it gets). */
function beginsWith(column: SQLiteColumn, prefix: string): SQL {
  return sql`${column} LIKE ${prefix.replace(/[\\%_]/g, (c) => `\\${c}`) + '%'} ESCAPE '\\'`;
}

/**
 * The status condition, from the dates and the stored status (policies/status.ts says the same). The
 * columns are compared as `+column` so the planner does not pick an index of one of them to fetch a
 * page's rows (tens of thousands of matches, then sorted by issue date): a page walks the issue-date index
 * and stops at its 25 rows; the count and the summary read the (scope, status, start, end) index alone,
 * as a covering index.
 */
export function statusCondition(status: PolicyListStatus, today: string): SQL {
  const stored = (value: 'issued' | 'cancelled') => sql`+${policies.status} = ${value}`;
  switch (status) {
    case 'cancelled':
      return stored('cancelled');
    case 'expired':
      return and(stored('issued'), sql`+${policies.end_date} < ${today}`)!;
    case 'not_started':
      return and(stored('issued'), sql`+${policies.start_date} > ${today}`)!;
    case 'active':
      return and(
        stored('issued'),
        sql`+${policies.start_date} <= ${today}`,
        sql`+${policies.end_date} >= ${today}`,
      )!;
  }
}

/**
 * Every condition of the list: the scope first, then each filter given. Filters naming another record by
 * public id (client, campus, product, country) are sub-selects, so an unknown id matches nothing.
 */
export function policyConditions(ctx: ActorCtx, query: PolicyListQuery): SQL {
  const today = todayIso(ctx.now);
  const c: (SQL | undefined)[] = [visiblePolicies(ctx.actor)];
  if (query.policy_id) {
    // Policy numbers are upper-case ASCII: a binary range on the unique index (LIKE would need NOCASE).
    const from = query.policy_id.toUpperCase();
    c.push(gte(policies.policy_number, from), sql`${policies.policy_number} < ${from + '\uffff'}`);
  }
  if (query.first_name) c.push(beginsWith(policies.first_name, query.first_name));
  if (query.last_name) c.push(beginsWith(policies.last_name, query.last_name));
  // likelihood(): a hint that the term is selective, so a page reads the (scope, campus | group) index and
  // sorts the few matches rather than walking every policy in issue order (no statistics tell it so).
  if (query.group_name) c.push(sql`likelihood(${eq(policies.group_name, query.group_name)}, 0.05)`);
  if (query.type) c.push(inJson(policies.type, query.type));
  if (query.status) c.push(statusCondition(query.status, today));
  if (query.residence_country)
    c.push(
      sql`${policies.residence_country_id} = (SELECT ${countries.id} FROM ${countries} WHERE ${countries.code} = ${query.residence_country} OR ${countries.abbreviation} = ${query.residence_country} OR CAST(${countries.id} AS TEXT) = ${query.residence_country} LIMIT 1)`,
    );
  if (query.product)
    c.push(
      sql`${policies.product_id} = (SELECT ${products.id} FROM ${products} WHERE ${products.public_id} = ${query.product})`,
    );
  if (query.client)
    c.push(
      sql`${policies.client_id} = (SELECT ${clients.id} FROM ${clients} WHERE ${clients.public_id} = ${query.client})`,
    );
  if (query.campus)
    c.push(
      sql`likelihood(${policies.campus_id} = (SELECT ${campuses.id} FROM ${campuses} WHERE ${campuses.public_id} = ${query.campus}), 0.05)`,
    );
  if (query.policy_batch)
    c.push(
      sql`${policies.batch_id} = (SELECT ${policyBatches.id} FROM ${policyBatches} WHERE ${policyBatches.public_id} = ${query.policy_batch})`,
    );
  if (query.start_from) c.push(gte(policies.start_date, query.start_from));
  if (query.start_to) c.push(lte(policies.start_date, query.start_to));
  if (query.end_from) c.push(gte(policies.end_date, query.end_from));
  if (query.end_to) c.push(lte(policies.end_date, query.end_to));
  if (query.booking_from) c.push(gte(policies.booking_date, query.booking_from));
  if (query.booking_to) c.push(lte(policies.booking_date, query.booking_to));
  if (query.issued_from) c.push(sql`${policies.issued_at} >= ${dayStart(query.issued_from)}`);
  if (query.issued_to) c.push(sql`${policies.issued_at} < ${dayAfter(query.issued_to)}`);
  return and(...c)!;
}

/**
 * The ids of the policies a bulk action names: the given public ids, or every policy matching the
 * filters ("all matching"), always inside the actor's scope. Order: policy id.
 */
export async function selectedPolicyIds(
  ctx: ActorCtx,
  selection: BulkSelection,
  query: PolicyListQuery,
): Promise<number[]> {
  const where = selection.all_matching
    ? policyConditions(ctx, query)
    : and(visiblePolicies(ctx.actor), inJson(policies.public_id, selection.ids ?? []))!;
  if (!selection.all_matching && !(selection.ids ?? []).length) return [];
  const rows = await ctx.db.select({ id: policies.id }).from(policies).where(where).orderBy(policies.id);
  return rows.map((r) => r.id);
}
