import { and, eq, sql } from 'drizzle-orm';
import {
  campuses,
  clients,
  companies,
  countries,
  permissions,
  rolePermissions,
  roles,
  userCampuses,
  userCompanies,
  userRoles,
  users,
} from '../../../drizzle/schema';
import type { DB } from '../../platform/db';
import { Forbidden, Unauthenticated } from '../errors';
import type { Permission } from './permissions';

export interface ActorCompany {
  id: number;
  public_id: string;
  name: string;
  country_id: number | null;
  country_name: string | null;
}

/** Who is acting: the signed-in user with their permissions and tenant scope, resolved once per request. */
export interface Actor {
  user_id: number;
  public_id: string;
  email: string;
  first_name: string;
  last_name: string;
  user_type: 'company' | 'school' | 'student';
  roles: { slug: string; name: string }[];
  permissions: ReadonlySet<string>;
  /** Companies the user belongs to (a school user: its client's company). */
  companies: ActorCompany[];
  /** The company chosen in the top bar; null means "all companies" (all of the user's). */
  selected_company_id: number | null;
  client_id: number | null;
  /** Campuses a school user may see; null means all campuses of their client. */
  campus_ids: number[] | null;
  landing_page: 'dashboard' | 'insureds' | 'clients' | 'products';
  preferred_lang: string;
  session_id: number | null;
  holds_other_region_token: boolean;
  /** Set when the request came with an API key instead of a session: the key's id (its scope narrows this actor). */
  api_key_id: number | null;
  /** Set in the support view: the senior admin viewing the portal as this user (their user id). */
  support_admin_id: number | null;
}

/** True when the actor holds the permission through any of their roles. */
export function can(actor: Actor | null | undefined, permission: Permission): boolean {
  return !!actor && actor.permissions.has(permission);
}

/**
 * A guard expression as routes write it: a pipe-separated list, allowed when the actor holds any one.
 * `canAny(actor, 'read_client|read_campus')`.
 */
export function canAny(actor: Actor | null | undefined, required: string): boolean {
  if (!actor) return false;
  return required
    .split('|')
    .map((p) => p.trim())
    .filter(Boolean)
    .some((p) => actor.permissions.has(p));
}

export function hasRole(actor: Actor | null | undefined, slug: string): boolean {
  return !!actor && actor.roles.some((r) => r.slug === slug);
}

export function hasOnlyRole(actor: Actor | null | undefined, slug: string): boolean {
  return !!actor && actor.roles.length === 1 && actor.roles[0].slug === slug;
}

/** Every service function calls this first. */
export function requirePermission(actor: Actor | null | undefined, required: Permission | string): Actor {
  if (!actor) throw new Unauthenticated();
  if (!canAny(actor, required)) throw new Forbidden();
  return actor;
}

export function requireActor(actor: Actor | null | undefined): Actor {
  if (!actor) throw new Unauthenticated();
  return actor;
}

/**
 * Loads the actor of a user: roles, permissions, companies and campus scope, in one batch.
 * `selectedCompanyId` is the session's top-bar choice (or a job's, recorded when it was started); it is
 * kept only if the user belongs to it.
 */
export async function loadActor(
  db: DB,
  userId: number,
  opts: {
    sessionId?: number | null;
    selectedCompanyId?: number | null;
    holdsOtherRegionToken?: boolean;
    apiKeyId?: number | null;
    supportAdminId?: number | null;
  } = {},
): Promise<Actor | null> {
  const [userRows, roleRows, permissionRows, companyRows, campusRows] = await db.batch([
    db.select().from(users).where(eq(users.id, userId)).limit(1),
    db
      .select({ slug: roles.slug, name: roles.name })
      .from(userRoles)
      .innerJoin(roles, eq(roles.id, userRoles.role_id))
      .where(eq(userRoles.user_id, userId)),
    db
      .selectDistinct({ name: permissions.name })
      .from(userRoles)
      .innerJoin(rolePermissions, eq(rolePermissions.role_id, userRoles.role_id))
      .innerJoin(permissions, eq(permissions.id, rolePermissions.permission_id))
      .where(eq(userRoles.user_id, userId)),
    db
      .select({
        id: companies.id,
        public_id: companies.public_id,
        name: companies.name,
        country_id: companies.country_id,
        country_name: sql<string | null>`${countries.name}`.as('country_name'),
      })
      .from(userCompanies)
      .innerJoin(companies, eq(companies.id, userCompanies.company_id))
      .leftJoin(countries, eq(countries.id, companies.country_id))
      .where(and(eq(userCompanies.user_id, userId), eq(companies.status, 'active')))
      .orderBy(companies.name),
    db
      .select({ id: userCampuses.campus_id })
      .from(userCampuses)
      .innerJoin(campuses, eq(campuses.id, userCampuses.campus_id))
      .where(eq(userCampuses.user_id, userId)),
  ]);
  const user = userRows[0];
  if (!user || user.status !== 'active' || user.suspended) return null;

  let actorCompanies: ActorCompany[] = companyRows;
  if (user.user_type !== 'company' && user.client_id) {
    actorCompanies = await db
      .select({
        id: companies.id,
        public_id: companies.public_id,
        name: companies.name,
        country_id: companies.country_id,
        country_name: sql<string | null>`${countries.name}`.as('country_name'),
      })
      .from(clients)
      .innerJoin(companies, eq(companies.id, clients.company_id))
      .leftJoin(countries, eq(countries.id, companies.country_id))
      .where(eq(clients.id, user.client_id));
  }

  // Stored choice: null = never chosen (the first company), 0 = "all companies", else a company id.
  // A session's choice is its own (taken from the user's at sign-in): another session of the same account
  // changing the user's stored choice never moves it. Without a session, the user's stored choice.
  const wanted =
    opts.sessionId !== undefined && opts.sessionId !== null
      ? (opts.selectedCompanyId ?? null)
      : (opts.selectedCompanyId ?? user.selected_company_id);
  const selected =
    wanted === 0 && actorCompanies.length > 1
      ? null
      : wanted && actorCompanies.some((c) => c.id === wanted)
        ? wanted
        : (actorCompanies[0]?.id ?? null);

  return {
    user_id: user.id,
    public_id: user.public_id,
    email: user.email,
    first_name: user.first_name,
    last_name: user.last_name,
    user_type: user.user_type,
    roles: roleRows,
    permissions: new Set(permissionRows.map((p) => p.name)),
    companies: actorCompanies,
    selected_company_id: selected,
    client_id: user.client_id,
    campus_ids:
      user.user_type === 'school' && !user.can_access_all_campuses ? campusRows.map((c) => c.id) : null,
    landing_page: user.landing_page,
    preferred_lang: user.preferred_lang,
    session_id: opts.sessionId ?? null,
    holds_other_region_token: !!opts.holdsOtherRegionToken || user.other_region_access,
    api_key_id: opts.apiKeyId ?? null,
    support_admin_id: opts.supportAdminId ?? null,
  };
}
