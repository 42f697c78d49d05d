/**
 * A client's MFA activity (GET clients/{id}/mfa_activities): the one-time PINs sent to its users and
 * every try at them (verified, wrong, expired, locked), with where each request came from, newest first.
 * Recorded by workers/domain/auth/pins.ts as it happens. The client's logs are its staff's business:
 * `read_client_log`, as its logs tab.
 */
import { and, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import { mfaEvents, users } from '../../../drizzle/schema';
import { findClient } from '../access/finders';
import { describeDevice, deviceLabel } from '../account/devices';
import type { ActorCtx } from '../context';
import { likeAny, paginate, type Page } from '../lists';
import type { MfaActivityQuery } from './records-schema';

export const MFA_ACTIVITY_PERMISSION = 'read_client_log';

export interface MfaActivityRow {
  id: number;
  event: (typeof mfaEvents.$inferSelect)['event'];
  purpose: (typeof mfaEvents.$inferSelect)['purpose'];
  channel: (typeof mfaEvents.$inferSelect)['channel'];
  user: { id: string; full_name: string; email: string };
  ip: string | null;
  /** The device in English ("Chrome on Windows"), from the request's user agent. */
  device: string | null;
  created_at: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;

function conditions(clientId: number, q: MfaActivityQuery): SQL {
  return and(
    eq(users.client_id, clientId),
    q.user ? eq(users.public_id, q.user) : undefined,
    q.event ? eq(mfaEvents.event, q.event) : undefined,
    q.purpose ? eq(mfaEvents.purpose, q.purpose) : undefined,
    q.from ? gte(mfaEvents.created_at, new Date(`${q.from}T00:00:00Z`)) : undefined,
    q.to ? lt(mfaEvents.created_at, new Date(Date.parse(`${q.to}T00:00:00Z`) + DAY_MS)) : undefined,
    likeAny([users.email, sql`${users.first_name} || ' ' || ${users.last_name}`], q.search),
  )!;
}

/** The MFA activity of the client's users, one page, newest first. Another tenant's client is NotFound. */
export async function clientMfaActivities(
  ctx: ActorCtx,
  id: string,
  q: MfaActivityQuery,
): Promise<Page<MfaActivityRow>> {
  const client = await findClient(ctx, id, MFA_ACTIVITY_PERMISSION);
  const where = conditions(client.id, q);
  const page = await paginate<{
    e: typeof mfaEvents.$inferSelect;
    user_id: string;
    first_name: string;
    last_name: string;
    email: string;
  }>(ctx.db, q, {
    rows: (limit, offset) =>
      ctx.db
        .select({
          e: mfaEvents,
          user_id: users.public_id,
          first_name: users.first_name,
          last_name: users.last_name,
          email: users.email,
        })
        .from(mfaEvents)
        .innerJoin(users, eq(users.id, mfaEvents.user_id))
        .where(where)
        .orderBy(desc(mfaEvents.created_at), desc(mfaEvents.id))
        .limit(limit)
        .offset(offset),
    count: ctx.db
      .select({ total: sql<number>`count(*)` })
      .from(mfaEvents)
      .innerJoin(users, eq(users.id, mfaEvents.user_id))
      .where(where),
  });
  return {
    meta: page.meta,
    items: page.items.map(({ e, ...u }) => ({
      id: e.id,
      event: e.event,
      purpose: e.purpose,
      channel: e.channel,
      user: { id: u.user_id, full_name: `${u.first_name} ${u.last_name}`.trim(), email: u.email },
      ip: e.ip,
      device: e.user_agent ? deviceLabel(describeDevice(e.user_agent)) : null,
      created_at: e.created_at.toISOString(),
    })),
  };
}
