/**
 * Client lists: the /clients list (tabs, filters, paging, sorting, export), the summary and the form
 * metadata. The lists of one client's tabs are in tabs.ts.
 */
import { and, count, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import { campuses, clients, companies, contacts, users } from '../../../drizzle/schema';
import type { DB } from '../../platform/db';
import { requirePermission, type Actor } from '../access/actor';
import {
  isOnlyAccountManager,
  ownClientsFilter,
  visibleClients,
  visibleCompanies,
  visibleCompanyIds,
} from '../access/scope';
import type { ActorCtx } from '../context';
import { countAll, likeAny, orderBy, paginate, type Page } from '../lists';
import {
  CLIENT_LANGUAGES,
  CLIENT_STATUSES,
  CLIENT_TABS,
  CLIENT_TYPES,
  FACT_FIND_QUESTIONS,
  INVOICE_RULES,
  PAYMENT_FREQUENCIES,
  PAYMENT_METHODS,
  PAYMENT_TERMS,
  clientListQuerySchema,
  type ClientListQuery,
  type ClientStatus,
  type ClientTab,
} from './schema';
import { accountManagersOf } from './managers';

const manager = alias(users, 'account_manager');

const campusCount = sql<number>`(select count(*) from ${campuses} where ${campuses.client_id} = ${clients.id})`;
const contactOf = (type: string, field: 'name' | 'email') =>
  field === 'name'
    ? sql<
        string | null
      >`(select ${contacts.first_name} || ' ' || ${contacts.last_name} from ${contacts} where ${contacts.owner_type} = 'client' and ${contacts.owner_id} = ${clients.id} and ${contacts.type} = ${type} order by ${contacts.position} limit 1)`
    : sql<
        string | null
      >`(select ${contacts.email} from ${contacts} where ${contacts.owner_type} = 'client' and ${contacts.owner_id} = ${clients.id} and ${contacts.type} = ${type} order by ${contacts.position} limit 1)`;

/**
 * Whether the list shows only the actor's own clients (the catalogue's `account_manager_clients`): as
 * asked, else the default of their list (on for a user whose only role is account manager). A filter,
 * not a wall: every client in scope is one cleared filter away.
 */
export function ownClientsOnly(actor: Actor, q: Pick<Partial<ClientListQuery>, 'account_manager_clients'>) {
  return q.account_manager_clients ?? isOnlyAccountManager(actor);
}

/** The WHERE of the client list for these filters, inside the actor's scope. */
export function clientListCondition(actor: Actor, q: Partial<ClientListQuery>): SQL {
  const dayMs = (iso: string) => new Date(`${iso}T00:00:00Z`);
  return and(
    visibleClients(actor),
    q.tab ? inArray(clients.status, [...CLIENT_TABS[q.tab]]) : undefined,
    q.status ? eq(clients.status, q.status) : undefined,
    q.type ? eq(clients.type, q.type) : undefined,
    q.payment_terms ? eq(clients.payment_terms, q.payment_terms) : undefined,
    q.account_manager
      ? sql`${clients.account_manager_id} = (select ${users.id} from ${users} where ${users.public_id} = ${q.account_manager})`
      : undefined,
    ownClientsOnly(actor, q) ? ownClientsFilter(actor) : undefined,
    q.created_from ? gte(clients.created_at, dayMs(q.created_from)) : undefined,
    q.created_to ? lt(clients.created_at, new Date(dayMs(q.created_to).getTime() + 86_400_000)) : undefined,
    likeAny(
      [clients.name, clients.public_id, clients.phone_number, clients.tax_number, clients.website],
      q.search,
    ),
  )!;
}

export interface ClientListRow {
  id: string;
  id_numeric: number;
  name: string;
  type: (typeof CLIENT_TYPES)[number];
  status: ClientStatus;
  company: string;
  phone_country: string | null;
  phone_number: string | null;
  website: string | null;
  account_manager: { id: string; name: string } | null;
  owner_contact: { name: string | null; email: string | null };
  payment_terms: (typeof PAYMENT_TERMS)[number];
  campuses: number;
  created_at: string;
  updated_at: string;
}

function listSelect(db: DB) {
  return db
    .select({
      // D1 batches answer rows keyed by column name: every column needs a distinct name.
      id: sql<string>`${clients.public_id}`.as('client_public_id'),
      id_numeric: clients.id,
      name: sql<string>`${clients.name}`.as('client_name'),
      type: clients.type,
      status: clients.status,
      company: sql<string>`${companies.name}`.as('company_name'),
      phone_country: clients.phone_country,
      phone_number: clients.phone_number,
      website: clients.website,
      manager_id: sql<string | null>`${manager.public_id}`.as('manager_public_id'),
      manager_first: sql<string | null>`${manager.first_name}`.as('manager_first_name'),
      manager_last: sql<string | null>`${manager.last_name}`.as('manager_last_name'),
      owner_name: contactOf('owner', 'name').as('owner_name'),
      owner_email: contactOf('owner', 'email').as('owner_email'),
      payment_terms: clients.payment_terms,
      campuses: campusCount.as('campus_count'),
      created_at: clients.created_at,
      updated_at: clients.updated_at,
    })
    .from(clients)
    .innerJoin(companies, eq(companies.id, clients.company_id))
    .leftJoin(manager, eq(manager.id, clients.account_manager_id));
}

type RawListRow = Awaited<ReturnType<ReturnType<typeof listSelect>['all']>>[number];

function toListRow(r: RawListRow): ClientListRow {
  return {
    id: r.id,
    id_numeric: r.id_numeric,
    name: r.name,
    type: r.type,
    status: r.status,
    company: r.company,
    phone_country: r.phone_country,
    phone_number: r.phone_number,
    website: r.website,
    account_manager: r.manager_id ? { id: r.manager_id, name: `${r.manager_first} ${r.manager_last}` } : null,
    owner_contact: { name: r.owner_name, email: r.owner_email },
    payment_terms: r.payment_terms,
    campuses: Number(r.campuses),
    created_at: new Date(r.created_at).toISOString(),
    updated_at: new Date(r.updated_at).toISOString(),
  };
}

const SORTABLE = {
  name: clients.name,
  type: clients.type,
  status: clients.status,
  created_at: clients.created_at,
  updated_at: clients.updated_at,
  campuses: campusCount,
};

/** GET clients, clients/list and the /clients page. */
export async function listClients(
  ctx: ActorCtx,
  query: Partial<ClientListQuery> = {},
): Promise<Page<ClientListRow>> {
  requirePermission(ctx.actor, 'read_client');
  const q = clientListQuerySchema.parse(query);
  const where = clientListCondition(ctx.actor, q);
  const page = await paginate<RawListRow>(ctx.db, q, {
    rows: (limit, offset) =>
      listSelect(ctx.db)
        .where(where)
        .orderBy(...orderBy(q.order, SORTABLE, 'name_asc', clients.id))
        .limit(limit)
        .offset(offset),
    count: ctx.db.select({ total: countAll }).from(clients).where(where),
  });
  return { items: page.items.map(toListRow), meta: page.meta };
}

/** The most rows one export holds. */
export const EXPORT_LIMIT = 5000;

/** The filtered list for an .xlsx export (no paging, at most EXPORT_LIMIT rows). */
export async function exportClients(
  ctx: ActorCtx,
  query: Partial<ClientListQuery> = {},
): Promise<ClientListRow[]> {
  requirePermission(ctx.actor, 'read_client');
  const q = clientListQuerySchema.parse(query);
  const rows = await listSelect(ctx.db)
    .where(clientListCondition(ctx.actor, q))
    .orderBy(...orderBy(q.order, SORTABLE, 'name_asc', clients.id))
    .limit(EXPORT_LIMIT);
  return rows.map(toListRow);
}

/**
 * GET clients/summary: how many clients of each status and tab the actor sees, with the list's "own
 * clients" filter (and its default) applied as the list applies it.
 */
export async function clientSummary(
  ctx: ActorCtx,
  query: Pick<Partial<ClientListQuery>, 'account_manager_clients'> = {},
) {
  requirePermission(ctx.actor, 'read_client');
  const rows = await ctx.db
    .select({ status: clients.status, n: count() })
    .from(clients)
    .where(
      and(
        visibleClients(ctx.actor),
        ownClientsOnly(ctx.actor, query) ? ownClientsFilter(ctx.actor) : undefined,
      ),
    )
    .groupBy(clients.status);
  const by_status = Object.fromEntries(CLIENT_STATUSES.map((s) => [s, 0])) as Record<ClientStatus, number>;
  for (const r of rows) by_status[r.status] = r.n;
  const tabs = Object.fromEntries(
    (Object.keys(CLIENT_TABS) as ClientTab[]).map((t) => [
      t,
      CLIENT_TABS[t].reduce((n, s) => n + by_status[s], 0),
    ]),
  ) as Record<ClientTab, number>;
  return { total: rows.reduce((n, r) => n + r.n, 0), ...tabs, by_status };
}

/** GET clients/metadata: the choices of the client forms and filters. */
export async function clientMetadata(ctx: ActorCtx) {
  requirePermission(ctx.actor, 'read_client');
  const companyIds = visibleCompanyIds(ctx.actor);
  const managers = await accountManagersOf(ctx.db, companyIds);
  return {
    types: CLIENT_TYPES,
    statuses: CLIENT_STATUSES,
    tabs: CLIENT_TABS,
    payment_terms: PAYMENT_TERMS,
    payment_methods: PAYMENT_METHODS,
    payment_frequencies: PAYMENT_FREQUENCIES,
    invoice_rules: INVOICE_RULES,
    languages: CLIENT_LANGUAGES,
    fact_find_questions: FACT_FIND_QUESTIONS,
    companies: visibleCompanies(ctx.actor).map((c) => ({ id: c.public_id, name: c.name })),
    account_managers: managers.map((m) => ({
      id: m.id,
      name: m.name,
      email: m.email,
      company_id: ctx.actor.companies.find((c) => c.id === m.company_id)?.public_id ?? null,
    })),
    /** The default of the caller's list: only their own clients (the account-manager client list). */
    account_manager_clients: isOnlyAccountManager(ctx.actor),
  };
}
