/** Editing a user: the person, their roles and their access (companies, or a client's campuses). */
import { eq } from 'drizzle-orm';
import { userCampuses, userCompanies, userRoles, users } from '../../../drizzle/schema';
import { bulkInsert, runBatch, type Statement } from '../../platform/db';
import { findUser, type UserRow } from '../access/finders';
import { logActivity } from '../audit/activity-log';
import type { ActorCtx } from '../context';
import { getUser, type UserDetail } from './detail';
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

/** PUT users/company/{id}: the person, their companies and roles. */
export async function updateCompanyUser(
  ctx: ActorCtx,
  id: string,
  input: CompanyUserInput,
): Promise<UserDetail> {
  const user = await findUser(ctx, id, 'company', USER_PERMISSIONS.company.update);
  const held = await assertMayChange(ctx, user, 'company');
  const companyIds = await companyIdsFor(ctx, input.companies, user.id);
  const granted = await grantedRoles(ctx, input.roles, 'company', companyIds);
  await assertEmailFree(ctx, input.email, user.id);
  const values = personValues(input);
  await saveUser(ctx, user, values, { held, granted }, [
    ctx.db.delete(userCompanies).where(eq(userCompanies.user_id, user.id)),
    ...bulkInsert(
      ctx.db,
      userCompanies,
      companyIds.map((company_id) => ({ user_id: user.id, company_id })),
    ),
  ]);
  return getUser(ctx, 'company', id);
}

/** PUT users/school/{id}: the person, campus access and roles (the client stays). */
export async function updateSchoolUser(
  ctx: ActorCtx,
  id: string,
  input: SchoolUserInput,
): Promise<UserDetail> {
  const user = await findUser(ctx, id, 'school', USER_PERMISSIONS.school.update);
  const held = await assertMayChange(ctx, user, 'school');
  const { client, campusIds } = await schoolPlacement(ctx, { ...input, client: undefined }, user.client_id);
  const granted = await grantedRoles(ctx, input.roles, 'school', [client.company_id]);
  await assertEmailFree(ctx, input.email, user.id);
  const values = { ...personValues(input), can_access_all_campuses: input.can_access_all_campuses };
  await saveUser(ctx, user, values, { held, granted }, [
    ctx.db.delete(userCampuses).where(eq(userCampuses.user_id, user.id)),
    ...bulkInsert(
      ctx.db,
      userCampuses,
      campusIds.map((campus_id) => ({ user_id: user.id, campus_id })),
    ),
  ]);
  // Narrower access applies at once: the actor is loaded again on every request.
  return getUser(ctx, 'school', id);
}

/**
 * An edited user, in one batch: the person's fields, their roles, their access (companies or campuses,
 * given as statements) and the log row with before and after (the roles by name when they changed).
 */
async function saveUser(
  ctx: ActorCtx,
  user: UserRow,
  values: Partial<typeof users.$inferInsert>,
  roles: { held: { id: number; name: string }[]; granted: { id: number; name: string }[] },
  access: Statement[],
): Promise<void> {
  const names = (list: { name: string }[]) => list.map((r) => r.name).sort((a, b) => a.localeCompare(b));
  await runBatch(ctx.db, [
    ctx.db
      .update(users)
      .set({ ...values, updated_at: ctx.now })
      .where(eq(users.id, user.id)),
    ...replaceRoles(
      ctx,
      user.id,
      roles.granted.map((r) => r.id),
    ),
    ...access,
    logActivity(ctx, {
      entity_type: 'user',
      entity_id: user.id,
      action: 'updated',
      before: { ...forLog(user), roles: names(roles.held) },
      after: { ...forLog({ ...user, ...values }), roles: names(roles.granted) },
      ...placeOf(user),
    }),
  ]);
}

function replaceRoles(ctx: ActorCtx, userId: number, roleIds: number[]): Statement[] {
  return [
    ctx.db.delete(userRoles).where(eq(userRoles.user_id, userId)),
    ...bulkInsert(
      ctx.db,
      userRoles,
      roleIds.map((role_id) => ({ user_id: userId, role_id })),
    ),
  ];
}
