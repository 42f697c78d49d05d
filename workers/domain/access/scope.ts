import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { Actor } from './actor';

/**
 * Tenant scope. Every service filters its queries with these, so a record of another tenant is never
 * read: it answers "not found", not "forbidden".
 *
 * - Company users see the companies they belong to, narrowed to the one chosen in the top bar
 *   ("all companies" = all of theirs).
 * - School users see their own client only, and only their campuses unless can_access_all_campuses.
 * - Student users see nothing through these (their own policies are scoped by user id).
 */

const NOTHING = sql`0 = 1`;

/** The company ids the actor is looking at right now. */
export function visibleCompanyIds(actor: Actor): number[] {
  const mine = actor.companies.map((c) => c.id);
  if (actor.user_type === 'company' && actor.selected_company_id !== null) {
    return mine.includes(actor.selected_company_id) ? [actor.selected_company_id] : [];
  }
  return mine;
}

/** Condition on a table's company column. */
export function companyScope(actor: Actor, companyColumn: SQLiteColumn): SQL {
  const ids = visibleCompanyIds(actor);
  return ids.length ? inArray(companyColumn, ids) : NOTHING;
}

/**
 * Condition on a row that belongs to a client (and so to a company).
 * School users: their client only. Company users: clients of their visible companies.
 */
export function clientScope(actor: Actor, cols: { clientId: SQLiteColumn; companyId: SQLiteColumn }): SQL {
  if (actor.user_type === 'company') return companyScope(actor, cols.companyId);
  if (actor.user_type === 'school' && actor.client_id) return eq(cols.clientId, actor.client_id);
  return NOTHING;
}

/**
 * Condition on a row that belongs to a campus. School users limited to some campuses see only those.
 */
export function campusScope(
  actor: Actor,
  cols: { campusId: SQLiteColumn; clientId: SQLiteColumn; companyId: SQLiteColumn },
): SQL {
  const byClient = clientScope(actor, cols);
  if (actor.user_type === 'school' && actor.campus_ids !== null) {
    return actor.campus_ids.length ? and(byClient, inArray(cols.campusId, actor.campus_ids))! : NOTHING;
  }
  return byClient;
}
