/**
 * Companies (spec 001 s.3 Company; catalogue: Companies): the provider companies, with their owner,
 * secondary and accounting contacts, billing and mailing addresses, bank and payment settings.
 *
 * Scope: a company user reaches the companies they belong to (user_companies), archived ones included
 * so they can be reactivated; the list follows the company chosen in the top bar ("all companies" = all
 * of theirs). Any other company answers "not found". Creating a company makes its creator a member, so it
 * appears in their company switcher at once.
 */
import { and, asc, eq, ne, sql, type SQL } from 'drizzle-orm';
import { companies, countries, roles, userCompanies, userRoles, users } from '../../../drizzle/schema';
import { publicId } from '../../platform/crypto';
import { idByPublicId, inJson, runBatch } from '../../platform/db';
import { requirePermission } from '../access/actor';
import { ARCHIVE_PERMISSION } from '../access/archiving';
import { listedCompanies, memberCompanies } from '../access/scope';
import { activityFeed } from '../activity/feed';
import { logActivity } from '../audit/activity-log';
import type { ActorCtx } from '../context';
import {
  addressForLog,
  contactsForLog,
  readAddresses,
  readContacts,
  replaceAddresses,
  replaceContacts,
  type ContactOwner,
} from '../contacts/service';
import { NotFound, ValidationFailed } from '../errors';
import { countAll, likeAny, orderBy, paginate, type Page } from '../lists';
import { msg } from '../validation';
import type { CompanyInput, CompanyListQuery } from './schema';

type CompanyRow = typeof companies.$inferSelect;

/** 'Unable to save the company!' (spec 001 s.8): the message of every refused save. */
export const SAVE_FAILED = msg('companies.save_failed');

const listColumns = {
  id: companies.public_id,
  name: companies.name,
  country_id: companies.country_id,
  country_name: sql<string | null>`(select c.name from countries c where c.id = "companies"."country_id")`.as(
    'country_name',
  ),
  currency: companies.currency,
  preferred_lang: companies.preferred_lang,
  registration_number: companies.registration_number,
  payment_gateway: companies.payment_gateway,
  status: companies.status,
  users_count:
    sql<number>`(select count(*) from user_companies uc where uc.company_id = "companies"."id")`.as(
      'users_count',
    ),
  clients_count: sql<number>`(select count(*) from clients cl where cl.company_id = "companies"."id")`.as(
    'clients_count',
  ),
  created_at: companies.created_at,
};
export type CompanyListItem = {
  id: string;
  name: string;
  country_id: number | null;
  country_name: string | null;
  currency: string;
  preferred_lang: string;
  registration_number: string | null;
  payment_gateway: string | null;
  status: 'active' | 'archived';
  users_count: number;
  clients_count: number;
  created_at: Date;
};

const sortable = {
  name: companies.name,
  currency: companies.currency,
  status: companies.status,
  created_at: companies.created_at,
};

function listWhere(ctx: ActorCtx, q: CompanyListQuery): SQL | undefined {
  return and(
    listedCompanies(ctx.actor),
    q.status && q.status !== 'all' ? eq(companies.status, q.status) : undefined,
    q.currency ? eq(companies.currency, q.currency) : undefined,
    likeAny([companies.name, companies.registration_number, companies.quickbooks_company_id], q.search),
  );
}

/** companies/list. */
export async function listCompanies(ctx: ActorCtx, q: CompanyListQuery): Promise<Page<CompanyListItem>> {
  requirePermission(ctx.actor, 'read_company');
  const where = listWhere(ctx, q);
  return paginate<CompanyListItem>(ctx.db, q, {
    rows: (limit, offset) =>
      ctx.db
        .select(listColumns)
        .from(companies)
        .where(where)
        .orderBy(...orderBy(q.order, sortable, 'name_asc', companies.id))
        .limit(limit)
        .offset(offset),
    count: ctx.db.select({ total: countAll }).from(companies).where(where),
  });
}

