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

/** The permissions of `wanted` the actor does not hold (empty when the grant is allowed). */
export function permissionsBeyond(actor: Actor, wanted: Iterable<string>): string[] {
  return [...new Set(wanted)].filter((p) => !actor.permissions.has(p)).sort();
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
