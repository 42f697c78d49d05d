/**
 * An entity's logs tab: its activity-log rows (workers/domain/audit/activity-log.ts) with who acted,
 * newest first. Callers check their permission (read_client_log or the area's own) and that the entity
 * is in the actor's scope first.
 */

import { users } from '../../../drizzle/schema';
import { inJson, type DB } from '../../platform/db';
import { listActivity } from '../audit/activity-log';
import type { Page } from '../lists';

export interface ActivityRow {
  id: number;
  /** What was changed (a client, an invoice): decides how its fields read (audit/fields.ts). */
  entity_type: string;
  /** The currency of the row's money fields (activity-log.ts loggedCurrency). */
  currency: string | null;
  action: string;
  /** Who acted: their name, or null for the system (jobs, seeds). */
  actor: string | null;
  actor_email: string | null;
  /** In a support view: the user the actor (a senior admin) acted on behalf of, by name. */
  on_behalf_of: string | null;
  created_at: string;
  /** One entry per changed field: its value before and after (null when absent on that side). */
  changes: { field: string; before: unknown; after: unknown }[];
}

export async function activityFeed(
  db: DB,
  entityType: string,
  entityId: number,
  page = 1,
  perPage = 25,
): Promise<Page<ActivityRow>> {
  const { items, meta } = await listActivity(db, entityType, entityId, page, perPage);
  const actorIds = [
    ...new Set(
      items.flatMap((r) => [r.actor_user_id, r.on_behalf_of_user_id]).filter((id): id is number => !!id),
    ),
  ];
  const people = actorIds.length
    ? await db
        .select({
          id: users.id,
          first_name: users.first_name,
          last_name: users.last_name,
          email: users.email,
        })
        .from(users)
        .where(inJson(users.id, actorIds))
    : [];
  const byId = new Map(people.map((p) => [p.id, p]));
  return {
    meta,
    items: items.map((r) => {
      const who = r.actor_user_id ? byId.get(r.actor_user_id) : undefined;
      const viewed = r.on_behalf_of_user_id ? byId.get(r.on_behalf_of_user_id) : undefined;
      const before = r.before ?? {};
      const after = r.after ?? {};
      const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
        (f) => f !== 'updated_at' && f !== 'created_at',
      );
      return {
        id: r.id,
        entity_type: r.entity_type,
        currency: r.currency,
        action: r.action,
        actor: who ? `${who.first_name} ${who.last_name}`.trim() : null,
        actor_email: who?.email ?? null,
        on_behalf_of: viewed ? `${viewed.first_name} ${viewed.last_name}`.trim() : null,
        created_at: r.created_at.toISOString(),
        changes: fields.map((field) => ({
          field,
          before: before[field] ?? null,
          after: after[field] ?? null,
        })),
      };
    }),
  };
}
