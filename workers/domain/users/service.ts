/**
 * Company users and school users (spec 001 s.3 and s.4; catalogue: "Company users", "School users"):
 * lists, invitations, edits and every state move, for the /manage-users screens, the client's and the
 * campus's Users tabs and the JSON API alike.
 *
 * Who may do what (docs/decisions/roles-and-users.md, "Users"): company users are managed with the user permissions
 * (read_user, create_user, update_user, archive_user, delete_user); school users by company staff with
 * the client-user permissions and by school users with the school-user permissions. Which users an actor
 * reaches is `visibleUsers` (access/scope.ts); a user of another tenant answers "not found". Nobody
 * grants a role beyond their own permissions or of another family (access/grants.ts), and nobody changes
 * a user who holds more than they do.
 */
import { and, asc, desc, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import {
  campuses,
  clients,
  companies,
  invitations,
  permissions,
  rolePermissions,
  roles,
  userCampuses,
  userCompanies,
  userRoles,
  users,
} from '../../../drizzle/schema';
import { publicId } from '../../platform/crypto';
import { bulkInsert, idByPublicId, runBatch, type Statement } from '../../platform/db';
import { can, requirePermission, type Actor } from '../access/actor';
import { findCampus, findClient, findUser, type UserRow } from '../access/finders';
import { assertCanGrantRoles, type GrantedRole } from '../access/grants';
import {
  seesAllCampuses,
  visibleCampus,
  visibleClients,
  visibleCompanies,
  visibleUsers,
} from '../access/scope';
import { logActivity } from '../audit/activity-log';
import type { ActivityAction } from '../audit/actions';
import { deleteUserSessions } from '../auth/sessions';
import { invitationStatements } from '../auth/service';
import type { ActorCtx } from '../context';
import { Forbidden, ValidationFailed } from '../errors';
import { countAll, likeAny, orderBy, paginate } from '../lists';
import { flushOutbox } from '../outbox/service';
import { msg } from '../validation';
import type { CompanyUserInput, CompanyUserListQuery, SchoolUserInput, SchoolUserListQuery } from './schema';
import type { InvitationStateName, UserFamily } from './values';

// ---------------------------------------------------------------- permissions

type Operation = 'read' | 'create' | 'update' | 'archive' | 'delete' | 'suspend' | 'approve';

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
export function canManageUsers(actor: Actor, family: UserFamily, operation: Operation): boolean {
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

// ---------------------------------------------------------------- lists

const fullName = sql<string>`trim(${users.first_name} || ' ' || ${users.last_name})`;
const firstRole = sql<
  string | null
>`(select r.name from user_roles ur join roles r on r.id = ur.role_id where ur.user_id = "users"."id" order by r.id limit 1)`;
function listColumns(now: Date) {
  return {
    id: users.public_id,
    first_name: users.first_name,
    last_name: users.last_name,
    full_name: fullName.as('full_name'),
    email: users.email,
    phone_country: users.phone_country,
    phone_number: users.phone_number,
    member_type: users.member_type,
    job_title: users.job_title,
    department: users.department,
    is_master_user: users.is_master_user,
    status: users.status,
    suspended: users.suspended,
    can_access_all_campuses: users.can_access_all_campuses,
    role: firstRole.as('role_name'),
    invitation: sql<InvitationStateName | null>`(select case
        when i.accepted_at is not null then 'accepted'
        when i.revoked_at is not null then 'revoked'
        when i.expires_at <= ${now.getTime()} then 'expired'
        else 'pending' end
      from invitations i where i.user_id = "users"."id" order by i.id desc limit 1)`.as('invitation_state'),
    last_login_at: users.last_login_at,
    created_at: users.created_at,
  };
}

export interface UserListItem {
  id: string;
  first_name: string;
  last_name: string;
  full_name: string;
  email: string;
  phone_country: string | null;
  phone_number: string | null;
  member_type: 'admin' | 'employee' | null;
  job_title: string | null;
  department: string | null;
  is_master_user: boolean;
  status: UserRow['status'];
  suspended: boolean;
  can_access_all_campuses: boolean;
  role: string | null;
  invitation: InvitationStateName | null;
  last_login_at: Date | null;
  created_at: Date;
  /** Company users: their companies' names; school users: their client's name. */
  belongs_to: string | null;
}

const sortable = {
  name: fullName,
  email: users.email,
  status: users.status,
  created_at: users.created_at,
  last_login_at: users.last_login_at,
};

function statusFilter(status: string): SQL | undefined {
  switch (status) {
    case 'all':
      return undefined;
    case 'suspended':
      return eq(users.suspended, true);
    case 'active':
      return and(eq(users.status, 'active'), eq(users.suspended, false));
    default:
      return eq(users.status, status as UserRow['status']);
  }
}

/** The rows a users list shows: the family's visible users, the status and search filters, and `extra`. */
function usersWhere(
  ctx: ActorCtx,
  family: UserFamily,
  query: { search?: string; status: string },
  extra: (SQL | undefined)[],
) {
  requirePermission(ctx.actor, USER_PERMISSIONS[family].read);
  return and(
    visibleUsers(ctx.actor, family),
    statusFilter(query.status),
    likeAny([users.first_name, users.last_name, users.email, fullName], query.search),
    ...extra,
  );
}

/** A list's filters beyond status and search, and what its "belongs to" column reads. */
interface FamilyFilter {
  extra: (SQL | undefined)[];
  belongsTo: SQL<string | null>;
}

function selectUsers(
  ctx: ActorCtx,
  where: SQL | undefined,
  order: string | undefined,
  belongsTo: SQL<string | null>,
) {
  return ctx.db
    .select({ ...listColumns(ctx.now), belongs_to: belongsTo.as('belongs_to') })
    .from(users)
    .where(where)
    .orderBy(...orderBy(order, sortable, 'name_asc', users.id));
}

async function listUsers(
  ctx: ActorCtx,
  family: UserFamily,
  query: { page: number; items: number; search?: string; order?: string; status: string },
  { extra, belongsTo }: FamilyFilter,
) {
  const where = usersWhere(ctx, family, query, extra);
  return paginate<UserListItem>(ctx.db, query, {
    rows: (limit, offset) => selectUsers(ctx, where, query.order, belongsTo).limit(limit).offset(offset),
    count: ctx.db.select({ total: countAll }).from(users).where(where),
  });
}

function companyUsersFilter(ctx: ActorCtx, query: CompanyUserListQuery): FamilyFilter {
  let company: SQL | undefined;
  if (query.companies) {
    const chosen = visibleCompanies(ctx.actor).find((c) => c.public_id === query.companies);
    company = chosen
      ? sql`exists (select 1 from ${userCompanies} where ${userCompanies.user_id} = ${users.id} and ${userCompanies.company_id} = ${chosen.id})`
      : sql`${users.id} is null`;
  }
  return {
    extra: [company],
    belongsTo: sql<
      string | null
    >`(select group_concat(c.name, ', ') from user_companies uc join companies c on c.id = uc.company_id where uc.user_id = "users"."id")`,
  };
}

async function schoolUsersFilter(ctx: ActorCtx, query: SchoolUserListQuery): Promise<FamilyFilter> {
  const extra: SQL[] = [];
  if (query.clients) {
    const client = await findClient(ctx, query.clients, USER_PERMISSIONS.school.read);
    extra.push(eq(users.client_id, client.id));
  }
  if (query.campuses) {
    const [campus] = await ctx.db
      .select({ id: campuses.id, client_id: campuses.client_id })
      .from(campuses)
      .innerJoin(clients, eq(clients.id, campuses.client_id))
      .where(and(eq(campuses.public_id, query.campuses), visibleCampus(ctx.actor)))
      .limit(1);
    extra.push(campus ? reachesCampus(campus) : sql`${users.id} is null`);
  }
  return {
    extra,
    belongsTo: sql<string | null>`(select c.name from clients c where c.id = "users"."client_id")`,
  };
}

/** GET users/company/list: company users, active by default, of the current company by default. */
export async function listCompanyUsers(ctx: ActorCtx, query: CompanyUserListQuery) {
  return listUsers(ctx, 'company', query, companyUsersFilter(ctx, query));
}

/** GET users/school/list: school users by client and campus (a campus: those who reach it). */
export async function listSchoolUsers(ctx: ActorCtx, query: SchoolUserListQuery) {
  return listUsers(ctx, 'school', query, await schoolUsersFilter(ctx, query));
}

/** At most this many users go into one Excel export of a users list. */
export const USERS_EXPORT_LIMIT = 5000;

/**
 * The /manage-users lists' Excel export: every user the list shows with the same filters (status,
 * search, companies, or client and campus) in the same order, no paging, at most USERS_EXPORT_LIMIT.
 */
export async function exportUsers(
  ctx: ActorCtx,
  family: 'company',
  query: CompanyUserListQuery,
): Promise<UserListItem[]>;
export async function exportUsers(
  ctx: ActorCtx,
  family: 'school',
  query: SchoolUserListQuery,
): Promise<UserListItem[]>;
export async function exportUsers(
  ctx: ActorCtx,
  family: UserFamily,
  query: CompanyUserListQuery | SchoolUserListQuery,
): Promise<UserListItem[]> {
  const filter =
    family === 'company'
      ? companyUsersFilter(ctx, query as CompanyUserListQuery)
      : await schoolUsersFilter(ctx, query as SchoolUserListQuery);
  const where = usersWhere(ctx, family, query, filter.extra);
  return (await selectUsers(ctx, where, query.order, filter.belongsTo).limit(
    USERS_EXPORT_LIMIT,
  )) as UserListItem[];
}

/**
 * GET clients/{id}/school-users: the client's school users, listed as /manage-users lists them (the same
 * filters, paging and answer); a client out of reach is not found.
 */
export async function listClientUsers(ctx: ActorCtx, clientId: string, query: SchoolUserListQuery) {
  return listSchoolUsers(ctx, { ...query, clients: clientId, campuses: undefined });
}

/**
 * GET campuses/{id}/users: the school users who reach the campus, listed as /manage-users lists them; a
 * campus out of reach is not found.
 */
export async function listCampusUsers(ctx: ActorCtx, campusId: string, query: SchoolUserListQuery) {
  const { campus, client } = await findCampus(ctx, campusId, 'read_campus');
  return listSchoolUsers(ctx, { ...query, clients: client.public_id, campuses: campus.public_id });
}

/** The school users who reach a campus: those of its client with all campuses, or given this one. */
function reachesCampus(campus: { id: number; client_id: number }): SQL {
  return and(
    eq(users.client_id, campus.client_id),
    or(
      eq(users.can_access_all_campuses, true),
      sql`exists (select 1 from ${userCampuses} where ${userCampuses.user_id} = ${users.id} and ${userCampuses.campus_id} = ${campus.id})`,
    ),
  )!;
}

/** GET users/company/summary and clients/{id}/school-users/summary: how many users in each state. */
export async function usersSummary(ctx: ActorCtx, family: UserFamily, clientId?: string) {
  requirePermission(ctx.actor, USER_PERMISSIONS[family].read);
  const client = clientId ? await findClient(ctx, clientId, USER_PERMISSIONS[family].read) : null;
  const count = (cond: SQL) => sql<number>`coalesce(sum(case when ${cond} then 1 else 0 end), 0)`;
  const [row] = await ctx.db
    .select({
      total: sql<number>`count(*)`,
      active: count(and(eq(users.status, 'active'), eq(users.suspended, false))!),
      invited: count(eq(users.status, 'invited')),
      pending: count(eq(users.status, 'pending')),
      suspended: count(eq(users.suspended, true)),
      archived: count(eq(users.status, 'archived')),
      declined: count(eq(users.status, 'declined')),
    })
    .from(users)
    .where(and(visibleUsers(ctx.actor, family), client ? eq(users.client_id, client.id) : undefined));
  return {
    total: Number(row?.total ?? 0),
    active: Number(row?.active ?? 0),
    invited: Number(row?.invited ?? 0),
    pending: Number(row?.pending ?? 0),
    suspended: Number(row?.suspended ?? 0),
    archived: Number(row?.archived ?? 0),
    declined: Number(row?.declined ?? 0),
  };
}

// ---------------------------------------------------------------- one user

export interface UserDetail {
  id: string;
  family: UserFamily;
  first_name: string;
  last_name: string;
  full_name: string;
  email: string;
  phone_country: string | null;
  phone_number: string | null;
  member_type: 'admin' | 'employee' | null;
  job_title: string | null;
  department: string | null;
  is_master_user: boolean;
  status: UserRow['status'];
  suspended: boolean;
  can_access_all_campuses: boolean;
  client: { id: string; name: string } | null;
  companies: { id: string; name: string }[];
  campuses: { id: string; name: string }[];
  roles: { id: string; name: string }[];
  invitation: { state: InvitationStateName; expires_at: Date; created_at: Date } | null;
  last_login_at: Date | null;
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
    id: user.public_id,
    family,
    first_name: user.first_name,
    last_name: user.last_name,
    full_name: `${user.first_name} ${user.last_name}`.trim(),
    email: user.email,
    phone_country: user.phone_country,
    phone_number: user.phone_number,
    member_type: user.member_type,
    job_title: user.job_title,
    department: user.department,
    is_master_user: user.is_master_user,
    status: user.status,
    suspended: user.suspended,
    can_access_all_campuses: user.can_access_all_campuses,
    client: clientRows[0] ?? null,
    companies: companyRows,
    campuses: campusRows,
    roles: roleRows,
    invitation: inv
      ? { state: invitationStateOf(inv, ctx.now), expires_at: inv.expires_at, created_at: inv.created_at }
      : null,
    last_login_at: user.last_login_at,
    updated_at: user.updated_at,
  };
}

/** An invitation's state: accepted, revoked, expired (7 days after it was sent) or pending. */
export function invitationStateOf(
  inv: { accepted_at: Date | null; revoked_at: Date | null; expires_at: Date },
  now: Date,
): InvitationStateName {
  if (inv.accepted_at) return 'accepted';
  if (inv.revoked_at) return 'revoked';
  if (inv.expires_at.getTime() <= now.getTime()) return 'expired';
  return 'pending';
}

/**
 * What the invite and edit forms offer: the roles of the family the actor may grant, the companies in
 * view (company users), the clients in view (school users, company staff) and the campuses of a client.
 */
export async function userFormOptions(ctx: ActorCtx, family: UserFamily, clientId?: string | null) {
  requirePermission(ctx.actor, `${USER_PERMISSIONS[family].create}|${USER_PERMISSIONS[family].update}`);
  const familyRoles = await rolesWithPermissions(ctx, { family });
  const grantable = familyRoles.filter((r) => {
    try {
      assertCanGrantRoles(ctx.actor, [r], family);
      return true;
    } catch {
      return false;
    }
  });
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

async function rolesWithPermissions(
  ctx: ActorCtx,
  where: { family?: UserFamily; slugs?: string[]; userId?: number },
): Promise<(GrantedRole & { id: number; slug: string; name: string })[]> {
  const rows = await ctx.db
    .select({ id: roles.id, slug: roles.slug, name: roles.name, family: roles.family })
    .from(roles)
    .where(
      and(
        where.family ? eq(roles.family, where.family) : undefined,
        where.slugs ? inArray(roles.slug, where.slugs.length ? where.slugs : ['']) : undefined,
        where.userId !== undefined
          ? sql`${roles.id} in (select ${userRoles.role_id} from ${userRoles} where ${userRoles.user_id} = ${where.userId})`
          : undefined,
      ),
    )
    .orderBy(asc(roles.id));
  if (rows.length === 0) return [];
  const perms = await ctx.db
    .select({ role_id: rolePermissions.role_id, name: permissions.name })
    .from(rolePermissions)
    .innerJoin(permissions, eq(permissions.id, rolePermissions.permission_id))
    .where(
      inArray(
        rolePermissions.role_id,
        rows.map((r) => r.id),
      ),
    );
  return rows.map((r) => ({
    ...r,
    permissions: perms.filter((p) => p.role_id === r.id).map((p) => p.name),
  }));
}

// ---------------------------------------------------------------- the rules every change follows

/** The roles named by slug, of any family; unknown slugs are a field error, others' families Forbidden. */
async function grantedRoles(ctx: ActorCtx, slugs: string[], family: UserFamily) {
  const unique = [...new Set(slugs)];
  const found = await rolesWithPermissions(ctx, { slugs: unique });
  // A slug may exist in two families (the same word): the one of the user's family is meant if any.
  const chosen = unique.map(
    (slug) => found.find((r) => r.slug === slug && r.family === family) ?? found.find((r) => r.slug === slug),
  );
  if (chosen.some((r) => !r)) throw ValidationFailed.field('roles', msg('users.errors.role_unknown'));
  const list = chosen as NonNullable<(typeof chosen)[number]>[];
  assertCanGrantRoles(ctx.actor, list, family);
  return list;
}

/**
 * Nobody changes a user who holds more than they do (an administrator cannot edit, archive or suspend a
 * senior admin), nor themselves through these screens (their own profile is /account-details).
 */
async function assertMayChange(ctx: ActorCtx, user: UserRow, family: UserFamily) {
  if (user.id === ctx.actor.user_id) throw new Forbidden(msg('users.errors.self'));
  const held = await rolesWithPermissions(ctx, { userId: user.id });
  assertCanGrantRoles(
    ctx.actor,
    held.map((r) => ({ ...r, family })),
    family,
  );
}

async function assertEmailFree(ctx: ActorCtx, email: string, exceptId?: number) {
  const [taken] = await ctx.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, email.toLowerCase()))
    .limit(1);
  if (taken && taken.id !== exceptId) throw ValidationFailed.field('email', msg('users.errors.email_taken'));
}

