/**
 * The users lists (company users; school users by client and campus), their Excel export's rows, the
 * counts by state and the school users list's filters. Which users an actor reaches is `visibleUsers`
 * (access/scope.ts).
 */
import { and, asc, eq, or, sql, type SQL } from 'drizzle-orm';
import { campuses, clients, userCampuses, userCompanies, users } from '../../../drizzle/schema';
import { requirePermission } from '../access/actor';
import { findCampus, findClient, type UserRow } from '../access/finders';
import { visibleCampus, visibleClients, visibleCompanies, visibleUsers } from '../access/scope';
import type { ActorCtx } from '../context';
import { countAll, likeAny, orderBy, paginate } from '../lists';
import { fullNameSql, newestInvitationStateSql, userFieldColumns, type UserFields } from './fields';
import { USER_PERMISSIONS } from './rules';
import type { CompanyUserListQuery, SchoolUserListQuery } from './schema';
import type { InvitationStateName, UserFamily } from './values';

const firstRole = sql<
  string | null
>`(select r.name from user_roles ur join roles r on r.id = ur.role_id where ur.user_id = "users"."id" order by r.id limit 1)`;
function listColumns(now: Date) {
  return {
    ...userFieldColumns,
    role: firstRole.as('role_name'),
    invitation: newestInvitationStateSql(now).as('invitation_state'),
    created_at: users.created_at,
  };
}

export interface UserListItem extends UserFields {
  role: string | null;
  invitation: InvitationStateName | null;
  created_at: Date;
  /** Company users: their companies' names; school users: their client's name. */
  belongs_to: string | null;
}

const sortable = {
  name: fullNameSql,
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
    likeAny([users.first_name, users.last_name, users.email, fullNameSql], query.search),
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
const USERS_EXPORT_LIMIT = 5000;

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
