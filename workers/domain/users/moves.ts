/**
 * A user's state moves (spec 001 s.4): archive and activate, suspend and unsuspend (school users),
 * approve and decline (users a school added), cancel (withdrawn before signing up) and delete. Each is
 * logged with the state before and after; suspending, archiving and declining end the user's sessions.
 */
import { and, eq, isNull } from 'drizzle-orm';
import { invitations, users } from '../../../drizzle/schema';
import { inJson, runBatch, type Statement } from '../../platform/db';
import { requirePermission, type Actor } from '../access/actor';
import { findUser, type UserRow } from '../access/finders';
import { logActivity } from '../audit/activity-log';
import type { ActivityAction } from '../audit/actions';
import { deleteUserSessions } from '../auth/sessions';
import { invitationStatements } from '../auth/service';
import type { ActorCtx } from '../context';
import { ValidationFailed } from '../errors';
import { flushOutbox } from '../outbox/service';
import { msg } from '../validation';
import { assertMayChange, forLog, USER_PERMISSIONS, userAbilities, type Operation } from './rules';
import type { UserFamily } from './values';

/** The moves the screens offer for a user in a given state (pure: the pages and the rules agree). */
export function userMoves(user: { status: UserRow['status']; suspended: boolean }, family: UserFamily) {
  const s = user.status;
  return {
    archive: s === 'active',
    activate: s === 'archived',
    suspend: family === 'school' && s === 'active' && !user.suspended,
    unsuspend: family === 'school' && user.suspended,
    approve: family === 'school' && s === 'pending',
    decline: family === 'school' ? s === 'pending' || s === 'invited' : s === 'invited' || s === 'pending',
    delete: family === 'school' ? s === 'declined' : s === 'invited' || s === 'pending' || s === 'declined',
    resend: s === 'invited',
    revoke: s === 'invited',
    cancel: family === 'school' && (s === 'pending' || s === 'invited'),
  };
}

export type UserMoveName = keyof ReturnType<typeof userMoves>;

/**
 * The moves a user's page offers the actor now: those the user's state allows and the actor's permissions
 * make (none on their own page). A school withdraws someone it added (cancel); the insurer declines.
 */
export function movesFor(
  actor: Actor,
  user: { id: string; status: UserRow['status']; suspended: boolean },
  family: UserFamily,
): UserMoveName[] {
  if (user.id === actor.public_id) return [];
  const abilities = userAbilities(actor)[family];
  const may: Record<UserMoveName, boolean> = {
    archive: abilities.archive,
    activate: abilities.archive,
    suspend: abilities.suspend,
    unsuspend: abilities.suspend,
    approve: abilities.approve,
    decline: family === 'company' ? abilities.delete : abilities.approve,
    delete: abilities.delete,
    resend: abilities.create,
    revoke: abilities.create,
    cancel: abilities.create && actor.user_type === 'school',
  };
  const allowed = userMoves(user, family);
  return (Object.keys(may) as UserMoveName[]).filter((m) => may[m] && allowed[m]);
}

/** Whether the actor may edit the user's details (not their own here: that is the account page). */
export function mayEditUser(actor: Actor, user: { id: string }, family: UserFamily): boolean {
  return userAbilities(actor)[family].update && user.id !== actor.public_id;
}

async function move(
  ctx: ActorCtx,
  family: UserFamily,
  id: string,
  operation: Operation,
  allowed: keyof ReturnType<typeof userMoves>,
  change: Partial<Pick<UserRow, 'status' | 'suspended'>>,
  action: ActivityAction,
  endSessions: boolean,
  extra: (user: UserRow) => Statement[] = () => [],
) {
  const user = await findUser(ctx, id, family, USER_PERMISSIONS[family][operation]);
  await assertMayChange(ctx, user, family);
  if (!userMoves(user, family)[allowed])
    throw ValidationFailed.field('status', msg('users.errors.not_allowed'));
  await runBatch(ctx.db, [
    ctx.db
      .update(users)
      .set({ ...change, updated_at: ctx.now })
      .where(eq(users.id, user.id)),
    ...extra(user),
    logActivity(ctx, {
      entity_type: 'user',
      entity_id: user.id,
      action,
      before: { status: user.status, suspended: user.suspended },
      after: { status: change.status ?? user.status, suspended: change.suspended ?? user.suspended },
      client_id: user.client_id,
    }),
  ]);
  // Ends every session of the user at once (the actor is also loaded again on each request).
  if (endSessions) await deleteUserSessions(ctx.db, user.id);
  return user;
}

const revokeOpenInvitations = (ctx: ActorCtx) => (user: UserRow) => [
  ctx.db
    .update(invitations)
    .set({ revoked_at: ctx.now })
    .where(
      and(eq(invitations.user_id, user.id), isNull(invitations.accepted_at), isNull(invitations.revoked_at)),
    ),
];

