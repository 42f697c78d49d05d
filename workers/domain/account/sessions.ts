import { and, desc, eq, gt, isNotNull, ne, or } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import { sessions, users } from '../../../drizzle/schema';
import { requireActor } from '../access/actor';
import { refuseInSupportView } from '../access/support';
import { logActivity } from '../audit/activity-log';
import { SESSION_LIMITS, sessionDeletion, userSessionsDeletion } from '../auth/sessions';
import type { ActorCtx } from '../context';
import { NotFound } from '../errors';
import { runBatch } from '../../platform/db';
import { describeDevice, deviceLabel, type Device } from './devices';

/** One of the signed-in user's sessions, as the account page and GET user/sessions show it. */
export interface OwnSession {
  id: number;
  kind: 'web' | 'api';
  device: Device;
  /** The device in English ("Chrome on Windows"); the page words it in the reader's language. */
  device_label: string;
  ip: string | null;
  created_at: string;
  last_seen_at: string;
  /** The session this request came with ("this device"). */
  current: boolean;
  /** A support view: the senior admin viewing the portal as this user. */
  support_admin: string | null;
}

/** At most this many sessions are listed (most recently used first); more is a sign of a script. */
export const OWN_SESSIONS_SHOWN = 50;

/** The user's live sessions (signed in, not timed out), most recently used first. */
export async function listOwnSessions(ctx: ActorCtx): Promise<OwnSession[]> {
  const actor = requireActor(ctx.actor);
  const admin = alias(users, 'support_admin');
  const rows = await ctx.db
    .select({
      id: sessions.id,
      kind: sessions.kind,
      ip: sessions.ip,
      user_agent: sessions.user_agent,
      created_at: sessions.created_at,
      last_seen_at: sessions.last_seen_at,
      admin_first: admin.first_name,
      admin_last: admin.last_name,
    })
    .from(sessions)
    .leftJoin(admin, eq(admin.id, sessions.support_admin_id))
    .where(
      and(
        eq(sessions.user_id, actor.user_id),
        eq(sessions.stage, 'active'),
        gt(sessions.expires_at, ctx.now),
        or(
          isNotNull(sessions.support_admin_id),
          gt(sessions.last_seen_at, new Date(ctx.now.getTime() - SESSION_LIMITS.idleMs)),
        ),
      ),
    )
    .orderBy(desc(sessions.last_seen_at), desc(sessions.id))
    .limit(OWN_SESSIONS_SHOWN);
  return rows.map((r) => {
    const device = describeDevice(r.user_agent);
    return {
      id: r.id,
      kind: r.kind,
      device,
      device_label: deviceLabel(device),
      ip: r.ip,
      created_at: r.created_at.toISOString(),
      last_seen_at: r.last_seen_at.toISOString(),
      current: r.id === actor.session_id,
      support_admin: r.admin_first ? `${r.admin_first} ${r.admin_last}`.trim() : null,
    };
  });
}

/**
 * Ends one of the user's own sessions: its next request (page or API) is refused. Another user's session
 * id answers "not found". Not in a support view.
 */
export async function endOwnSession(ctx: ActorCtx, sessionId: number): Promise<void> {
  const actor = requireActor(ctx.actor);
  refuseInSupportView(actor);
  const [row] = await ctx.db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.id, sessionId), eq(sessions.user_id, actor.user_id)))
    .limit(1);
  if (!row) throw new NotFound();
  await runBatch(ctx.db, [
    logActivity(ctx, {
      entity_type: 'user',
      entity_id: actor.user_id,
      action: 'session_ended',
      after: { session: row.id },
    }),
    sessionDeletion(ctx.db, row.id),
  ]);
}

/** Ends every session of the user but this one. Not in a support view. */
export async function endOtherSessions(ctx: ActorCtx): Promise<{ ended: number }> {
  const actor = requireActor(ctx.actor);
  refuseInSupportView(actor);
  const others = await ctx.db
    .select({ id: sessions.id })
    .from(sessions)
    .where(
      and(
        eq(sessions.user_id, actor.user_id),
        actor.session_id ? ne(sessions.id, actor.session_id) : undefined,
      ),
    );
  await runBatch(ctx.db, [
    logActivity(ctx, {
      entity_type: 'user',
      entity_id: actor.user_id,
      action: 'other_sessions_ended',
      after: { sessions: others.length },
    }),
    ...userSessionsDeletion(ctx.db, actor.user_id, actor.session_id ?? undefined),
  ]);
  return { ended: others.length };
}
