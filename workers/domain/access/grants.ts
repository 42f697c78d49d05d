import { Forbidden } from '../errors';
import type { Actor } from './actor';

/**
 * Nobody hands out more than they hold. One rule for every door that grants permissions: inviting or
 * editing a user (the roles given), creating, copying or editing a role (its permissions), and issuing
 * an API key (the permissions it carries).
 *
 * - A role goes only to a user of its own family (a school role to a school user, and so on).
 * - Every permission granted must be one the granting actor holds now.
 * - A role that belongs to one company goes only to a user of that company, and only from an actor of
 *   that company (a role shared by every company has no such bound).
 */
export type RoleFamily = 'company' | 'school' | 'student';

export interface GrantedRole {
  family: RoleFamily;
  permissions: readonly string[];
  /** The one company the role belongs to; null or absent: every company's. */
  company_id?: number | null;
}

/**
 * The school and student portals' own permissions (their profile, their staff) have no holder among
 * company staff, who manage the same things from their side with the client and client-user
 * permissions. For granting, a portal permission counts as held by whoever holds its company-side
 * counterpart, so an administrator can invite a school's staff with the school roles (docs/decisions/roles-and-users.md,
 * "Users").
 */
export const PORTAL_COUNTERPARTS: Readonly<Record<string, string>> = {
  read_school_profile: 'read_client',
  update_school_profile: 'update_client',
  read_school_user: 'read_client_user',
  create_school_user: 'create_client_user',
  update_school_user: 'update_client_user',
  activate_school_user: 'update_client_user',
  archive_school_user: 'archive_client_user',
  read_student_profile: 'read_insured',
  update_student_profile: 'update_insured',
};

function holds(actor: Actor, permission: string): boolean {
  if (actor.permissions.has(permission)) return true;
  const counterpart = PORTAL_COUNTERPARTS[permission];
  return !!counterpart && actor.permissions.has(counterpart);
}

/** The permissions of `wanted` the actor does not hold (empty when the grant is allowed). */
export function permissionsBeyond(actor: Actor, wanted: Iterable<string>): string[] {
  return [...new Set(wanted)].filter((p) => !holds(actor, p)).sort();
}

export function canGrantPermissions(actor: Actor, wanted: Iterable<string>): boolean {
  return permissionsBeyond(actor, wanted).length === 0;
}

/** Throws Forbidden unless the actor holds every permission in `wanted`. */
export function assertCanGrantPermissions(actor: Actor, wanted: Iterable<string>): void {
  if (!canGrantPermissions(actor, wanted)) throw new Forbidden();
}

/**
 * A company's own role: the actor must belong to its company, and so must the user (`userCompanyIds`, the
 * companies the user will belong to; absent when not yet known, as when a form lists the roles).
 */
function companyAllows(actor: Actor, role: GrantedRole, userCompanyIds?: readonly number[]): boolean {
  if (role.company_id === null || role.company_id === undefined) return true;
  const companyId = role.company_id;
  if (!actor.companies.some((c) => c.id === companyId)) return false;
  return !userCompanyIds || userCompanyIds.includes(companyId);
}

/** True when the role may be given to a user of `family` (belonging to `userCompanyIds`) by this actor. */
export function canGrantRole(
  actor: Actor,
  role: GrantedRole,
  family: RoleFamily,
  userCompanyIds?: readonly number[],
): boolean {
  return (
    role.family === family &&
    canGrantPermissions(actor, role.permissions) &&
    companyAllows(actor, role, userCompanyIds)
  );
}

/**
 * Throws Forbidden unless every role is of the user's family, within the actor's permissions and, for a
 * company's own role, of a company both the actor and the user belong to.
 */
export function assertCanGrantRoles(
  actor: Actor,
  roles: readonly GrantedRole[],
  family: RoleFamily,
  userCompanyIds?: readonly number[],
): void {
  if (!roles.every((r) => canGrantRole(actor, r, family, userCompanyIds))) throw new Forbidden();
}
