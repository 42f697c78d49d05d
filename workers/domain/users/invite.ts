/**
 * Inviting users and their invitations: company staff invite company users and school users (the
 * invitation goes at once); a school's master user adds its own staff, who wait for the insurer's
 * approval before any email goes. Resend and revoke act on the open invitation.
 */
import { and, eq, isNull } from 'drizzle-orm';
import { invitations, userCampuses, userCompanies, userRoles, users } from '../../../drizzle/schema';
import { publicId } from '../../platform/crypto';
import { idByPublicId, runBatch, type Statement } from '../../platform/db';
import { requirePermission } from '../access/actor';
import { findUser } from '../access/finders';
import { logActivity } from '../audit/activity-log';
import { invitationStatements } from '../auth/service';
import type { ActorCtx } from '../context';
import { Forbidden, ValidationFailed } from '../errors';
import { flushOutbox } from '../outbox/service';
import { msg } from '../validation';
import {
  assertEmailFree,
  assertMayChange,
  companyIdsFor,
  forLog,
  grantedRoles,
  personValues,
  placeOf,
  schoolPlacement,
  USER_PERMISSIONS,
} from './rules';
import type { CompanyUserInput, SchoolUserInput } from './schema';
import type { UserFamily } from './values';

/**
 * A user just added: `invited` when the invitation email went, `pending` when they wait for the
 * insurer's approval and no email has gone yet (the doors say which).
 */
export interface InvitedUser {
  id: string;
  status: 'invited' | 'pending';
}

/** The message key of the answer to an invitation, saying what really happened. */
export function invitedMessageKey(user: InvitedUser): 'users.invited' | 'users.awaiting_approval' {
  return user.status === 'pending' ? 'users.awaiting_approval' : 'users.invited';
}

/** POST users/company/add: a new company user, invited by email (the link works once, for 7 days). */
export async function inviteCompanyUser(ctx: ActorCtx, input: CompanyUserInput): Promise<InvitedUser> {
  requirePermission(ctx.actor, USER_PERMISSIONS.company.create);
  if (ctx.actor.user_type !== 'company') throw new Forbidden();
  const companyIds = await companyIdsFor(ctx, input.companies);
  const granted = await grantedRoles(ctx, input.roles, 'company', companyIds);
  await assertEmailFree(ctx, input.email);
  return createInvited(ctx, {
    values: { ...personValues(input), user_type: 'company', status: 'invited' },
    roles: granted,
    companyIds,
    campusIds: [],
    companyId: companyIds[0] ?? null,
    clientId: null,
  });
}

/**
 * POST users/school/add: a new school user. Invited by company staff, the invitation goes at once; added
 * by a school's own master user, the user waits for the insurer's approval (status pending) and the
 * invitation goes when approved (docs/decisions/roles-and-users.md, "Users").
 */
export async function inviteSchoolUser(ctx: ActorCtx, input: SchoolUserInput): Promise<InvitedUser> {
  requirePermission(ctx.actor, USER_PERMISSIONS.school.create);
  const { client, campusIds } = await schoolPlacement(ctx, input);
  const granted = await grantedRoles(ctx, input.roles, 'school', [client.company_id]);
  await assertEmailFree(ctx, input.email);
  const status = ctx.actor.user_type === 'school' ? 'pending' : 'invited';
  return createInvited(ctx, {
    values: {
      ...personValues(input),
      user_type: 'school',
      status,
      client_id: client.id,
      can_access_all_campuses: input.can_access_all_campuses,
    },
    roles: granted,
    companyIds: [],
    campusIds,
    companyId: client.company_id,
    clientId: client.id,
  });
}

async function createInvited(
  ctx: ActorCtx,
  plan: {
    values: ReturnType<typeof personValues> & {
      user_type: 'company' | 'school';
      status: 'invited' | 'pending';
      client_id?: number;
      can_access_all_campuses?: boolean;
    };
    roles: { id: number; name: string }[];
    companyIds: number[];
    campusIds: number[];
    companyId: number | null;
    clientId: number | null;
  },
): Promise<InvitedUser> {
  const pid = publicId();
  const userId = idByPublicId(users, pid);
  const statements: Statement[] = [
    ctx.db.insert(users).values({
      ...plan.values,
      public_id: pid,
      password_hash: null,
      preferred_lang: 'en',
      created_at: ctx.now,
      updated_at: ctx.now,
    }),
    ...plan.roles.map((role) => ctx.db.insert(userRoles).values({ user_id: userId, role_id: role.id })),
    ...plan.companyIds.map((company_id) =>
      ctx.db.insert(userCompanies).values({ user_id: userId, company_id }),
    ),
    ...plan.campusIds.map((campus_id) => ctx.db.insert(userCampuses).values({ user_id: userId, campus_id })),
    logActivity(ctx, {
      entity_type: 'user',
      entity_id: userId,
      action: plan.values.status === 'pending' ? 'added' : 'invited',
      after: { ...forLog(plan.values), roles: plan.roles.map((r) => r.name) },
      company_id: plan.companyId,
      client_id: plan.clientId,
    }),
  ];
  // The invitation needs the user's id: written in the same batch through the public id.
  if (plan.values.status === 'invited') {
    const invite = await invitationStatements(ctx, {
      id: userId,
      email: plan.values.email,
      first_name: plan.values.first_name,
      preferred_lang: 'en',
    });
    statements.push(...invite.statements);
  }
  await runBatch(ctx.db, statements);
  await flushOutbox(ctx.db, ctx.env, ctx.now);
  return { id: pid, status: plan.values.status };
}

/** Resend: a new link (7 days), the previous one revoked. Only for users who have not signed up yet. */
export async function resendInvitation(ctx: ActorCtx, family: UserFamily, id: string): Promise<void> {
  const user = await findUser(ctx, id, family, USER_PERMISSIONS[family].create);
  await assertMayChange(ctx, user, family);
  if (user.status !== 'invited') throw ValidationFailed.field('status', msg('users.errors.not_invited'));
  const invite = await invitationStatements(ctx, user);
  await runBatch(ctx.db, [
    ...invite.statements,
    logActivity(ctx, {
      entity_type: 'user',
      entity_id: user.id,
      action: 'invitation_resent',
      ...placeOf(user),
    }),
  ]);
  await flushOutbox(ctx.db, ctx.env, ctx.now);
}

/** Revoke: the open invitation's link stops working and says so. */
export async function revokeInvitation(ctx: ActorCtx, family: UserFamily, id: string): Promise<void> {
  const user = await findUser(ctx, id, family, USER_PERMISSIONS[family].create);
  await assertMayChange(ctx, user, family);
  const open = and(
    eq(invitations.user_id, user.id),
    isNull(invitations.accepted_at),
    isNull(invitations.revoked_at),
  );
  const [row] = await ctx.db.select({ id: invitations.id }).from(invitations).where(open).limit(1);
  if (!row) throw ValidationFailed.field('status', msg('users.errors.no_open_invitation'));
  await runBatch(ctx.db, [
    ctx.db.update(invitations).set({ revoked_at: ctx.now }).where(open),
    logActivity(ctx, {
      entity_type: 'user',
      entity_id: user.id,
      action: 'invitation_revoked',
      ...placeOf(user),
    }),
  ]);
}
