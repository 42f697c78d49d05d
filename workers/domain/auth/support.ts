import { and, eq } from 'drizzle-orm';
import { clients, sessions, users } from '../../../drizzle/schema';
import { runBatch } from '../../platform/db';
import { loadActor, requireActor, type Actor } from '../access/actor';
import { visibleClients } from '../access/scope';
import { inSupportView, mayOpenSupportView, maySupportView } from '../access/support';
import { logActivity } from '../audit/activity-log';
import type { ActorCtx } from '../context';
import { Conflict, Forbidden, NotFound } from '../errors';
import { msg } from '../validation';
import { createSession, sessionDeletion } from './sessions';

/**
 * The support view (spec 000 s.4, the other-user token): a senior admin opens, from their own session, a
 * short session of a school user (5 minutes, refreshed while in use) and sees the portal as that user.
 * Everything done in it is logged as done by the admin on behalf of the user (activity_logs
 * .on_behalf_of_user_id). It ends when stopped, when unused for 5 minutes, or with the admin's session.
 */

/** The user a support view would show, as the page that starts one presents them. */
export interface SupportTarget {
  id: string;
  first_name: string;
  last_name: string;
  email: string;
  client: string;
  /** Why no view can be opened (a message key), or null when one can. */
  refusal: string | null;
}

async function targetRow(ctx: ActorCtx, userPublicId: string) {
  if (!mayOpenSupportView(ctx.actor)) throw new Forbidden();
  const [row] = await ctx.db
    .select({ user: users, client: clients.name })
    .from(users)
    .leftJoin(clients, eq(clients.id, users.client_id))
    .where(eq(users.public_id, userPublicId))
    .limit(1);
  if (!row) throw new NotFound();
  // Never a company-family (or student) user: refused, whoever they are (startSupportView).
  if (row.user.user_type !== 'school') return row;
  // A school user of a client the admin may not see does not exist for them.
  const [visible] = await ctx.db
    .select({ id: clients.id })
    .from(clients)
    .where(and(eq(clients.id, row.user.client_id ?? -1), visibleClients(ctx.actor)))
    .limit(1);
  if (!visible) throw new NotFound();
  return row;
}

/** The school user a senior admin may view the portal as (the start page). */
export async function getSupportTarget(ctx: ActorCtx, userPublicId: string): Promise<SupportTarget> {
  const { user, client } = await targetRow(ctx, userPublicId);
  const actor = user.user_type === 'school' ? await loadActor(ctx.db, user.id) : null;
  return {
    id: user.public_id,
    first_name: user.first_name,
    last_name: user.last_name,
    email: user.email,
    client: client ?? '',
    refusal:
      user.user_type !== 'school'
        ? msg('support.school_users_only')
        : !actor
          ? msg('support.cannot_sign_in')
          : maySupportView(ctx.actor, actor)
            ? null
            : msg('support.school_users_only'),
  };
}

/**
 * Opens a support view from the admin's session: answers the view's token (the other-user token) and when
 * it ends unless used. A view already open from the same session ends first (one at a time).
 */
export async function startSupportView(
  ctx: ActorCtx,
  userPublicId: string,
  kind: 'web' | 'api',
): Promise<{ token: string; expires_at: string; user: SupportTarget }> {
  const admin = requireActor(ctx.actor);
  const { user } = await targetRow(ctx, userPublicId);
  if (user.user_type !== 'school') throw new Forbidden(msg('support.school_users_only'));
  if (!admin.session_id) throw new Forbidden();
  const target = await loadActor(ctx.db, user.id);
  if (!target) throw new Conflict(msg('support.cannot_sign_in'));
  if (!maySupportView(admin, target)) throw new Forbidden(msg('support.school_users_only'));
  await runBatch(ctx.db, [
    ctx.db.delete(sessions).where(eq(sessions.parent_session_id, admin.session_id)),
    logActivity(ctx, {
      entity_type: 'user',
      entity_id: user.id,
      action: 'support_view_started',
      after: { admin: admin.public_id },
      client_id: user.client_id,
    }),
  ]);
  const { token, session } = await createSession(ctx.db, {
    userId: user.id,
    kind,
    stage: 'active',
    now: ctx.now,
    ip: ctx.ip,
    userAgent: ctx.userAgent,
    support: { adminId: admin.user_id, parentSessionId: admin.session_id },
  });
  return {
    token,
    expires_at: session.expires_at.toISOString(),
    user: await getSupportTarget(ctx, userPublicId),
  };
}

/** Ends the support view the request came with; answers the viewed user's id (the page goes back to it). */
export async function stopSupportView(ctx: ActorCtx): Promise<{ user_id: string }> {
  const actor: Actor = requireActor(ctx.actor);
  if (!inSupportView(actor) || !actor.session_id) throw new Conflict(msg('support.not_viewing'));
  await runBatch(ctx.db, [
    logActivity(ctx, {
      entity_type: 'user',
      entity_id: actor.user_id,
      action: 'support_view_ended',
      client_id: actor.client_id,
    }),
    sessionDeletion(ctx.db, actor.session_id),
  ]);
  return { user_id: actor.public_id };
}

/** What the support view's banner says: who is viewed (and their school), and who views. Null outside one. */
export async function supportBanner(
  ctx: ActorCtx,
): Promise<{ user: string; client: string; admin: string } | null> {
  const adminId = ctx.actor.support_admin_id;
  if (!adminId) return null;
  const [[admin], [client]] = await ctx.db.batch([
    ctx.db
      .select({ first_name: users.first_name, last_name: users.last_name })
      .from(users)
      .where(eq(users.id, adminId))
      .limit(1),
    ctx.db
      .select({ name: clients.name })
      .from(clients)
      // The viewed user is a school user: the one client they see is their own.
      .where(visibleClients(ctx.actor))
      .limit(1),
  ]);
  return {
    user: `${ctx.actor.first_name} ${ctx.actor.last_name}`.trim(),
    client: client?.name ?? '',
    admin: admin ? `${admin.first_name} ${admin.last_name}`.trim() : '',
  };
}