/** PATCH users/{family}/{id}/archive: an archived user cannot sign in; their sessions end. */
export const archiveUser = (ctx: ActorCtx, family: UserFamily, id: string) =>
  move(ctx, family, id, 'archive', 'archive', { status: 'archived' }, 'archived', true).then(() => undefined);

/** PATCH users/{family}/{id}/activate: an archived user may sign in again. */
export const activateUser = (ctx: ActorCtx, family: UserFamily, id: string) =>
  move(ctx, family, id, 'archive', 'activate', { status: 'active' }, 'activated', false).then(
    () => undefined,
  );

/** PATCH users/company/{id}/status (and school): archive or activate by status value. */
export async function setUserStatus(
  ctx: ActorCtx,
  family: UserFamily,
  id: string,
  status: 'active' | 'archived',
) {
  requirePermission(ctx.actor, `${USER_PERMISSIONS[family].update}|${USER_PERMISSIONS[family].archive}`);
  const user = await findUser(
    ctx,
    id,
    family,
    `${USER_PERMISSIONS[family].update}|${USER_PERMISSIONS[family].archive}`,
  );
  if (user.status === status) return;
  if (status === 'archived') {
    await move(ctx, family, id, 'read', 'archive', { status: 'archived' }, 'archived', true);
  } else {
    await move(ctx, family, id, 'read', 'activate', { status: 'active' }, 'activated', false);
  }
}

/** POST school-users/{id}/suspend: the user cannot sign in until unsuspended; their sessions end at once. */
export const suspendSchoolUser = (ctx: ActorCtx, id: string) =>
  move(ctx, 'school', id, 'suspend', 'suspend', { suspended: true }, 'suspended', true).then(() => undefined);

/** POST school-users/{id}/unsuspend. */
export const unsuspendSchoolUser = (ctx: ActorCtx, id: string) =>
  move(ctx, 'school', id, 'suspend', 'unsuspend', { suspended: false }, 'unsuspended', false).then(
    () => undefined,
  );

/** Approve a pending school user: they are invited (the email with the link goes now). */
export async function approveSchoolUser(ctx: ActorCtx, id: string): Promise<void> {
  const user = await findUser(ctx, id, 'school', USER_PERMISSIONS.school.approve);
  const invite = await invitationStatements(ctx, user);
  await move(
    ctx,
    'school',
    id,
    'approve',
    'approve',
    { status: 'invited' },
    'approved',
    false,
    () => invite.statements,
  );
  await flushOutbox(ctx.db, ctx.env, ctx.now);
}

/**
 * Decline: a school user moves to the declined list (removed from there by delete); a company user is
 * deleted at once (catalogue: "decline, which deletes"). Open invitations stop working; sessions end.
 */
export async function declineUser(ctx: ActorCtx, family: UserFamily, id: string): Promise<void> {
  if (family === 'company') return deleteUser(ctx, 'company', id);
  await move(
    ctx,
    'school',
    id,
    'approve',
    'decline',
    { status: 'declined' },
    'declined',
    true,
    revokeOpenInvitations(ctx),
  );
}

/** DELETE users/{family}/{id}: only a user who never became active (invited, pending or declined). */
export async function deleteUser(ctx: ActorCtx, family: UserFamily, id: string): Promise<void> {
  const user = await findUser(ctx, id, family, USER_PERMISSIONS[family].delete);
  await assertMayChange(ctx, user, family);
  if (!userMoves(user, family).delete)
    throw ValidationFailed.field('status', msg('users.errors.not_allowed'));
  await deleteUserSessions(ctx.db, user.id);
  await runBatch(ctx.db, [
    ctx.db.delete(users).where(eq(users.id, user.id)),
    logActivity(ctx, {
      entity_type: 'user',
      entity_id: user.id,
      action: 'deleted',
      before: forLog(user),
      client_id: user.client_id,
    }),
  ]);
}

/**
 * POST school-users/{id}/cancel (the school portal): a user the school added or invited is withdrawn
 * before they signed up: waiting for the insurer's approval, or invited with a link not yet used. The
 * link stops working and the user is removed (nothing points at someone who never signed in); a user
 * who has signed up is archived instead, so the answer says this cannot be done.
 */
export async function cancelSchoolUser(ctx: ActorCtx, id: string): Promise<void> {
  const user = await findUser(ctx, id, 'school', USER_PERMISSIONS.school.create);
  await assertMayChange(ctx, user, 'school');
  if (!userMoves(user, 'school').cancel)
    throw ValidationFailed.field('status', msg('users.errors.not_cancellable'));
  await runBatch(ctx.db, [
    ...revokeOpenInvitations(ctx)(user),
    ctx.db.delete(users).where(and(eq(users.id, user.id), inJson(users.status, ['pending', 'invited']))),
    logActivity(ctx, {
      entity_type: 'user',
      entity_id: user.id,
      action: 'invitation_cancelled',
      before: forLog(user),
      client_id: user.client_id,
    }),
  ]);
}
