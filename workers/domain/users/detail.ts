/** One user as the user page and the API show them, and what the invite and edit forms offer. */
import { and, asc, desc, eq } from 'drizzle-orm';
import {
  campuses,
  clients,
  companies,
  invitations,
  roles,
  userCampuses,
  userCompanies,
  userRoles,
} from '../../../drizzle/schema';
import { requirePermission } from '../access/actor';
import { findClient, findUser, type UserRow } from '../access/finders';
import { canGrantRole } from '../access/grants';
import { seesAllCampuses, visibleCampus, visibleClients, visibleCompanies } from '../access/scope';
import type { ActorCtx } from '../context';
import { invitationStateOf, userFieldsOf, type UserFields } from './fields';
import { rolesWithPermissions, USER_PERMISSIONS } from './rules';
import type { InvitationStateName, UserFamily } from './values';

export interface UserDetail extends UserFields {
  family: UserFamily;
  client: { id: string; name: string } | null;
  companies: { id: string; name: string }[];
  campuses: { id: string; name: string }[];
  roles: { id: string; name: string }[];
  invitation: { state: InvitationStateName; expires_at: Date; created_at: Date } | null;
  updated_at: Date;
}

/** GET users/{family}/{id}: the user with their companies, campuses, roles and newest invitation. */
export async function getUser(ctx: ActorCtx, family: UserFamily, id: string): Promise<UserDetail> {
  const user = await findUser(ctx, id, family, USER_PERMISSIONS[family].read);
  return detailOf(ctx, user, family);
}

async function detailOf(ctx: ActorCtx, user: UserRow, family: UserFamily): Promise<UserDetail> {
  const [companyRows, campusRows, roleRows, inviteRows, clientRows] = await ctx.db.batch([
    ctx.db
      .select({ id: companies.public_id, name: companies.name })
      .from(userCompanies)
      .innerJoin(companies, eq(companies.id, userCompanies.company_id))
      .where(eq(userCompanies.user_id, user.id))
      .orderBy(asc(companies.name)),
    ctx.db
      .select({ id: campuses.public_id, name: campuses.name })
      .from(userCampuses)
      .innerJoin(campuses, eq(campuses.id, userCampuses.campus_id))
      .where(eq(userCampuses.user_id, user.id))
      .orderBy(asc(campuses.name)),
    ctx.db
      .select({ id: roles.slug, name: roles.name })
      .from(userRoles)
      .innerJoin(roles, eq(roles.id, userRoles.role_id))
      .where(eq(userRoles.user_id, user.id))
      .orderBy(asc(roles.id)),
    ctx.db
      .select()
      .from(invitations)
      .where(eq(invitations.user_id, user.id))
      .orderBy(desc(invitations.id))
      .limit(1),
    ctx.db
      .select({ id: clients.public_id, name: clients.name })
      .from(clients)
      .where(eq(clients.id, user.client_id ?? -1))
      .limit(1),
  ]);
  const inv = inviteRows[0];
  return {
    ...userFieldsOf(user),
    family,
    client: clientRows[0] ?? null,
    companies: companyRows,
    campuses: campusRows,
    roles: roleRows,
    invitation: inv
      ? { state: invitationStateOf(inv, ctx.now), expires_at: inv.expires_at, created_at: inv.created_at }
      : null,
    updated_at: user.updated_at,
  };
}

/**
 * What the invite and edit forms offer: the roles of the family the actor may grant, the companies in
 * view (company users), the clients in view (school users, company staff) and the campuses of a client.
 */
export async function userFormOptions(ctx: ActorCtx, family: UserFamily, clientId?: string | null) {
  requirePermission(ctx.actor, `${USER_PERMISSIONS[family].create}|${USER_PERMISSIONS[family].update}`);
  const familyRoles = await rolesWithPermissions(ctx, { family });
  const clientRows =
    family === 'school' && ctx.actor.user_type === 'company'
      ? await ctx.db
          .select({ id: clients.public_id, name: clients.name })
          .from(clients)
          .where(and(visibleClients(ctx.actor), eq(clients.status, 'active')))
          .orderBy(asc(clients.name))
          .limit(500)
      : [];
  const client =
    family !== 'school'
      ? null
      : ctx.actor.user_type === 'school' && ctx.actor.client_id
        ? await findClient(ctx, ctx.actor.client_id, USER_PERMISSIONS.school.read)
        : clientId
          ? await findClient(ctx, clientId, USER_PERMISSIONS.school.read).catch(() => null)
          : null;
  const campusRows = client
    ? await ctx.db
        .select({ id: campuses.public_id, name: campuses.name })
        .from(campuses)
        .innerJoin(clients, eq(clients.id, campuses.client_id))
        .where(and(eq(campuses.client_id, client.id), visibleCampus(ctx.actor)))
        .orderBy(asc(campuses.name))
    : [];
  // A company's own role is offered only to that company's users (a school user: their client's company).
  const grantable = familyRoles.filter((r) =>
    canGrantRole(ctx.actor, r, family, client ? [client.company_id] : undefined),
  );
  return {
    roles: grantable.map((r) => ({ id: r.slug, name: r.name })),
    companies:
      family === 'company' ? visibleCompanies(ctx.actor).map((c) => ({ id: c.public_id, name: c.name })) : [],
    clients: clientRows,
    client: client ? { id: client.public_id, name: client.name } : null,
    campuses: campusRows,
    may_grant_all_campuses: seesAllCampuses(ctx.actor),
  };
}
