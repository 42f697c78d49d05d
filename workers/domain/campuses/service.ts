/**
 * Campuses (spec 001 s.3 Campus, s.4; spec 002 s.7 Campuses): a client's locations, with their profile,
 * billing settings, contacts, billing and mailing addresses, notes, contracts, users, logs and the
 * enrolment template.
 *
 * Scope: access/scope.ts campusScope (company users: campuses of their companies' clients; school users: their client's,
 * and only their own campuses unless can_access_all_campuses). Ids of another tenant answer NotFound.
 *
 * This module reads campuses and their tabs; edit.ts creates, changes, archives and clones them.
 */
import { and, asc, eq, isNull, lte, or, gte, sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import {
  campuses,
  clients,
  contracts,
  countries,
  roles,
  userCampuses,
  userCompanies,
  userRoles,
  users,
} from '../../../drizzle/schema';
import { requirePermission } from '../access/actor';
import type { Permission } from '../access/permissions';
import { activityFeed } from '../activity/feed';
import { readAddresses, readContacts, type ContactOwner } from '../contacts/service';
import type { ActorCtx } from '../context';
import type { ContractListQuery } from '../contracts/schema';
import { contractsSummary, getContract, queryContracts } from '../contracts/service';
import { countAll, likeAny, orderBy, paginate } from '../lists';
import { addNote, listNotes, noteFileResponse, type NoteOwner } from '../notes/service';
import type { NoteInput, NotesQuery } from '../notes/schema';
import { todayIso } from '../validation';
import { findCampus, findClient, type CampusRow } from '../access/finders';
import { visibleCampus } from '../access/scope';
import { type CampusListQuery } from './schema';

function as<T>(column: SQLiteColumn, alias: string) {
  return sql<T>`${column}`.as(alias);
}

export const ownerOf = (id: ContactOwner['id']): ContactOwner => ({ type: 'campus', id });

// ---------------------------------------------------------------- account managers

/** Active company users with the account manager role in a company (the campus form's select). */
export async function campusAccountManagers(ctx: ActorCtx, companyId: number) {
  const rows = await ctx.db
    .selectDistinct({
      id: users.public_id,
      first_name: users.first_name,
      last_name: users.last_name,
      email: users.email,
    })
    .from(users)
    .innerJoin(userCompanies, eq(userCompanies.user_id, users.id))
    .innerJoin(userRoles, eq(userRoles.user_id, users.id))
    .innerJoin(roles, eq(roles.id, userRoles.role_id))
    .where(
      and(
        eq(users.user_type, 'company'),
        eq(users.status, 'active'),
        eq(userCompanies.company_id, companyId),
        eq(roles.slug, 'account_manager'),
      ),
    )
    .orderBy(asc(users.first_name), asc(users.last_name));
  return rows.map((r) => ({ id: r.id, name: `${r.first_name} ${r.last_name}`.trim(), email: r.email }));
}

// ---------------------------------------------------------------- reading

const listColumns = {
  campus: campuses,
  client_public_id: as<string>(clients.public_id, 'client_public_id'),
  client_name: as<string>(clients.name, 'client_name'),
  country_name: as<string | null>(countries.name, 'country_name'),
  contracts_count:
    sql<number>`(select count(*) from ${contracts} where ${contracts.campus_id} = ${campuses.id} and ${contracts.status} = 'active')`.as(
      'contracts_count',
    ),
};
type ListRow = {
  campus: CampusRow;
  client_public_id: string;
  client_name: string;
  country_name: string | null;
  contracts_count: number;
};

function listItem(r: ListRow) {
  const c = r.campus;
  return {
    id: c.public_id,
    name: c.name,
    initial: c.initial,
    status: c.status,
    client: { id: r.client_public_id, name: r.client_name },
    country: c.country_id ? { id: c.country_id, name: r.country_name } : null,
    phone_country: c.phone_country,
    phone_number: c.phone_number,
    website: c.website,
    preferred_lang: c.preferred_lang,
    payment_terms: c.payment_terms,
    active_contracts: Number(r.contracts_count),
    created_at: c.created_at,
  };
}
export type CampusListItem = ReturnType<typeof listItem>;

function listWhere(ctx: ActorCtx, q: CampusListQuery): SQL | undefined {
  return and(
    visibleCampus(ctx.actor),
    q.client_id ? eq(clients.public_id, q.client_id) : undefined,
    q.status && q.status !== 'all' ? eq(campuses.status, q.status) : undefined,
    q.country_id ? eq(campuses.country_id, q.country_id) : undefined,
    likeAny([campuses.name, campuses.initial, clients.name], q.search),
  );
}

const sortable = {
  name: campuses.name,
  status: campuses.status,
  created_at: campuses.created_at,
  client: clients.name,
  country: countries.name,
};

/** campuses/fetch: the campuses the actor may see, filtered by client, status, country and search. */
export async function listCampuses(ctx: ActorCtx, q: CampusListQuery) {
  requirePermission(ctx.actor, 'read_campus');
  const where = listWhere(ctx, q);
  const page = await paginate<ListRow>(ctx.db, q, {
    rows: (limit, offset) =>
      ctx.db
        .select(listColumns)
        .from(campuses)
        .innerJoin(clients, eq(clients.id, campuses.client_id))
        .leftJoin(countries, eq(countries.id, campuses.country_id))
        .where(where)
        .orderBy(...orderBy(q.order, sortable, 'name_asc', campuses.id))
        .limit(limit)
        .offset(offset),
    count: ctx.db
      .select({ total: countAll })
      .from(campuses)
      .innerJoin(clients, eq(clients.id, campuses.client_id))
      .where(where),
  });
  return { items: page.items.map(listItem), meta: page.meta };
}

/** Every campus matching the list's filters (the Excel export). */
export async function exportCampuses(ctx: ActorCtx, q: CampusListQuery, limit = 10_000) {
  requirePermission(ctx.actor, 'read_campus');
  const rows = await ctx.db
    .select(listColumns)
    .from(campuses)
    .innerJoin(clients, eq(clients.id, campuses.client_id))
    .leftJoin(countries, eq(countries.id, campuses.country_id))
    .where(listWhere(ctx, q))
    .orderBy(...orderBy(q.order, sortable, 'name_asc', campuses.id))
    .limit(limit);
  return (rows as ListRow[]).map(listItem);
}

/** campuses/summary: how many campuses the actor sees (optionally of one client), by status. */
export async function campusesSummary(ctx: ActorCtx, clientId?: string) {
  requirePermission(ctx.actor, 'read_campus');
  const [row] = await ctx.db
    .select({
      total: sql<number>`count(*)`,
      active: sql<number>`coalesce(sum(case when ${campuses.status} = 'active' then 1 else 0 end), 0)`,
      archived: sql<number>`coalesce(sum(case when ${campuses.status} = 'archived' then 1 else 0 end), 0)`,
    })
    .from(campuses)
    .innerJoin(clients, eq(clients.id, campuses.client_id))
    .where(and(visibleCampus(ctx.actor), clientId ? eq(clients.public_id, clientId) : undefined));
  return { total: Number(row.total), active: Number(row.active), archived: Number(row.archived) };
}

/** The school users who can see a campus: linked to it, or allowed every campus of its client. */
function campusUsersWhere(campus: CampusRow): SQL {
  return and(
    eq(users.user_type, 'school'),
    eq(users.client_id, campus.client_id),
    or(
      eq(users.can_access_all_campuses, true),
      sql`exists (select 1 from ${userCampuses} where ${userCampuses.user_id} = ${users.id} and ${userCampuses.campus_id} = ${campus.id})`,
    ),
  )!;
}

/** campuses/{id}: the campus with contacts, addresses and its summary (contracts, users). */
export async function getCampus(ctx: ActorCtx, id: string) {
  const { campus, client, company } = await findCampus(ctx, id, 'read_campus');
  const owner = ownerOf(campus.id);
  const [contacts, addresses, [country], [manager], [usersCount]] = await Promise.all([
    readContacts(ctx.db, owner),
    readAddresses(ctx.db, owner),
    campus.country_id
      ? ctx.db
          .select({ id: countries.id, name: countries.name })
          .from(countries)
          .where(eq(countries.id, campus.country_id))
      : Promise.resolve([]),
    campus.account_manager_id
      ? ctx.db
          .select({
            id: users.public_id,
            first_name: users.first_name,
            last_name: users.last_name,
            email: users.email,
          })
          .from(users)
          .where(eq(users.id, campus.account_manager_id))
      : Promise.resolve([]),
    ctx.db
      .select({ n: sql<number>`count(*)` })
      .from(users)
      .where(campusUsersWhere(campus)),
  ]);
  const today = todayIso(ctx.now);
  const [contractCounts] = await ctx.db
    .select({
      total: sql<number>`count(*)`,
      active: sql<number>`coalesce(sum(case when ${contracts.status} = 'active' then 1 else 0 end), 0)`,
      current: sql<number>`coalesce(sum(case when ${and(
        eq(contracts.status, 'active'),
        lte(contracts.start_date, today),
        or(isNull(contracts.end_date), gte(contracts.end_date, today)),
      )} then 1 else 0 end), 0)`,
    })
    .from(contracts)
    .where(eq(contracts.campus_id, campus.id));
  return {
    id: campus.public_id,
    name: campus.name,
    initial: campus.initial,
    description: campus.description,
    status: campus.status,
    client: { id: client.public_id, name: client.name },
    company: { id: company.public_id, name: company.name },
    country: country ?? null,
    phone_country: campus.phone_country,
    phone_number: campus.phone_number,
    website: campus.website,
    preferred_lang: campus.preferred_lang,
    quickbooks_id: campus.quickbooks_id,
    account_manager: manager
      ? { id: manager.id, name: `${manager.first_name} ${manager.last_name}`.trim(), email: manager.email }
      : null,
    account_number_ap: campus.account_number_ap,
    account_number_ar: campus.account_number_ar,
    payment_terms: campus.payment_terms,
    pay_with_bank_transfer: campus.pay_with_bank_transfer,
    contacts,
    billing_address: addresses.billing_address,
    mailing_address: addresses.mailing_address,
    summary: {
      contracts: Number(contractCounts.total),
      active_contracts: Number(contractCounts.active),
      current_contracts: Number(contractCounts.current),
      users: Number(usersCount?.n ?? 0),
    },
    created_at: campus.created_at,
    updated_at: campus.updated_at,
  };
}
export type CampusDetail = Awaited<ReturnType<typeof getCampus>>;

/** What the campus form offers: the client's company's account managers. */
export async function campusFormOptions(ctx: ActorCtx, clientId: string) {
  const client = await findClient(ctx, clientId, 'read_campus');
  return {
    client: { id: client.public_id, name: client.name },
    account_managers: await campusAccountManagers(ctx, client.company_id),
  };
}

// ---------------------------------------------------------------- tabs

/** campuses/{id}/contracts: the campus contracts (filters and paging as contracts/list). */
export async function campusContracts(ctx: ActorCtx, id: string, q: ContractListQuery) {
  requirePermission(ctx.actor, 'read_campus');
  const { campus } = await findCampus(ctx, id, 'read_contract');
  return queryContracts(ctx, q, { campusId: campus.id });
}

/** campuses/{id}/contracts/{contractId}: one contract of the campus. */
export async function campusContract(ctx: ActorCtx, id: string, contractId: string) {
  const { campus } = await findCampus(ctx, id, 'read_campus');
  return getContract(ctx, contractId, { campusId: campus.id });
}

/** The campus's contract counts (its summary), for the contracts tab header. */
export async function campusContractsSummary(ctx: ActorCtx, id: string) {
  const { campus } = await findCampus(ctx, id, 'read_campus');
  return contractsSummary(ctx, { campusId: campus.id });
}

/** campuses/{id}/logs. */
export async function campusLogs(ctx: ActorCtx, id: string, page = 1, perPage = 25) {
  const { campus } = await findCampus(ctx, id, 'read_campus');
  return activityFeed(ctx.db, 'campus', campus.id, page, perPage);
}

async function noteOwner(ctx: ActorCtx, id: string, permission: Permission): Promise<NoteOwner> {
  const { campus, client } = await findCampus(ctx, id, permission);
  return { type: 'campus', id: campus.id, company_id: client.company_id, client_id: client.id };
}

/** campuses/{id}/notes (optional type). */
export async function campusNotes(ctx: ActorCtx, id: string, query: Partial<NotesQuery> = {}) {
  return listNotes(ctx.db, await noteOwner(ctx, id, 'read_campus'), query);
}

/** campuses/{id}/notes/add (with an optional file). */
export async function addCampusNote(ctx: ActorCtx, id: string, input: NoteInput, file?: unknown) {
  return addNote(ctx, await noteOwner(ctx, id, 'update_campus'), input, file);
}

/** campuses/{id}/notes/{noteId}/download. */
export async function campusNoteFile(ctx: ActorCtx, id: string, noteId: number) {
  return noteFileResponse(ctx, await noteOwner(ctx, id, 'read_campus'), noteId);
}
