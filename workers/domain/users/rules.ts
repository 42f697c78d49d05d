/**
 * The rules every change of a user follows: who may do which operation on which family, which roles an
 * actor may grant (access/grants.ts), whom an actor may change, and the values a user row is written
 * with.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import { campuses, clients, roles, userCompanies, userRoles, users } from '../../../drizzle/schema';
import { inJson } from '../../platform/db';
import type { Actor } from '../access/actor';
import { findClient, type UserRow } from '../access/finders';
import { assertCanGrantRoles, type GrantedRole } from '../access/grants';
import { seesAllCampuses, visibleCampus, visibleCompanies } from '../access/scope';
import type { ActorCtx } from '../context';
import { Forbidden, ValidationFailed } from '../errors';
import { permissionsOfRoles } from '../roles/service';
import { msg } from '../validation';
import type { CompanyUserInput, SchoolUserInput } from './schema';
import type { UserFamily } from './values';

// ---------------------------------------------------------------- permissions

export type Operation = 'read' | 'create' | 'update' | 'archive' | 'delete' | 'suspend' | 'approve';

/** The permissions (any one allows it) of each operation on each family of users. */
export const USER_PERMISSIONS: Record<UserFamily, Record<Operation, string>> = {
  company: {
    read: 'read_user',
    create: 'create_user',
    update: 'update_user',
    archive: 'archive_user',
    delete: 'delete_user',
    suspend: 'update_user',
    approve: 'update_user',
  },
  school: {
    read: 'read_client_user|read_school_user',
    create: 'create_client_user|create_school_user',
    update: 'update_client_user|update_school_user',
    archive: 'archive_client_user|archive_school_user',
    // A school user's own staff are suspended by its master user; approving is the insurer's (company) side.
    suspend: 'update_client_user|activate_school_user',
    approve: 'update_client_user',
    delete: 'archive_client_user',
  },
};

/** May the actor do this operation on users of this family (the screens show or hide their buttons by it)? */
function canManageUsers(actor: Actor, family: UserFamily, operation: Operation): boolean {
  return USER_PERMISSIONS[family][operation].split('|').some((p) => actor.permissions.has(p));
}

/** What the actor may do on each family, for the pages. */
export function userAbilities(actor: Actor) {
  const of = (family: UserFamily) => ({
    read: canManageUsers(actor, family, 'read'),
    create: canManageUsers(actor, family, 'create'),
    update: canManageUsers(actor, family, 'update'),
    archive: canManageUsers(actor, family, 'archive'),
    delete: canManageUsers(actor, family, 'delete'),
    suspend: canManageUsers(actor, family, 'suspend'),
    approve: canManageUsers(actor, family, 'approve'),
  });
  return {
    company: actor.user_type === 'company' ? of('company') : { ...of('company'), read: false, create: false },
    school: of('school'),
  };
}

// ---------------------------------------------------------------- roles

type RoleWithPermissions = GrantedRole & {
  id: number;
  slug: string;
  name: string;
  company_id: number | null;
};

/** Roles with their permissions: of a family, named by slug, or held by a user. */
export async function rolesWithPermissions(
  ctx: ActorCtx,
  where: { family?: UserFamily; slugs?: string[]; userId?: number },
): Promise<RoleWithPermissions[]> {
  const rows = await ctx.db
    .select({
      id: roles.id,
      slug: roles.slug,
      name: roles.name,
      family: roles.family,
      company_id: roles.company_id,
    })
    .from(roles)
    .where(
      and(
        where.family ? eq(roles.family, where.family) : undefined,
        where.slugs ? inJson(roles.slug, where.slugs) : undefined,
        where.userId !== undefined
          ? sql`${roles.id} in (select ${userRoles.role_id} from ${userRoles} where ${userRoles.user_id} = ${where.userId})`
          : undefined,
      ),
    )
    .orderBy(asc(roles.id));
  if (rows.length === 0) return [];
  const perms = await permissionsOfRoles(
    ctx.db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({
    ...r,
    permissions: perms.filter((p) => p.role_id === r.id).map((p) => p.name),
  }));
}

/**
 * The roles named by slug, of any family, for a user who will belong to `companyIds`: unknown slugs are a
 * field error; a role the actor may not grant (beyond their permissions, of another family, or of a
 * company the actor or the user does not belong to) is Forbidden.
 */
