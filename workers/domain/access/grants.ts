import { Forbidden } from '../errors';
import type { Actor } from './actor';

/**
 * Nobody hands out more than they hold. One rule for every door that grants permissions: inviting or
 * editing a user (the roles given), creating, copying or editing a role (its permissions), and issuing
 * an API key (the permissions it carries).
 *
 * - A role goes only to a user of its own family (a school role to a school user, and so on).
 * - Every permission granted must be one the granting actor holds now.
 */
export type RoleFamily = 'company' | 'school' | 'student';

export interface GrantedRole {
  family: RoleFamily;
  permissions: readonly string[];
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

/** True when the role may be given to a user of `family` by this actor. */
export function canGrantRole(actor: Actor, role: GrantedRole, family: RoleFamily): boolean {
  return role.family === family && canGrantPermissions(actor, role.permissions);
}

/** Throws Forbidden unless every role is of the user's family and within the actor's permissions. */
export function assertCanGrantRoles(actor: Actor, roles: readonly GrantedRole[], family: RoleFamily): void {
  if (!roles.every((r) => canGrantRole(actor, r, family))) throw new Forbidden();
}
