/**
 * Campuses (spec 001 s.3 Campus, s.4; spec 002 s.7 Campuses): a client's locations, with their profile,
 * billing settings, contacts, billing and mailing addresses, notes, contracts, users, logs and the
 * enrolment template.
 *
 * Scope: access/scope.ts campusScope (company users: campuses of their companies' clients; school users: their client's,
 * and only their own campuses unless can_access_all_campuses). Ids of another tenant answer NotFound.
 */
import { and, asc, eq, inArray, isNull, lte, or, gte, sql, type SQL } from 'drizzle-orm';
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
import { publicId } from '../../platform/crypto';
import { idByPublicId, runBatch } from '../../platform/db';
import { requirePermission } from '../access/actor';
import type { Permission } from '../access/permissions';
import { activityFeed } from '../activity/feed';
import { logActivity } from '../audit/activity-log';
import {
  addressForLog,
  contactsForLog,
  readAddress,
  readAddresses,
  readContacts,
  replaceAddress,
  replaceContacts,
  type ContactOwner,
} from '../contacts/service';
import type { AddressKind, AddressInput } from '../contacts/schema';
import type { ActorCtx } from '../context';
import type { ContractListQuery } from '../contracts/schema';
import { contractsSummary, getContract, queryContracts } from '../contracts/service';
import { NotFound, ValidationFailed } from '../errors';
import { countAll, likeAny, orderBy, paginate } from '../lists';
import { addNote, listNotes, noteFileResponse, type NoteOwner } from '../notes/service';
import type { NoteInput, NotesQuery } from '../notes/schema';
import { msg, todayIso } from '../validation';
import { findCampus, findClient, type CampusRow } from '../access/finders';
import { visibleCampus } from '../access/scope';
import {
  type CampusBillingInput,
  type CampusContactsInput,
  type CampusListQuery,
  type CreateCampusInput,
  type UpdateCampusInput,
} from './schema';

export const CAMPUS_SAVED = msg('campuses.saved');

function as<T>(column: SQLiteColumn, alias: string) {
  return sql<T>`${column}`.as(alias);
}

const ownerOf = (id: ContactOwner['id']): ContactOwner => ({ type: 'campus', id });

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

async function resolveAccountManager(ctx: ActorCtx, companyId: number, publicUserId: string | undefined) {
  if (!publicUserId) return null;
  const found = (await campusAccountManagers(ctx, companyId)).find((m) => m.id === publicUserId);
  if (!found)
    throw ValidationFailed.field('account_manager_id', msg('campuses.errors.account_manager_invalid'));
  const [row] = await ctx.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.public_id, publicUserId))
    .limit(1);
  return { id: row.id, name: found.name };
}

