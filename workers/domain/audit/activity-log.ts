import { and, desc, eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import { activityLogs } from '../../../drizzle/schema';
import { chunkRows, type DB, type Statement } from '../../platform/db';
import type { Ctx } from '../context';
import { paginate } from '../lists';
import type { ActivityAction } from './actions';
import { entityLabel, entityLabelFrom } from './entity-names';

type Row = Record<string, unknown>;

/** Keeps only the fields that changed, so a log row says exactly what moved. */
export function diff(before: Row | null, after: Row | null): { before: Row | null; after: Row | null } {
  if (!before || !after) return { before, after };
  const b: Row = {};
  const a: Row = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (key === 'updated_at' || key === 'password_hash') continue;
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) {
      b[key] = before[key] ?? null;
      a[key] = after[key] ?? null;
    }
  }
  return { before: b, after: a };
}

function redact(row: Row | null): Row | null {
  if (!row) return row;
  const out: Row = {};
  for (const [k, v] of Object.entries(row)) {
    if (k === 'password_hash' || k === 'token_hash' || k === 'pin_hash') continue;
    out[k] = v instanceof Date ? v.toISOString() : v;
  }
  return out;
}

export interface LogEntry {
  entity_type: string;
  /** A number, or idByPublicId() for a row written earlier in the same batch. */
  entity_id: number | SQL<number>;
  action: ActivityAction;
  before?: Row | null;
  after?: Row | null;
  company_id?: number | SQL<number> | null;
  client_id?: number | SQL<number> | null;
  /**
   * Fields of `after` whose value the same batch draws before this row is written (a credit note's
   * number from its series): each a scalar subquery, set into the logged JSON when the row is inserted.
   */
  drawn?: Record<string, SQL>;
}

/**
 * Who a row names: the acting user, or in a support view the senior admin (actor_user_id) acting on
 * behalf of the viewed user (on_behalf_of_user_id).
 */
export interface LogActors {
  actor_user_id: number | null;
  on_behalf_of_user_id: number | null;
}

export function logActors(actor: Ctx['actor']): LogActors {
  if (actor?.support_admin_id)
    return { actor_user_id: actor.support_admin_id, on_behalf_of_user_id: actor.user_id };
  return { actor_user_id: actor?.user_id ?? null, on_behalf_of_user_id: null };
}

function logRow(ctx: Pick<Ctx, 'actor' | 'now'>, entry: LogEntry) {
  const whole = { before: redact(entry.before ?? null), after: redact(entry.after ?? null) };
  const { before, after: changed } = diff(whole.before, whole.after);
  const drawn = Object.entries(entry.drawn ?? {});
  const after = drawn.length
    ? sql`json_set(${JSON.stringify(changed ?? {})}, ${sql.join(
        drawn.map(([field, value]) => sql`${`$.${field}`}, (${value})`),
        sql`, `,
      )})`
    : changed;
  return {
    ...logActors(ctx.actor),
    entity_type: entry.entity_type,
    entity_id: entry.entity_id,
    entity_label: entityLabel(entry.entity_type, entry.entity_id, whole.before, whole.after),
    action: entry.action,
    before,
    after,
    company_id: entry.company_id ?? null,
    client_id: entry.client_id ?? null,
    created_at: ctx.now,
  };
}

/**
 * The activity-log writer: returns the insert statement so the caller runs it in the same batch as the
 * change it records. Only the changed fields are kept when both sides are given.
 */
export function logActivity(ctx: Pick<Ctx, 'db' | 'actor' | 'now'>, entry: LogEntry): Statement {
  return ctx.db.insert(activityLogs).values(logRow(ctx, entry));
}

/**
 * The activity-log writer for many entries at once (a bulk change): their insert statements, chunked to
 * D1's parameter limit, to run in the same batch as the change. No entries give no statement.
 */
export function logActivities(
  ctx: Pick<Ctx, 'db' | 'actor' | 'now'>,
  entries: readonly LogEntry[],
): Statement[] {
  // A row binds one value per column, two more for its label, and two for an entity id given as a
  // subquery (used twice): chunked for the worst case.
  const perRow = Object.keys(getTableColumns(activityLogs)).length + 4;
  return chunkRows(
    entries.map((entry) => logRow(ctx, entry)),
    perRow,
  ).map((rows) => ctx.db.insert(activityLogs).values(rows));
}

/**
 * Activity-log rows from a query, in one statement: for changes made set-based (a checkout confirming
 * thousands of rows, the cart clean-up), or logged only when a condition holds in the same all-or-nothing
 * batch (a payment recorded once). `rows` selects entity_id, before and after (JSON text or NULL),
 * company_id and client_id, by those names. Who acted comes from the request's actor, or, for work done
 * later outside the request (a job), from the `actors` the request recorded with logActors.
 */
export function logActivityFrom(
  ctx: Pick<Ctx, 'db' | 'now'> & ({ actor: Ctx['actor'] } | { actors: LogActors }),
  entry: { entity_type: string; action: ActivityAction },
  rows: SQL,
): Statement {
  const who = 'actors' in ctx ? ctx.actors : logActors(ctx.actor);
  const label = entityLabelFrom(entry.entity_type, sql`r.entity_id`, sql`r.before`, sql`r.after`);
  return ctx.db
    .run(sql`INSERT INTO activity_logs (actor_user_id, on_behalf_of_user_id, entity_type, entity_id, entity_label,
      action, before, after, company_id, client_id, created_at)
    SELECT ${who.actor_user_id}, ${who.on_behalf_of_user_id}, ${entry.entity_type}, r.entity_id, ${label},
      ${entry.action}, r.before, r.after, r.company_id, r.client_id, ${ctx.now.getTime()}
    FROM (${rows}) AS r`);
}

/**
 * The currency a log row's money is in: the one it logged, else its entity's (an invoice, a policy, a
 * product), else its company's. Rows written before amounts carried their currency read right too.
 */
export const loggedCurrency = sql<string | null>`coalesce(
  json_extract(${activityLogs.after}, '$.currency'), json_extract(${activityLogs.before}, '$.currency'),
  CASE ${activityLogs.entity_type}
    WHEN 'invoice' THEN (SELECT currency FROM invoices WHERE invoices.id = ${activityLogs.entity_id})
    WHEN 'policy' THEN (SELECT currency FROM policies WHERE policies.id = ${activityLogs.entity_id})
    WHEN 'product' THEN (SELECT currency FROM products WHERE products.id = ${activityLogs.entity_id})
  END,
  (SELECT currency FROM companies WHERE companies.id = ${activityLogs.company_id}))`;

/** Rows of one entity's logs tab, newest first. Callers check the entity is visible first. */
export async function listActivity(db: DB, entityType: string, entityId: number, page = 1, perPage = 25) {
  const where = and(eq(activityLogs.entity_type, entityType), eq(activityLogs.entity_id, entityId));
  return paginate(
    db,
    { page, items: perPage },
    {
      rows: (limit, offset) =>
        db
          .select({ ...getTableColumns(activityLogs), currency: loggedCurrency.as('log_currency') })
          .from(activityLogs)
          .where(where)
          .orderBy(desc(activityLogs.created_at), desc(activityLogs.id))
          .limit(limit)
          .offset(offset),
      count: db
        .select({ total: sql<number>`count(*)` })
        .from(activityLogs)
        .where(where),
    },
  );
}