/** The companies of a company user after a change: the chosen ones in the actor's view, and any others kept. */
async function companyIdsFor(ctx: ActorCtx, chosen: string[], userId?: number): Promise<number[]> {
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
async function schoolPlacement(ctx: ActorCtx, input: SchoolUserInput, existingClientId?: number | null) {
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
            inArray(campuses.public_id, wanted),
            visibleCampus(ctx.actor),
          ),
        )
    : [];
  if (found.length !== wanted.length)
    throw ValidationFailed.field('campuses', msg('users.errors.campus_unknown'));
  return { client, campusIds: found.map((c) => c.id) };
}

function personValues(input: CompanyUserInput | SchoolUserInput) {
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

const forLog = (u: Partial<UserRow> & Record<string, unknown>) => {
  const { password_hash: _p, ...rest } = u;
  void _p;
  return rest;
};

// ---------------------------------------------------------------- invite

/** POST users/company/add: a new company user, invited by email (the link works once, for 7 days). */
export async function inviteCompanyUser(ctx: ActorCtx, input: CompanyUserInput): Promise<{ id: string }> {
  requirePermission(ctx.actor, USER_PERMISSIONS.company.create);
  if (ctx.actor.user_type !== 'company') throw new Forbidden();
  const granted = await grantedRoles(ctx, input.roles, 'company');
  const companyIds = await companyIdsFor(ctx, input.companies);
  await assertEmailFree(ctx, input.email);
  return createInvited(ctx, {
    values: { ...personValues(input), user_type: 'company', status: 'invited' },
    roleIds: granted.map((r) => r.id),
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
export async function inviteSchoolUser(ctx: ActorCtx, input: SchoolUserInput): Promise<{ id: string }> {
  requirePermission(ctx.actor, USER_PERMISSIONS.school.create);
  const granted = await grantedRoles(ctx, input.roles, 'school');
  const { client, campusIds } = await schoolPlacement(ctx, input);
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
    roleIds: granted.map((r) => r.id),
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
    roleIds: number[];
    companyIds: number[];
    campusIds: number[];
    companyId: number | null;
    clientId: number | null;
  },
): Promise<{ id: string }> {
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
    ...plan.roleIds.map((role_id) => ctx.db.insert(userRoles).values({ user_id: userId, role_id })),
    ...plan.companyIds.map((company_id) =>
      ctx.db.insert(userCompanies).values({ user_id: userId, company_id }),
    ),
    ...plan.campusIds.map((campus_id) => ctx.db.insert(userCampuses).values({ user_id: userId, campus_id })),
    logActivity(ctx, {
      entity_type: 'user',
      entity_id: userId,
      action: plan.values.status === 'pending' ? 'added' : 'invited',
      after: forLog(plan.values),
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
  return { id: pid };
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

function placeOf(user: UserRow) {
  return { client_id: user.client_id ?? null };
}

// ---------------------------------------------------------------- edit

/** PUT users/company/{id}: the person, their companies and roles. */
export async function updateCompanyUser(
  ctx: ActorCtx,
  id: string,
  input: CompanyUserInput,
): Promise<UserDetail> {
  const user = await findUser(ctx, id, 'company', USER_PERMISSIONS.company.update);
  await assertMayChange(ctx, user, 'company');
  const granted = await grantedRoles(ctx, input.roles, 'company');
  const companyIds = await companyIdsFor(ctx, input.companies, user.id);
  await assertEmailFree(ctx, input.email, user.id);
  const values = personValues(input);
  await saveUser(ctx, user, values, granted, [
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
  await assertMayChange(ctx, user, 'school');
  const granted = await grantedRoles(ctx, input.roles, 'school');
  const { campusIds } = await schoolPlacement(ctx, { ...input, client: undefined }, user.client_id);
  await assertEmailFree(ctx, input.email, user.id);
  const values = { ...personValues(input), can_access_all_campuses: input.can_access_all_campuses };
  await saveUser(ctx, user, values, granted, [
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
 * given as statements) and the log row with before and after.
 */
async function saveUser(
  ctx: ActorCtx,
  user: UserRow,
  values: Partial<typeof users.$inferInsert>,
  granted: { id: number }[],
  access: Statement[],
): Promise<void> {
  await runBatch(ctx.db, [
    ctx.db
      .update(users)
      .set({ ...values, updated_at: ctx.now })
      .where(eq(users.id, user.id)),
    ...replaceRoles(
      ctx,
      user.id,
      granted.map((r) => r.id),
    ),
    ...access,
    logActivity(ctx, {
      entity_type: 'user',
      entity_id: user.id,
      action: 'updated',
      before: forLog(user),
      after: forLog({ ...user, ...values }),
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

// ---------------------------------------------------------------- state moves

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
  };
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

/** True when the actor may open a given family's tab at all (the list pages). */
export function mayReadUsers(actor: Actor, family: UserFamily): boolean {
  if (family === 'company' && actor.user_type !== 'company') return false;
  return canManageUsers(actor, family, 'read') || (family === 'company' && can(actor, 'read_user'));
}

/** The filters of the school users list: the clients in view (company staff) and a client's campuses. */
export async function schoolUserFilters(ctx: ActorCtx, clientId?: string | null) {
  requirePermission(ctx.actor, USER_PERMISSIONS.school.read);
  const clientRows =
    ctx.actor.user_type === 'company'
      ? await ctx.db
          .select({ id: clients.public_id, name: clients.name })
          .from(clients)
          .where(visibleClients(ctx.actor))
          .orderBy(asc(clients.name))
          .limit(500)
      : [];
  const own = ctx.actor.user_type === 'school' ? ctx.actor.client_id : null;
  const client = own
    ? await findClient(ctx, own, USER_PERMISSIONS.school.read)
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
  return { clients: clientRows, campuses: campusRows };
}