/** Every company matching the list's filters (the Excel export). */
export async function exportCompanies(ctx: ActorCtx, q: CompanyListQuery): Promise<CompanyListItem[]> {
  requirePermission(ctx.actor, 'read_company');
  return ctx.db
    .select(listColumns)
    .from(companies)
    .where(listWhere(ctx, q))
    .orderBy(...orderBy(q.order, sortable, 'name_asc', companies.id))
    .limit(5000) as Promise<CompanyListItem[]>;
}

/** How many companies the list shows, active and archived. */
export async function companiesSummary(ctx: ActorCtx) {
  requirePermission(ctx.actor, 'read_company');
  const [row] = await ctx.db
    .select({
      total: sql<number>`count(*)`,
      active: sql<number>`coalesce(sum(case when ${companies.status} = 'active' then 1 else 0 end), 0)`,
      archived: sql<number>`coalesce(sum(case when ${companies.status} = 'archived' then 1 else 0 end), 0)`,
    })
    .from(companies)
    .where(listedCompanies(ctx.actor));
  return { total: Number(row.total), active: Number(row.active), archived: Number(row.archived) };
}

async function findCompany(ctx: ActorCtx, id: string): Promise<CompanyRow> {
  const [row] = await ctx.db
    .select()
    .from(companies)
    .where(and(eq(companies.public_id, id), memberCompanies(ctx.actor)))
    .limit(1);
  if (!row) throw new NotFound(msg('companies.errors.not_found'));
  return row;
}

const owner = (id: ContactOwner['id']): ContactOwner => ({ type: 'company', id });

