/**
 * The audit trail: every change the actor may see (access/scope.ts visibleActivity), searched by who,
 * entity, action and day, newest first, and exported. Senior admins see every company in view; a
 * school master user sees its own school's changes.
 */
import { and, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import { activityLogs, users } from '../../../drizzle/schema';
import { requirePermission } from '../access/actor';
import { visibleActivity } from '../access/scope';
import type { ActorCtx } from '../context';
import { countAll, likeAny, paginate, type Page } from '../lists';
import { loggedCurrency } from './activity-log';
import type { AuditQuery } from './schema';

/** The user a senior admin acted as in a support view (activity_logs.on_behalf_of_user_id). */
const viewed = alias(users, 'viewed');

/** At most this many rows go into one export (narrow the search for more). */
export const AUDIT_EXPORT_LIMIT = 5000;

export interface AuditRow {
  id: number;
  created_at: string;
  actor: string | null;
  actor_email: string | null;
  /** In a support view: the user the actor acted on behalf of (full name and email). */
  on_behalf_of: string | null;
  on_behalf_of_email: string | null;
  entity_type: string;
  entity_id: number;
  /** The entity's name when the row was written (entity-names.ts), or null when it has none. */
  entity_name: string | null;
  /** The currency of the row's money fields (activity-log.ts loggedCurrency). */
  currency: string | null;
  action: string;
  changes: { field: string; before: unknown; after: unknown }[];
}

const DAY = 24 * 60 * 60 * 1000;

function where(ctx: ActorCtx, q: AuditQuery): SQL {
  const conditions: (SQL | undefined)[] = [visibleActivity(ctx.actor)];
  if (q.entity_type) conditions.push(eq(activityLogs.entity_type, q.entity_type));
  if (q.entity_id) conditions.push(eq(activityLogs.entity_id, q.entity_id));
  if (q.action) conditions.push(eq(activityLogs.action, q.action));
  if (q.from) conditions.push(gte(activityLogs.created_at, new Date(`${q.from}T00:00:00Z`)));
  if (q.to)
    conditions.push(lt(activityLogs.created_at, new Date(new Date(`${q.to}T00:00:00Z`).getTime() + DAY)));
  const who = likeAny(
    [
      users.email,
      sql`${users.first_name} || ' ' || ${users.last_name}`,
      viewed.email,
      sql`${viewed.first_name} || ' ' || ${viewed.last_name}`,
    ],
    q.user,
  );
  if (who) conditions.push(who);
  return and(...conditions)!;
}

const columns = {
  id: activityLogs.id,
  created_at: activityLogs.created_at,
  entity_type: activityLogs.entity_type,
  entity_id: activityLogs.entity_id,
  action: activityLogs.action,
  before: activityLogs.before,
  after: activityLogs.after,
  first_name: users.first_name,
  last_name: users.last_name,
  email: users.email,
  // Named apart: D1 answers columns by name, so the second users' columns must not share the first's.
  behalf_first_name: sql<string | null>`${viewed.first_name}`.as('behalf_first_name'),
  behalf_last_name: sql<string | null>`${viewed.last_name}`.as('behalf_last_name'),
  behalf_email: sql<string | null>`${viewed.email}`.as('behalf_email'),
  entity_name: activityLogs.entity_label,
  currency: loggedCurrency.as('log_currency'),
};

type Raw = {
  id: number;
  created_at: Date | number;
  entity_type: string;
  entity_id: number;
  action: string;
  before: Record<string, unknown> | string | null;
  after: Record<string, unknown> | string | null;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  behalf_first_name: string | null;
  behalf_last_name: string | null;
  behalf_email: string | null;
  entity_name: string | null;
  currency: string | null;
};

const json = (v: Record<string, unknown> | string | null): Record<string, unknown> =>
  (typeof v === 'string' ? (JSON.parse(v) as Record<string, unknown>) : v) ?? {};

function rowOf(r: Raw): AuditRow {
  const before = json(r.before);
  const after = json(r.after);
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
    (f) => f !== 'updated_at' && f !== 'created_at',
  );
  return {
    id: r.id,
    created_at: new Date(r.created_at).toISOString(),
    actor: r.email ? `${r.first_name ?? ''} ${r.last_name ?? ''}`.trim() : null,
    actor_email: r.email,
    on_behalf_of: r.behalf_email ? `${r.behalf_first_name ?? ''} ${r.behalf_last_name ?? ''}`.trim() : null,
    on_behalf_of_email: r.behalf_email,
    entity_type: r.entity_type,
    entity_id: r.entity_id,
    entity_name: r.entity_name,
    currency: r.currency,
    action: r.action,
    changes: fields.map((field) => ({ field, before: before[field] ?? null, after: after[field] ?? null })),
  };
}

function select(ctx: ActorCtx, q: AuditQuery) {
  return ctx.db
    .select(columns)
    .from(activityLogs)
    .leftJoin(users, eq(users.id, activityLogs.actor_user_id))
    .leftJoin(viewed, eq(viewed.id, activityLogs.on_behalf_of_user_id))
    .where(where(ctx, q))
    .orderBy(desc(activityLogs.created_at), desc(activityLogs.id));
}

/** One page of the audit trail. */
export async function searchAuditTrail(ctx: ActorCtx, q: AuditQuery): Promise<Page<AuditRow>> {
  requirePermission(ctx.actor, 'read_audit_trail');
  const page = await paginate<Raw>(ctx.db, q, {
    rows: (limit, offset) => select(ctx, q).limit(limit).offset(offset),
    count: ctx.db
      .select({ total: countAll })
      .from(activityLogs)
      .leftJoin(users, eq(users.id, activityLogs.actor_user_id))
      .leftJoin(viewed, eq(viewed.id, activityLogs.on_behalf_of_user_id))
      .where(where(ctx, q)),
  });
  return { items: page.items.map(rowOf), meta: page.meta };
}

/** The rows of the search for the Excel export, newest first, up to AUDIT_EXPORT_LIMIT. */
export async function exportAuditTrail(ctx: ActorCtx, q: AuditQuery): Promise<AuditRow[]> {
  requirePermission(ctx.actor, 'read_audit_trail');
  const rows = (await select(ctx, q).limit(AUDIT_EXPORT_LIMIT)) as Raw[];
  return rows.map(rowOf);
}

/** The entity types and actions found in the actor's trail, for the search's choices. */
export async function auditChoices(ctx: ActorCtx): Promise<{ entity_types: string[]; actions: string[] }> {
  requirePermission(ctx.actor, 'read_audit_trail');
  const scope = visibleActivity(ctx.actor);
  const [types, actions] = await ctx.db.batch([
    ctx.db
      .selectDistinct({ v: activityLogs.entity_type })
      .from(activityLogs)
      .where(scope)
      .orderBy(activityLogs.entity_type),
    ctx.db
      .selectDistinct({ v: activityLogs.action })
      .from(activityLogs)
      .where(scope)
      .orderBy(activityLogs.action),
  ]);
  return { entity_types: types.map((t) => t.v), actions: actions.map((a) => a.v) };
}