async function checkCountry(ctx: ActorCtx, countryId: number | undefined) {
  if (!countryId) return;
  const [row] = await ctx.db
    .select({ id: countries.id })
    .from(countries)
    .where(eq(countries.id, countryId))
    .limit(1);
  if (!row) throw ValidationFailed.field('country_id', msg('campuses.errors.country_not_found'));
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

// ---------------------------------------------------------------- writing

function profileValues(input: UpdateCampusInput, managerId: number | null) {
  return {
    name: input.name,
    initial: input.initial ?? null,
    description: input.description ?? null,
    country_id: input.country_id ?? null,
    phone_country: input.phone_country?.toUpperCase() ?? null,
    phone_number: input.phone_number ?? null,
    website: input.website ?? null,
    preferred_lang: input.preferred_lang,
    account_manager_id: managerId,
    quickbooks_id: input.quickbooks_id ?? null,
  };
}

function billingValues(input: CampusBillingInput) {
  return {
    account_number_ap: input.account_number_ap ?? null,
    account_number_ar: input.account_number_ar ?? null,
    payment_terms: input.payment_terms ?? null,
    pay_with_bank_transfer: input.pay_with_bank_transfer ?? false,
  };
}

/** A campus row for its log: ids of the country and account manager as names a person reads. */
async function campusLogNames(ctx: ActorCtx, rows: Partial<CampusRow>[]) {
  const countryIds = [...new Set(rows.map((r) => r.country_id).filter((x): x is number => !!x))];
  const managerIds = [...new Set(rows.map((r) => r.account_manager_id).filter((x): x is number => !!x))];
  const [countryRows, managerRows] = await ctx.db.batch([
    ctx.db
      .select({ id: countries.id, name: countries.name })
      .from(countries)
      .where(inArray(countries.id, countryIds.length ? countryIds : [0])),
    ctx.db
      .select({ id: users.id, first_name: users.first_name, last_name: users.last_name })
      .from(users)
      .where(inArray(users.id, managerIds.length ? managerIds : [0])),
  ]);
  const country = new Map(countryRows.map((r) => [r.id, r.name]));
  const manager = new Map(managerRows.map((r) => [r.id, `${r.first_name} ${r.last_name}`.trim()]));
  return (c: Partial<CampusRow>) => campusForLog(c, country, manager);
}

function campusForLog(
  c: Partial<CampusRow>,
  country = new Map<number, string>(),
  manager = new Map<number, string>(),
) {
  const {
    id: _id,
    public_id: _pid,
    created_at: _c,
    updated_at: _u,
    client_id: _client,
    country_id,
    account_manager_id,
    ...rest
  } = c as CampusRow;
  return {
    ...rest,
    country: country_id ? (country.get(country_id) ?? null) : null,
    account_manager: account_manager_id ? (manager.get(account_manager_id) ?? null) : null,
  } as Record<string, unknown>;
}

/** campuses/add: a campus of a visible client with its contacts and addresses, in one batch. */
export async function createCampus(ctx: ActorCtx, input: CreateCampusInput): Promise<CampusDetail> {
  const client = await findClient(ctx, input.client_id, 'create_campus').catch((e) => {
    if (e instanceof NotFound)
      throw ValidationFailed.field('client_id', msg('campuses.errors.client_not_found'));
    throw e;
  });
  await checkCountry(ctx, input.country_id);
  const manager = await resolveAccountManager(ctx, client.company_id, input.account_manager_id);
  const pid = publicId();
  const row = {
    public_id: pid,
    client_id: client.id,
    ...profileValues(input, manager?.id ?? null),
    ...billingValues(input),
    status: 'active' as const,
    created_at: ctx.now,
    updated_at: ctx.now,
  };
  const newId = idByPublicId(campuses, pid);
  const owner = ownerOf(newId);
  const contacts = { ...input.contacts, custom: [] };
  const forLog = await campusLogNames(ctx, [row]);
  await runBatch(ctx.db, [
    ctx.db.insert(campuses).values(row),
    ...replaceContacts(ctx.db, owner, contacts, ctx.now),
    ...replaceAddress(ctx.db, owner, 'billing', input.billing_address, ctx.now),
    ...replaceAddress(ctx.db, owner, 'mailing', input.mailing_address, ctx.now),
    logActivity(ctx, {
      entity_type: 'campus',
      entity_id: newId,
      action: 'created',
      after: {
        ...forLog(row),
        account_manager: manager?.name ?? null,
        ...contactsForLog(contacts),
        billing_address: addressForLog(input.billing_address),
        mailing_address: addressForLog(input.mailing_address),
      },
      company_id: client.company_id,
      client_id: client.id,
    }),
  ]);
  return getCampus(ctx, pid);
}

/** campuses/{id}/update: the profile fields. */
export async function updateCampus(
  ctx: ActorCtx,
  id: string,
  input: UpdateCampusInput,
): Promise<CampusDetail> {
  const { campus, client } = await findCampus(ctx, id, 'update_campus');
  await checkCountry(ctx, input.country_id);
  // The account manager is the provider's choice: a school user's save keeps it as it is.
  const managerId =
    ctx.actor.user_type === 'company'
      ? ((await resolveAccountManager(ctx, client.company_id, input.account_manager_id))?.id ?? null)
      : campus.account_manager_id;
  const values = { ...profileValues(input, managerId), updated_at: ctx.now };
  const forLog = await campusLogNames(ctx, [campus, { ...campus, ...values }]);
  await runBatch(ctx.db, [
    ctx.db.update(campuses).set(values).where(eq(campuses.id, campus.id)),
    logActivity(ctx, {
      entity_type: 'campus',
      entity_id: campus.id,
      action: 'updated',
      before: forLog(campus),
      after: forLog({ ...campus, ...values }),
      company_id: client.company_id,
      client_id: client.id,
    }),
  ]);
  return getCampus(ctx, campus.public_id);
}

/** campuses/{id}/update-billing: account numbers AP and AR, payment terms, pay by bank transfer. */
export async function updateCampusBilling(
  ctx: ActorCtx,
  id: string,
  input: CampusBillingInput,
): Promise<CampusDetail> {
  const { campus, client } = await findCampus(ctx, id, 'update_campus');
  const values = { ...billingValues(input), updated_at: ctx.now };
  const forLog = await campusLogNames(ctx, [campus, { ...campus, ...values }]);
  await runBatch(ctx.db, [
    ctx.db.update(campuses).set(values).where(eq(campuses.id, campus.id)),
    logActivity(ctx, {
      entity_type: 'campus',
      entity_id: campus.id,
      action: 'billing_updated',
      before: forLog(campus),
      after: forLog({ ...campus, ...values }),
      company_id: client.company_id,
      client_id: client.id,
    }),
  ]);
  return getCampus(ctx, campus.public_id);
}

/** The details form of the campus page: profile and billing in one change. */
export async function updateCampusDetails(
  ctx: ActorCtx,
  id: string,
  profile: UpdateCampusInput,
  billing: CampusBillingInput,
): Promise<CampusDetail> {
  const { campus, client } = await findCampus(ctx, id, 'update_campus');
  await checkCountry(ctx, profile.country_id);
  const managerId =
    ctx.actor.user_type === 'company'
      ? ((await resolveAccountManager(ctx, client.company_id, profile.account_manager_id))?.id ?? null)
      : campus.account_manager_id;
  const values = { ...profileValues(profile, managerId), ...billingValues(billing), updated_at: ctx.now };
  const forLog = await campusLogNames(ctx, [campus, { ...campus, ...values }]);
  await runBatch(ctx.db, [
    ctx.db.update(campuses).set(values).where(eq(campuses.id, campus.id)),
    logActivity(ctx, {
      entity_type: 'campus',
      entity_id: campus.id,
      action: 'updated',
      before: forLog(campus),
      after: forLog({ ...campus, ...values }),
      company_id: client.company_id,
      client_id: client.id,
    }),
  ]);
  return getCampus(ctx, campus.public_id);
}

/** campuses/{id}/update-contact: every contact of the campus is replaced by the given ones. */
export async function updateCampusContacts(
  ctx: ActorCtx,
  id: string,
  input: CampusContactsInput,
): Promise<CampusDetail> {
  const { campus, client } = await findCampus(ctx, id, 'update_campus');
  const owner = ownerOf(campus.id);
  const before = await readContacts(ctx.db, owner);
  const contacts = { ...input.contacts, custom: [] };
  await runBatch(ctx.db, [
    ctx.db.update(campuses).set({ updated_at: ctx.now }).where(eq(campuses.id, campus.id)),
    ...replaceContacts(ctx.db, owner, contacts, ctx.now),
    logActivity(ctx, {
      entity_type: 'campus',
      entity_id: campus.id,
      action: 'contacts_updated',
      before: contactsForLog(before),
      after: contactsForLog(contacts),
      company_id: client.company_id,
      client_id: client.id,
    }),
  ]);
  return getCampus(ctx, campus.public_id);
}

/** campuses/{id}/billing-address/fetch and mailing-address/fetch. */
export async function getCampusAddress(ctx: ActorCtx, id: string, kind: AddressKind) {
  const { campus } = await findCampus(ctx, id, 'read_campus');
  return readAddress(ctx.db, ownerOf(campus.id), kind);
}

/** campuses/{id}/billing-address/update and mailing-address/update (an empty address removes it). */
export async function updateCampusAddress(
  ctx: ActorCtx,
  id: string,
  kind: AddressKind,
  input: AddressInput | undefined,
) {
  const { campus, client } = await findCampus(ctx, id, 'update_campus');
  const owner = ownerOf(campus.id);
  const before = await readAddress(ctx.db, owner, kind);
  await runBatch(ctx.db, [
    ctx.db.update(campuses).set({ updated_at: ctx.now }).where(eq(campuses.id, campus.id)),
    ...replaceAddress(ctx.db, owner, kind, input, ctx.now),
    logActivity(ctx, {
      entity_type: 'campus',
      entity_id: campus.id,
      action: `${kind}_address_updated`,
      before: { [`${kind}_address`]: addressForLog(before) },
      after: { [`${kind}_address`]: addressForLog(input) },
      company_id: client.company_id,
      client_id: client.id,
    }),
  ]);
  return readAddress(ctx.db, owner, kind);
}

/** Both addresses of the campus in one change (the addresses form of the campus page). */
export async function updateCampusAddresses(
  ctx: ActorCtx,
  id: string,
  input: { billing_address?: AddressInput; mailing_address?: AddressInput },
) {
  const { campus, client } = await findCampus(ctx, id, 'update_campus');
  const owner = ownerOf(campus.id);
  const before = await readAddresses(ctx.db, owner);
  await runBatch(ctx.db, [
    ctx.db.update(campuses).set({ updated_at: ctx.now }).where(eq(campuses.id, campus.id)),
    ...replaceAddress(ctx.db, owner, 'billing', input.billing_address, ctx.now),
    ...replaceAddress(ctx.db, owner, 'mailing', input.mailing_address, ctx.now),
    logActivity(ctx, {
      entity_type: 'campus',
      entity_id: campus.id,
      action: 'addresses_updated',
      before: {
        billing_address: addressForLog(before.billing_address),
        mailing_address: addressForLog(before.mailing_address),
      },
      after: {
        billing_address: addressForLog(input.billing_address),
        mailing_address: addressForLog(input.mailing_address),
      },
      company_id: client.company_id,
      client_id: client.id,
    }),
  ]);
  return readAddresses(ctx.db, owner);
}

async function setCampusStatus(ctx: ActorCtx, id: string, status: 'active' | 'archived') {
  const { campus, client } = await findCampus(ctx, id, 'archive_campus');
  if (campus.status === status)
    throw ValidationFailed.field('status', msg(`campuses.errors.already_${status}`));
  await runBatch(ctx.db, [
    ctx.db.update(campuses).set({ status, updated_at: ctx.now }).where(eq(campuses.id, campus.id)),
    logActivity(ctx, {
      entity_type: 'campus',
      entity_id: campus.id,
      action: status === 'archived' ? 'archived' : 'activated',
      before: { status: campus.status },
      after: { status },
      company_id: client.company_id,
      client_id: client.id,
    }),
  ]);
  return getCampus(ctx, campus.public_id);
}

/** campuses/{id}/archive (archive and reactivate are one right, archive_campus). */
export const archiveCampus = (ctx: ActorCtx, id: string) => setCampusStatus(ctx, id, 'archived');
/** campuses/{id}/activate. */
export const activateCampus = (ctx: ActorCtx, id: string) => setCampusStatus(ctx, id, 'active');

/**
 * campuses/{id}/clone: a new active campus of the same client with the same fields, contacts and
 * addresses; contracts, notes and users are not copied.
 */
export async function cloneCampus(
  ctx: ActorCtx,
  id: string,
  input: { name?: string } = {},
): Promise<CampusDetail> {
  const { campus, client } = await findCampus(ctx, id, 'create_campus');
  const source = ownerOf(campus.id);
  const [contacts, addresses] = await Promise.all([
    readContacts(ctx.db, source),
    readAddresses(ctx.db, source),
  ]);
  const pid = publicId();
  const suffix = ' (copy)';
  const name = input.name ?? `${campus.name.slice(0, 100 - suffix.length)}${suffix}`;
  const { id: _id, public_id: _pid, created_at: _c, updated_at: _u, ...fields } = campus;
  const row = {
    ...fields,
    public_id: pid,
    name,
    status: 'active' as const,
    created_at: ctx.now,
    updated_at: ctx.now,
  };
  const newId = idByPublicId(campuses, pid);
  const owner = ownerOf(newId);
  const asInput = (a: typeof addresses.billing_address): AddressInput | undefined =>
    a
      ? {
          first_name: a.first_name ?? undefined,
          last_name: a.last_name ?? undefined,
          email: a.email ?? undefined,
          country_id: a.country_id ?? undefined,
          city: a.city ?? undefined,
          province: a.province ?? undefined,
          address: a.address ?? undefined,
          address2: a.address2 ?? undefined,
          postal_code: a.postal_code ?? undefined,
          department: a.department ?? undefined,
          phone_country: a.phone_country ?? undefined,
          phone_number: a.phone_number ?? undefined,
        }
      : undefined;
  const contactInput = (c: (typeof contacts)['secondary'][number]) => ({
    first_name: c.first_name,
    last_name: c.last_name,
    email: c.email ?? undefined,
    phone_country: c.phone_country ?? undefined,
    phone_number: c.phone_number ?? undefined,
    job_title: c.job_title ?? undefined,
    department: c.department ?? undefined,
    is_master_user: c.is_master_user,
  });
  const contactsInput = {
    initial: contacts.initial ? contactInput(contacts.initial) : undefined,
    owner: contacts.owner ? contactInput(contacts.owner) : undefined,
    accounting: contacts.accounting ? contactInput(contacts.accounting) : undefined,
    secondary: contacts.secondary.map(contactInput),
    custom: contacts.custom.map(contactInput),
  };
  const forLog = await campusLogNames(ctx, [row]);
  await runBatch(ctx.db, [
    ctx.db.insert(campuses).values(row),
    ...replaceContacts(ctx.db, owner, contactsInput, ctx.now),
    ...replaceAddress(ctx.db, owner, 'billing', asInput(addresses.billing_address), ctx.now),
    ...replaceAddress(ctx.db, owner, 'mailing', asInput(addresses.mailing_address), ctx.now),
    logActivity(ctx, {
      entity_type: 'campus',
      entity_id: newId,
      action: 'cloned',
      after: { ...forLog(row), cloned_from: campus.public_id },
      company_id: client.company_id,
      client_id: client.id,
    }),
  ]);
  return getCampus(ctx, pid);
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