/** companies/{id}: every field, contacts, addresses, country and a summary. */
export async function getCompany(ctx: ActorCtx, id: string) {
  requirePermission(ctx.actor, 'read_company');
  const row = await findCompany(ctx, id);
  const [[country], [counts]] = await ctx.db.batch([
    ctx.db
      .select({ name: countries.name, abbreviation: countries.abbreviation })
      .from(countries)
      .where(eq(countries.id, row.country_id ?? 0)),
    ctx.db
      .select({
        users: sql<number>`(select count(*) from user_companies uc where uc.company_id = ${row.id})`,
        clients: sql<number>`(select count(*) from clients cl where cl.company_id = ${row.id})`,
      })
      .from(companies)
      .where(eq(companies.id, row.id)),
  ]);
  const [contactValues, addressValues] = await Promise.all([
    readContacts(ctx.db, owner(row.id)),
    readAddresses(ctx.db, owner(row.id)),
  ]);
  return {
    id: row.public_id,
    name: row.name,
    country_id: row.country_id,
    country_name: country?.name ?? null,
    registration_number: row.registration_number,
    preferred_lang: row.preferred_lang,
    currency: row.currency,
    bank_name: row.bank_name,
    bic: row.bic,
    iban: row.iban,
    branch_code: row.branch_code,
    account_number: row.account_number,
    payment_gateway: row.payment_gateway,
    order_status_default: row.order_status_default,
    failed_order_status: row.failed_order_status,
    change_status_after: row.change_status_after,
    cookie_policy: row.cookie_policy,
    footer_information: row.footer_information,
    terms: row.terms,
    quickbooks_company_id: row.quickbooks_company_id,
    overdue_reminder_days: row.overdue_reminder_days,
    /** Whether an accounting refresh token is stored (never the token itself). */
    quickbooks_connected: !!row.quickbooks_refresh_token,
    status: row.status,
    contacts: contactValues,
    billing_address: addressValues.billing_address,
    mailing_address: addressValues.mailing_address,
    summary: { users: Number(counts?.users ?? 0), clients: Number(counts?.clients ?? 0) },
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
export type CompanyView = Awaited<ReturnType<typeof getCompany>>;

/** The entity's logs tab. */
export async function companyActivity(ctx: ActorCtx, id: string, page = 1) {
  requirePermission(ctx.actor, 'read_company');
  const row = await findCompany(ctx, id);
  return activityFeed(ctx.db, 'company', row.id, page);
}

function companyValues(input: CompanyInput) {
  return {
    name: input.name,
    country_id: input.country_id ?? null,
    registration_number: input.registration_number ?? null,
    preferred_lang: input.preferred_lang,
    currency: input.currency,
    bank_name: input.bank_name ?? null,
    bic: input.bic ?? null,
    iban: input.iban ?? null,
    branch_code: input.branch_code ?? null,
    account_number: input.account_number ?? null,
    payment_gateway: input.payment_gateway,
    order_status_default: input.order_status_default ?? null,
    failed_order_status: input.failed_order_status ?? null,
    change_status_after: input.change_status_after ?? null,
    cookie_policy: input.cookie_policy ?? null,
    footer_information: input.footer_information ?? null,
    terms: input.terms ?? null,
    quickbooks_company_id: input.quickbooks_company_id ?? null,
    overdue_reminder_days: input.overdue_reminder_days ?? [],
  };
}
type CompanyValues = ReturnType<typeof companyValues>;

function storedValues(row: CompanyRow): CompanyValues {
  const keys = Object.keys(companyValues({} as CompanyInput)) as (keyof CompanyValues)[];
  return Object.fromEntries(keys.map((k) => [k, row[k]])) as CompanyValues;
}

const contactsOf = (input: CompanyInput) => ({
  initial: undefined,
  custom: [],
  owner: input.contacts.owner,
  accounting: input.contacts.accounting,
  secondary: input.contacts.secondary,
});

function forLog(values: CompanyValues, input: CompanyInput) {
  return {
    ...values,
    ...contactsForLog(contactsOf(input)),
    billing_address: addressForLog(input.billing_address),
    mailing_address: addressForLog(input.mailing_address),
  };
}

/** Checks what only the database knows: the country exists, a company name is not taken among the user's. */
async function checkReferences(ctx: ActorCtx, input: CompanyInput, exceptId?: number) {
  const countryIds = [
    input.country_id,
    input.billing_address?.country_id,
    input.mailing_address?.country_id,
  ].filter((x): x is number => !!x);
  const known = countryIds.length
    ? await ctx.db.select({ id: countries.id }).from(countries).where(inJson(countries.id, countryIds))
    : [];
  const have = new Set(known.map((c) => c.id));
  const errors = [];
  if (input.country_id && !have.has(input.country_id))
    errors.push({ key: 'country_id', message: msg('countries.errors.not_found') });
  if (input.billing_address?.country_id && !have.has(input.billing_address.country_id))
    errors.push({ key: 'billing_address.country_id', message: msg('countries.errors.not_found') });
  if (input.mailing_address?.country_id && !have.has(input.mailing_address.country_id))
    errors.push({ key: 'mailing_address.country_id', message: msg('countries.errors.not_found') });
  const [clash] = await ctx.db
    .select({ id: companies.id })
    .from(companies)
    .where(
      and(
        sql`lower(${companies.name}) = lower(${input.name})`,
        exceptId ? ne(companies.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  if (clash) errors.push({ key: 'name', message: msg('companies.errors.name_taken') });
  if (errors.length) throw new ValidationFailed(errors, SAVE_FAILED);
}

/**
 * companies/add: the company, its contacts and addresses, its creator's membership and the log row, in
 * one batch (all or nothing). The creator sees it in their company switcher at once.
 */
export async function createCompany(ctx: ActorCtx, input: CompanyInput): Promise<CompanyView> {
  requirePermission(ctx.actor, 'create_company');
  await checkReferences(ctx, input);
  const pid = publicId();
  const values = companyValues(input);
  const newOwner = owner(idByPublicId(companies, pid));
  await runBatch(ctx.db, [
    ctx.db
      .insert(companies)
      .values({ ...values, public_id: pid, status: 'active', created_at: ctx.now, updated_at: ctx.now }),
    ...replaceContacts(ctx.db, newOwner, contactsOf(input), ctx.now),
    ...replaceAddresses(
      ctx.db,
      newOwner,
      { billing_address: input.billing_address, mailing_address: input.mailing_address },
      ctx.now,
    ),
    ctx.db
      .insert(userCompanies)
      .values({ user_id: ctx.actor.user_id, company_id: idByPublicId(companies, pid) }),
    logActivity(ctx, {
      entity_type: 'company',
      entity_id: idByPublicId(companies, pid),
      action: 'created',
      after: forLog(values, input),
      company_id: idByPublicId(companies, pid),
    }),
  ]);
  return getCompany(ctx, pid);
}

/** companies/{id}/update: every field, and the contacts and addresses replaced as given, in one batch. */
export async function updateCompany(ctx: ActorCtx, id: string, input: CompanyInput): Promise<CompanyView> {
  requirePermission(ctx.actor, 'update_company');
  const before = await findCompany(ctx, id);
  await checkReferences(ctx, input, before.id);
  const [oldContacts, oldAddresses] = await Promise.all([
    readContacts(ctx.db, owner(before.id)),
    readAddresses(ctx.db, owner(before.id)),
  ]);
  const values = companyValues(input);
  await runBatch(ctx.db, [
    ctx.db
      .update(companies)
      .set({ ...values, updated_at: ctx.now })
      .where(eq(companies.id, before.id)),
    ...replaceContacts(ctx.db, owner(before.id), contactsOf(input), ctx.now),
    ...replaceAddresses(
      ctx.db,
      owner(before.id),
      { billing_address: input.billing_address, mailing_address: input.mailing_address },
      ctx.now,
    ),
    logActivity(ctx, {
      entity_type: 'company',
      entity_id: before.id,
      action: 'updated',
      before: {
        ...storedValues(before),
        ...contactsForLog(oldContacts),
        billing_address: addressForLog(oldAddresses.billing_address),
        mailing_address: addressForLog(oldAddresses.mailing_address),
      },
      after: forLog(values, input),
      company_id: before.id,
    }),
  ]);
  return getCompany(ctx, id);
}

/** companies/{id}/status/update: active or archived (an archived company leaves the company switcher). */
export async function updateCompanyStatus(
  ctx: ActorCtx,
  id: string,
  status: 'active' | 'archived',
): Promise<CompanyView> {
  requirePermission(ctx.actor, ARCHIVE_PERMISSION.company);
  const before = await findCompany(ctx, id);
  if (before.status !== status) {
    await runBatch(ctx.db, [
      ctx.db.update(companies).set({ status, updated_at: ctx.now }).where(eq(companies.id, before.id)),
      logActivity(ctx, {
        entity_type: 'company',
        entity_id: before.id,
        action: status === 'active' ? 'activated' : 'archived',
        before: { status: before.status },
        after: { status },
        company_id: before.id,
      }),
    ]);
  }
  return getCompany(ctx, id);
}

/**
 * companies/{company}/users/finance: the company's users holding the Finance role, optionally matching
 * a search over name and email (at most 100, by name).
 */
export async function financeUsers(ctx: ActorCtx, companyId: string, search?: string) {
  requirePermission(ctx.actor, 'read_company|read_user');
  const company = await findCompany(ctx, companyId);
  return ctx.db
    .selectDistinct({
      id: users.public_id,
      first_name: users.first_name,
      last_name: users.last_name,
      full_name: sql<string>`${users.first_name} || ' ' || ${users.last_name}`,
      email: users.email,
      status: users.status,
    })
    .from(users)
    .innerJoin(userCompanies, eq(userCompanies.user_id, users.id))
    .innerJoin(userRoles, eq(userRoles.user_id, users.id))
    .innerJoin(roles, eq(roles.id, userRoles.role_id))
    .where(
      and(
        eq(userCompanies.company_id, company.id),
        eq(roles.slug, 'finance'),
        eq(users.user_type, 'company'),
        eq(users.status, 'active'),
        likeAny(
          [
            users.first_name,
            users.last_name,
            users.email,
            sql`${users.first_name} || ' ' || ${users.last_name}`,
          ],
          search,
        ),
      ),
    )
    .orderBy(asc(users.first_name), asc(users.last_name))
    .limit(100);
}