export async function grantedRoles(
  ctx: ActorCtx,
  slugs: string[],
  family: UserFamily,
  companyIds: readonly number[],
) {
  const unique = [...new Set(slugs)];
  const found = await rolesWithPermissions(ctx, { slugs: unique });
  // A slug may exist in two families (the same word): the one of the user's family is meant if any.
  const chosen = unique.map(
    (slug) => found.find((r) => r.slug === slug && r.family === family) ?? found.find((r) => r.slug === slug),
  );
  if (chosen.some((r) => !r)) throw ValidationFailed.field('roles', msg('users.errors.role_unknown'));
  const list = chosen as RoleWithPermissions[];
  assertCanGrantRoles(ctx.actor, list, family, companyIds);
  return list;
}

// ---------------------------------------------------------------- whom and what

/**
 * Nobody changes a user who holds more than they do (an administrator cannot edit, archive or suspend a
 * senior admin), nor themselves through these screens (their own profile is /account-details). Returns
 * the roles the user holds.
 */
export async function assertMayChange(
  ctx: ActorCtx,
  user: UserRow,
  family: UserFamily,
): Promise<RoleWithPermissions[]> {
  if (user.id === ctx.actor.user_id) throw new Forbidden(msg('users.errors.self'));
  const held = await rolesWithPermissions(ctx, { userId: user.id });
  assertCanGrantRoles(
    ctx.actor,
    held.map((r) => ({ family, permissions: r.permissions })),
    family,
  );
  return held;
}

export async function assertEmailFree(ctx: ActorCtx, email: string, exceptId?: number) {
  const [taken] = await ctx.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, email.toLowerCase()))
    .limit(1);
  if (taken && taken.id !== exceptId) throw ValidationFailed.field('email', msg('users.errors.email_taken'));
}

/** The companies of a company user after a change: the chosen ones in the actor's view, and any others kept. */
export async function companyIdsFor(ctx: ActorCtx, chosen: string[], userId?: number): Promise<number[]> {
  const inView = visibleCompanies(ctx.actor);
  const ids = chosen.map((pid) => inView.find((c) => c.public_id === pid)?.id);
  if (ids.some((id) => id === undefined))
    throw ValidationFailed.field('companies', msg('users.errors.company_unknown'));
  const kept =
    userId === undefined
      ? []
      : (
          await ctx.db
            .select({ id: userCompanies.company_id })
            .from(userCompanies)
            .where(eq(userCompanies.user_id, userId))
        )
          .map((r) => r.id)
          .filter((id) => !inView.some((c) => c.id === id));
  return [...new Set([...(ids as number[]), ...kept])];
}

/** The client and campuses of a school user: the client in view, its campuses the actor sees. */
export async function schoolPlacement(
  ctx: ActorCtx,
  input: SchoolUserInput,
  existingClientId?: number | null,
) {
  const clientRef =
    ctx.actor.user_type === 'school' ? ctx.actor.client_id : (input.client ?? existingClientId ?? null);
  if (!clientRef) throw ValidationFailed.field('client', msg('validation.required'));
  const client = await findClient(ctx, clientRef, USER_PERMISSIONS.school.read);
  if (input.can_access_all_campuses && !seesAllCampuses(ctx.actor)) throw new Forbidden();
  const wanted = input.can_access_all_campuses ? [] : [...new Set(input.campuses)];
  const found = wanted.length
    ? await ctx.db
        .select({ id: campuses.id, public_id: campuses.public_id })
        .from(campuses)
        .innerJoin(clients, eq(clients.id, campuses.client_id))
        .where(
          and(
            eq(campuses.client_id, client.id),
            inJson(campuses.public_id, wanted),
            visibleCampus(ctx.actor),
          ),
        )
    : [];
  if (found.length !== wanted.length)
    throw ValidationFailed.field('campuses', msg('users.errors.campus_unknown'));
  return { client, campusIds: found.map((c) => c.id) };
}

export function personValues(input: CompanyUserInput | SchoolUserInput) {
  return {
    first_name: input.first_name,
    last_name: input.last_name,
    email: input.email.toLowerCase(),
    phone_country: input.phone_country?.toUpperCase() ?? null,
    phone_number: input.phone_number ?? null,
    member_type: input.member_type,
    job_title: input.job_title ?? null,
    department: input.department ?? null,
    is_master_user: input.is_master_user,
  };
}

/** A user row as the activity log keeps it (never the password hash). */
export const forLog = (u: Partial<UserRow> & Record<string, unknown>) => {
  const { password_hash: _p, ...rest } = u;
  void _p;
  return rest;
};

/** The tenant columns of a user's log rows. */
export function placeOf(user: UserRow) {
  return { client_id: user.client_id ?? null };
}
