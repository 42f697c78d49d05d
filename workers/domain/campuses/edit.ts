/**
 * Campuses, changing one: creating a campus, its profile, billing settings, contacts and addresses,
 * archiving and activating it, and cloning it with its contacts and addresses. Each change is one batch
 * with its activity-log row, which names the country and account manager as a person reads them.
 *
 * Scope: the campus is found through access/finders (findCampus, findClient); ids of another tenant
 * answer NotFound.
 */
import { eq } from 'drizzle-orm';
import { campuses, countries, users } from '../../../drizzle/schema';
import { publicId } from '../../platform/crypto';
import { idByPublicId, inJson, runBatch } from '../../platform/db';
import { logActivity } from '../audit/activity-log';
import {
  addressForLog,
  contactsForLog,
  readAddress,
  readAddresses,
  readContacts,
  replaceAddress,
  replaceContacts,
} from '../contacts/service';
import type { AddressKind, AddressInput } from '../contacts/schema';
import type { ActorCtx } from '../context';
import { NotFound, ValidationFailed } from '../errors';
import { msg } from '../validation';
import { findCampus, findClient, type CampusRow } from '../access/finders';
import {
  type CampusBillingInput,
  type CampusContactsInput,
  type CreateCampusInput,
  type UpdateCampusInput,
} from './schema';
import { campusAccountManagers, getCampus, ownerOf, type CampusDetail } from './service';

/** A campus as `findCampus` finds it, with its client. */
type FoundCampus = Awaited<ReturnType<typeof findCampus>>;

export const CAMPUS_SAVED = msg('campuses.saved');

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
      .where(inJson(countries.id, countryIds)),
    ctx.db
      .select({ id: users.id, first_name: users.first_name, last_name: users.last_name })
      .from(users)
      .where(inJson(users.id, managerIds)),
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

/**
 * The profile fields as stored: the country checked, and the account manager resolved. The account
 * manager is the provider's choice: a school user's save keeps it as it is.
 */
async function profileChange(
  ctx: ActorCtx,
  { campus, client }: FoundCampus,
  input: UpdateCampusInput,
): Promise<ReturnType<typeof profileValues>> {
  await checkCountry(ctx, input.country_id);
  const managerId =
    ctx.actor.user_type === 'company'
      ? ((await resolveAccountManager(ctx, client.company_id, input.account_manager_id))?.id ?? null)
      : campus.account_manager_id;
  return profileValues(input, managerId);
}

/** Saves fields of a campus with the activity entry that says what changed, and answers the campus. */
async function saveCampusFields(
  ctx: ActorCtx,
  { campus, client }: FoundCampus,
  change: Partial<CampusRow>,
  action: 'updated' | 'billing_updated',
): Promise<CampusDetail> {
  const values = { ...change, updated_at: ctx.now };
  const forLog = await campusLogNames(ctx, [campus, { ...campus, ...values }]);
  await runBatch(ctx.db, [
    ctx.db.update(campuses).set(values).where(eq(campuses.id, campus.id)),
    logActivity(ctx, {
      entity_type: 'campus',
      entity_id: campus.id,
      action,
      before: forLog(campus),
      after: forLog({ ...campus, ...values }),
      company_id: client.company_id,
      client_id: client.id,
    }),
  ]);
  return getCampus(ctx, campus.public_id);
}

/** campuses/{id}/update: the profile fields. */
export async function updateCampus(
  ctx: ActorCtx,
  id: string,
  input: UpdateCampusInput,
): Promise<CampusDetail> {
  const found = await findCampus(ctx, id, 'update_campus');
  return saveCampusFields(ctx, found, await profileChange(ctx, found, input), 'updated');
}

/** campuses/{id}/update-billing: account numbers AP and AR, payment terms, pay by bank transfer. */
export async function updateCampusBilling(
  ctx: ActorCtx,
  id: string,
  input: CampusBillingInput,
): Promise<CampusDetail> {
  const found = await findCampus(ctx, id, 'update_campus');
  return saveCampusFields(ctx, found, billingValues(input), 'billing_updated');
}

/** The details form of the campus page: profile and billing in one change. */
export async function updateCampusDetails(
  ctx: ActorCtx,
  id: string,
  profile: UpdateCampusInput,
  billing: CampusBillingInput,
): Promise<CampusDetail> {
  const found = await findCampus(ctx, id, 'update_campus');
  const change = { ...(await profileChange(ctx, found, profile)), ...billingValues(billing) };
  return saveCampusFields(ctx, found, change, 'updated');
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
