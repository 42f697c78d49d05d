/**
 * Clients (schools): create, read, update (profile, billing settings, contacts, addresses, fact-find),
 * logo and return-policy files in R2, notes and logs. Every function finds the client through
 * `findClient(ctx, id, permission)` (access/finders.ts: the permission, then the tenant scope), so a
 * client of another tenant answers NotFound. States and bulk actions are in status.ts, lists in queries.ts.
 */
import { and, count, eq, sql } from 'drizzle-orm';
import {
  campuses,
  clients,
  companies,
  contracts,
  roles,
  serviceAgreements,
  userCompanies,
  userRoles,
  users,
} from '../../../drizzle/schema';
import { runBatch, type DB, type Statement } from '../../platform/db';
import { publicId } from '../../platform/crypto';
import {
  checkUpload,
  deleteFile,
  fileKey,
  fileResponse,
  putFile,
  type FileKind,
} from '../../platform/storage';
import { requirePermission } from '../access/actor';
import { ACCOUNT_MANAGER_ROLE, isOnlyAccountManager } from '../access/scope';
import { activityFeed } from '../activity/feed';
import { diff, logActivity } from '../audit/activity-log';
import type { ActorCtx } from '../context';
import {
  addressForLog,
  contactsForLog,
  readAddress,
  readAddresses,
  readContacts,
  replaceAddress,
  replaceContacts,
  type AddressesValue,
  type ContactOwner,
  type ContactsValue,
} from '../contacts/service';
import type { AddressInput, AddressKind } from '../contacts/schema';
import { NotFound, ValidationFailed } from '../errors';
import { addNote, listNotes, noteFileResponse, type NoteOwner } from '../notes/service';
import type { NoteInput, NotesQuery } from '../notes/schema';
import { msg } from '../validation';
import {
  FACT_FIND_QUESTIONS,
  type ClientCreateInput,
  type ClientFileKind,
  type ClientUpdateInput,
  type SchoolClientInput,
} from './schema';
import { companyForNewRecord, findClient, findOwnClient, type ClientRow } from '../access/finders';

export const CLIENT_FILE_KINDS: Record<ClientFileKind, readonly FileKind[]> = {
  logo: ['png', 'jpg', 'gif', 'webp'],
  return_policy: ['pdf', 'docx'],
};

const ownerOf = (row: Pick<ClientRow, 'id'>): ContactOwner => ({ type: 'client', id: row.id });
const noteOwnerOf = (row: ClientRow): NoteOwner => ({
  type: 'client',
  id: row.id,
  company_id: row.company_id,
  client_id: row.id,
});

/** The original name of a stored file, from its key (`<prefix>/<random>-<name>`). */
export function storedFileName(key: string | null): string | null {
  if (!key) return null;
  const last = key.split('/').pop() ?? '';
  const dash = last.indexOf('-');
  return dash >= 0 ? last.slice(dash + 1) : last;
}

// ---------------------------------------------------------------- account managers

export interface AccountManagerOption {
  id: string;
  name: string;
  email: string;
  company_id: number;
}

/** Active company users with the account manager role, of the given companies (for the form's select). */
export async function accountManagersOf(db: DB, companyIds: number[]): Promise<AccountManagerOption[]> {
  if (!companyIds.length) return [];
  const rows = await db
    .selectDistinct({
      id: users.public_id,
      first_name: users.first_name,
      last_name: users.last_name,
      email: users.email,
      company_id: userCompanies.company_id,
    })
    .from(users)
    .innerJoin(userCompanies, eq(userCompanies.user_id, users.id))
    .innerJoin(userRoles, eq(userRoles.user_id, users.id))
    .innerJoin(roles, eq(roles.id, userRoles.role_id))
    .where(
      and(eq(users.user_type, 'company'), eq(users.status, 'active'), eq(roles.slug, ACCOUNT_MANAGER_ROLE)),
    )
    .orderBy(users.first_name, users.last_name);
  return rows
    .filter((r) => companyIds.includes(r.company_id))
    .map((r) => ({
      id: r.id,
      name: `${r.first_name} ${r.last_name}`,
      email: r.email,
      company_id: r.company_id,
    }));
}

/**
 * The account manager a form names (a public id): an active company user of the client's company with
 * the account manager role. Empty means none.
 */
async function resolveAccountManager(
  db: DB,
  companyId: number,
  id: string | undefined | null,
): Promise<{ id: number; name: string } | null> {
  if (!id) return null;
  const [row] = await db
    .select({ id: users.id, first_name: users.first_name, last_name: users.last_name })
    .from(users)
    .innerJoin(
      userCompanies,
      and(eq(userCompanies.user_id, users.id), eq(userCompanies.company_id, companyId)),
    )
    .innerJoin(userRoles, eq(userRoles.user_id, users.id))
    .innerJoin(roles, and(eq(roles.id, userRoles.role_id), eq(roles.slug, ACCOUNT_MANAGER_ROLE)))
    .where(and(eq(users.public_id, id), eq(users.user_type, 'company'), eq(users.status, 'active')))
    .limit(1);
  if (!row) throw ValidationFailed.field('account_manager_id', msg('clients.errors.account_manager_invalid'));
  return { id: row.id, name: `${row.first_name} ${row.last_name}` };
}

async function userName(
  db: DB,
  id: number | null,
): Promise<{ id: string; name: string; email: string } | null> {
  if (!id) return null;
  const [u] = await db
    .select({
      id: users.public_id,
      first_name: users.first_name,
      last_name: users.last_name,
      email: users.email,
    })
    .from(users)
    .where(eq(users.id, id))
    .limit(1);
  return u ? { id: u.id, name: `${u.first_name} ${u.last_name}`, email: u.email } : null;
}

// ---------------------------------------------------------------- the client as pages and the API show it

export interface ClientDetail {
  id: string;
  id_numeric: number;
  name: string;
  type: ClientRow['type'];
  status: ClientRow['status'];
  company: { id: string; name: string };
  quickbooks_id: string | null;
  website: string | null;
  description: string | null;
  phone_country: string | null;
  phone_number: string | null;
  preferred_lang: ClientRow['preferred_lang'];
  account_manager: { id: string; name: string; email: string } | null;
  billing_enabled: boolean;
  payment_terms: ClientRow['payment_terms'];
  payment_method: ClientRow['payment_method'];
  payment_frequency: ClientRow['payment_frequency'];
  invoice_rule: ClientRow['invoice_rule'];
  tax_number: string | null;
  account_number_ap: string | null;
  account_number_ar: string | null;
  fact_find: Record<string, string>;
  logo: string | null;
  return_policy: string | null;
  contacts: ContactsValue;
  billing_address: AddressesValue['billing_address'];
  mailing_address: AddressesValue['mailing_address'];
  counts: { campuses: number; users: number; service_agreements: number; contracts: number };
  created_at: string;
  updated_at: string;
}

async function detailOf(db: DB, row: ClientRow): Promise<ClientDetail> {
  const [[company], [campusCount], [userCount], [agreementCount], [contractCount]] = await db.batch([
    db
      .select({ id: companies.public_id, name: companies.name })
      .from(companies)
      .where(eq(companies.id, row.company_id)),
    db.select({ n: count() }).from(campuses).where(eq(campuses.client_id, row.id)),
    db
      .select({ n: count() })
      .from(users)
      .where(and(eq(users.client_id, row.id), eq(users.user_type, 'school'))),
    db.select({ n: count() }).from(serviceAgreements).where(eq(serviceAgreements.client_id, row.id)),
    db.select({ n: count() }).from(contracts).where(eq(contracts.client_id, row.id)),
  ]);
  const [contactsValue, addressesValue, manager] = await Promise.all([
    readContacts(db, ownerOf(row)),
    readAddresses(db, ownerOf(row)),
    userName(db, row.account_manager_id),
  ]);
  return {
    id: row.public_id,
    id_numeric: row.id,
    name: row.name,
    type: row.type,
    status: row.status,
    company: company ?? { id: '', name: '' },
    quickbooks_id: row.quickbooks_id,
    website: row.website,
    description: row.description,
    phone_country: row.phone_country,
    phone_number: row.phone_number,
    preferred_lang: row.preferred_lang,
    account_manager: manager,
    billing_enabled: row.billing_enabled,
    payment_terms: row.payment_terms,
    payment_method: row.payment_method,
    payment_frequency: row.payment_frequency,
    invoice_rule: row.invoice_rule,
    tax_number: row.tax_number,
    account_number_ap: row.account_number_ap,
    account_number_ar: row.account_number_ar,
    fact_find: row.fact_find ?? {},
    logo: storedFileName(row.logo_key),
    return_policy: storedFileName(row.return_policy_key),
    contacts: contactsValue,
    billing_address: addressesValue.billing_address,
    mailing_address: addressesValue.mailing_address,
    counts: {
      campuses: campusCount?.n ?? 0,
      users: userCount?.n ?? 0,
      service_agreements: agreementCount?.n ?? 0,
      contracts: contractCount?.n ?? 0,
    },
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** The fields of a client row as its logs tab shows them (names instead of ids, files by name). */
function logView(row: ClientRow, accountManager: string | null): Record<string, unknown> {
  const facts = row.fact_find ?? {};
  return {
    name: row.name,
    type: row.type,
    status: row.status,
    website: row.website,
    description: row.description,
    phone_country: row.phone_country,
    phone_number: row.phone_number,
    preferred_lang: row.preferred_lang,
    account_manager: accountManager,
    billing_enabled: row.billing_enabled,
    payment_terms: row.payment_terms,
    payment_method: row.payment_method,
    payment_frequency: row.payment_frequency,
    invoice_rule: row.invoice_rule,
    tax_number: row.tax_number,
    account_number_ap: row.account_number_ap,
    account_number_ar: row.account_number_ar,
    ...Object.fromEntries(FACT_FIND_QUESTIONS.map((q) => [`fact_find_${q.key}`, facts[q.key] ?? null])),
  };
}

/** A new record's log keeps only the fields that hold something. */
function withoutEmpty(row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(row).filter(([, v]) => v !== null && v !== undefined && v !== ''));
}

function cleanFactFind(input: Record<string, string | undefined> | undefined): Record<string, string> | null {
  if (!input) return null;
  const out: Record<string, string> = {};
  for (const q of FACT_FIND_QUESTIONS) {
    const v = input[q.key];
    if (v !== undefined && v !== '') out[q.key] = v;
  }
  return Object.keys(out).length ? out : null;
}

// ---------------------------------------------------------------- create

/**
 * Creates a client with its contacts, addresses, fact-find and files (clients/add, /clients/new), in one
 * batch with its activity-log row. The company is the one chosen in the top bar (or `company_id` when
 * the user looks at several). An account manager creating a client manages it unless they name another.
 */
export async function createClient(
  ctx: ActorCtx,
  input: ClientCreateInput,
  files: Partial<Record<ClientFileKind, unknown>> = {},
): Promise<ClientDetail> {
  requirePermission(ctx.actor, 'create_client');
  const companyId = companyForNewRecord(ctx.actor, input.company_id);
  if (companyId === 'invalid')
    throw ValidationFailed.field('company_id', msg('clients.errors.company_invalid'));
  if (companyId === 'required')
    throw ValidationFailed.field('company_id', msg('clients.errors.company_required'));
  const manager = input.account_manager_id
    ? await resolveAccountManager(ctx.db, companyId, input.account_manager_id)
    : isOnlyAccountManager(ctx.actor)
      ? { id: ctx.actor.user_id, name: `${ctx.actor.first_name} ${ctx.actor.last_name}` }
      : null;

  const clientPublicId = publicId();
  const stored = await storeFiles(ctx, clientPublicId, files);
  const row: typeof clients.$inferInsert = {
    public_id: clientPublicId,
    company_id: companyId,
    name: input.name,
    type: input.type,
    status: input.status,
    account_manager_id: manager?.id ?? null,
    website: input.website ?? null,
    description: input.description ?? null,
    phone_country: input.phone_country?.toUpperCase() ?? null,
    phone_number: input.phone_number ?? null,
    preferred_lang: input.preferred_lang,
    billing_enabled: input.billing_enabled,
    payment_terms: input.payment_terms,
    payment_method: input.payment_method,
    payment_frequency: input.payment_frequency ?? null,
    invoice_rule: input.invoice_rule,
    tax_number: input.tax_number ?? null,
    account_number_ap: input.account_number_ap ?? null,
    account_number_ar: input.account_number_ar ?? null,
    fact_find: cleanFactFind(input.fact_find),
    logo_key: stored.logo?.key ?? null,
    return_policy_key: stored.return_policy?.key ?? null,
    created_at: ctx.now,
    updated_at: ctx.now,
  };
  // One batch: the new row's id is not known yet, so the other rows name it by its public id.
  const newId =
    sql`(select ${clients.id} from ${clients} where ${clients.public_id} = ${row.public_id})` as unknown as number;
  const owner: ContactOwner = { type: 'client', id: newId };
  try {
    await runBatch(ctx.db, [
      ctx.db.insert(clients).values(row),
      ...replaceContacts(ctx.db, owner, input.contacts, ctx.now),
      ...replaceAddress(ctx.db, owner, 'billing', input.billing_address, ctx.now),
      ...replaceAddress(ctx.db, owner, 'mailing', input.mailing_address, ctx.now),
      logActivity(ctx, {
        entity_type: 'client',
        entity_id: newId,
        action: 'created',
        after: withoutEmpty({
          ...logView(row as ClientRow, manager?.name ?? null),
          ...contactsForLog(input.contacts),
          billing_address: addressForLog(input.billing_address),
          mailing_address: addressForLog(input.mailing_address),
          logo: stored.logo?.name ?? null,
          return_policy: stored.return_policy?.name ?? null,
        }),
        company_id: companyId,
        client_id: newId,
      }),
    ]);
  } catch (e) {
    await Promise.all(Object.values(stored).map((f) => deleteFile(ctx.env.FILES, f?.key)));
    throw e;
  }
  const [created] = await ctx.db.select().from(clients).where(eq(clients.public_id, clientPublicId)).limit(1);
  return detailOf(ctx.db, created);
}

async function storeFiles(
  ctx: ActorCtx,
  clientPublicId: string,
  files: Partial<Record<ClientFileKind, unknown>>,
): Promise<Partial<Record<ClientFileKind, { key: string; name: string }>>> {
  const checked: Partial<Record<ClientFileKind, Awaited<ReturnType<typeof checkUpload>>>> = {};
  // Check every file before storing any, so a bad second file leaves nothing behind.
  for (const kind of Object.keys(CLIENT_FILE_KINDS) as ClientFileKind[]) {
    const file = files[kind];
    if (file instanceof Blob && file.size > 0)
      checked[kind] = await checkUpload(file, { field: kind, allowed: CLIENT_FILE_KINDS[kind] });
    else if (file instanceof Blob && file.size === 0 && file instanceof File && file.name)
      checked[kind] = await checkUpload(file, { field: kind, allowed: CLIENT_FILE_KINDS[kind] });
  }
  const out: Partial<Record<ClientFileKind, { key: string; name: string }>> = {};
  for (const [kind, file] of Object.entries(checked) as [
    ClientFileKind,
    (typeof checked)[ClientFileKind],
  ][]) {
    if (!file) continue;
    const key = fileKey(`clients/${clientPublicId}/${kind}`, file.name);
    await putFile(ctx.env.FILES, key, file);
    out[kind] = { key, name: file.name };
  }
  return out;
}

// ---------------------------------------------------------------- read

/** GET clients/{id}: the client with contacts, addresses and counts. */
export async function getClient(ctx: ActorCtx, id: string): Promise<ClientDetail> {
  return detailOf(ctx.db, await findClient(ctx, id, 'read_client'));
}

// ---------------------------------------------------------------- update

/**
 * PATCH clients/{client_id}/update and every edit form of the client page: the sections given change,
 * the rest stays. One batch: the row, contacts and addresses when given, and one activity-log row with
 * the fields that changed.
 */
export async function updateClient(
  ctx: ActorCtx,
  id: string,
  input: ClientUpdateInput,
): Promise<ClientDetail> {
  const before = await findClient(ctx, id, 'update_client');
  const oldManager = await userName(ctx.db, before.account_manager_id);
  let manager: { id: number; name: string } | null | undefined;
  if (input.account_manager_id !== undefined || 'account_manager_id' in input) {
    manager = await resolveAccountManager(ctx.db, before.company_id, input.account_manager_id);
  }
  const set: Partial<typeof clients.$inferInsert> = { updated_at: ctx.now };
  const copy = [
    'name',
    'type',
    'website',
    'description',
    'preferred_lang',
    'billing_enabled',
    'payment_terms',
    'payment_method',
    'payment_frequency',
    'invoice_rule',
    'tax_number',
    'account_number_ap',
    'account_number_ar',
    'phone_number',
  ] as const;
  for (const key of copy) if (key in input) (set as Record<string, unknown>)[key] = input[key] ?? null;
  if ('phone_country' in input) set.phone_country = input.phone_country?.toUpperCase() ?? null;
  if (manager !== undefined) set.account_manager_id = manager?.id ?? null;
  if (input.fact_find) set.fact_find = cleanFactFind(input.fact_find);

  const owner = ownerOf(before);
  const statements: Statement[] = [ctx.db.update(clients).set(set).where(eq(clients.id, before.id))];
  const logBefore: Record<string, unknown> = logView(before, oldManager?.name ?? null);
  const after = { ...before, ...set } as ClientRow;
  const logAfter: Record<string, unknown> = logView(
    after,
    manager !== undefined ? (manager?.name ?? null) : (oldManager?.name ?? null),
  );
  if (input.contacts) {
    Object.assign(logBefore, contactsForLog(await readContacts(ctx.db, owner)));
    Object.assign(logAfter, contactsForLog(input.contacts));
    statements.push(...replaceContacts(ctx.db, owner, input.contacts, ctx.now));
  }
  for (const kind of ['billing', 'mailing'] as const) {
    const key = `${kind}_address` as const;
    if (!(key in input)) continue;
    const address = input[key] ?? null;
    logBefore[key] = addressForLog(await readAddress(ctx.db, owner, kind));
    logAfter[key] = addressForLog(address);
    statements.push(...replaceAddress(ctx.db, owner, kind, address, ctx.now));
  }
  // Saving a form without changing anything writes no log row.
  const changed = diff(logBefore, logAfter);
  if (Object.keys(changed.after ?? {}).length) {
    statements.push(
      logActivity(ctx, {
        entity_type: 'client',
        entity_id: before.id,
        action: 'updated',
        before: logBefore,
        after: logAfter,
        company_id: before.company_id,
        client_id: before.id,
      }),
    );
  }
  await runBatch(ctx.db, statements);
  return detailOf(ctx.db, after);
}

// ---------------------------------------------------------------- addresses (catalogue calls)

/** GET clients/{id}/billing-address/fetch and /mailing-address/fetch. */
export async function getClientAddress(ctx: ActorCtx, id: string, kind: AddressKind) {
  const client = await findClient(ctx, id, 'read_client');
  return readAddress(ctx.db, ownerOf(client), kind);
}

/** PATCH clients/{id}/billing-address/update and /mailing-address/update (empty removes the address). */
export async function updateClientAddress(
  ctx: ActorCtx,
  id: string,
  kind: AddressKind,
  input: AddressInput | null | undefined,
) {
  const client = await findClient(ctx, id, 'update_client');
  const owner = ownerOf(client);
  const before = await readAddress(ctx.db, owner, kind);
  await runBatch(ctx.db, [
    ...replaceAddress(ctx.db, owner, kind, input, ctx.now),
    ctx.db.update(clients).set({ updated_at: ctx.now }).where(eq(clients.id, client.id)),
    logActivity(ctx, {
      entity_type: 'client',
      entity_id: client.id,
      action: `${kind}_address_updated`,
      before: { [`${kind}_address`]: addressForLog(before) },
      after: { [`${kind}_address`]: addressForLog(input) },
      company_id: client.company_id,
      client_id: client.id,
    }),
  ]);
  return readAddress(ctx.db, owner, kind);
}

// ---------------------------------------------------------------- files (logo, return policy)

/** GET clients/{id}/logo and /return-policy: the stored file, or NotFound when there is none. */
export async function clientFileResponse(
  ctx: ActorCtx,
  id: string,
  kind: ClientFileKind,
  disposition: 'inline' | 'attachment' = kind === 'logo' ? 'inline' : 'attachment',
): Promise<Response> {
  const client = await findClient(ctx, id, 'read_client|read_school_profile');
  const key = kind === 'logo' ? client.logo_key : client.return_policy_key;
  if (!key) throw new NotFound();
  const response = await fileResponse(ctx.env.FILES, key, { name: storedFileName(key) ?? kind, disposition });
  if (!response) throw new NotFound();
  return response;
}

/** Replaces the client's logo or return policy (the old file is removed once the new one is recorded). */
export async function setClientFile(ctx: ActorCtx, id: string, kind: ClientFileKind, file: unknown) {
  const client = await findClient(ctx, id, 'update_client');
  if (!(file instanceof Blob)) throw ValidationFailed.field(kind, msg('validation.required'));
  const stored = (await storeFiles(ctx, client.public_id, { [kind]: file }))[kind];
  if (!stored) throw ValidationFailed.field(kind, msg('validation.required'));
  const column = kind === 'logo' ? 'logo_key' : 'return_policy_key';
  const oldKey = client[column];
  try {
    await runBatch(ctx.db, [
      ctx.db
        .update(clients)
        .set({ [column]: stored.key, updated_at: ctx.now })
        .where(eq(clients.id, client.id)),
      logActivity(ctx, {
        entity_type: 'client',
        entity_id: client.id,
        action: `${kind}_updated`,
        before: { [kind]: storedFileName(oldKey) },
        after: { [kind]: stored.name },
        company_id: client.company_id,
        client_id: client.id,
      }),
    ]);
  } catch (e) {
    await deleteFile(ctx.env.FILES, stored.key);
    throw e;
  }
  await deleteFile(ctx.env.FILES, oldKey);
  return { name: stored.name };
}

// ---------------------------------------------------------------- notes and logs

/** GET clients/{id}/notes with an optional type. */
export async function clientNotes(ctx: ActorCtx, id: string, query: Partial<NotesQuery> = {}) {
  const client = await findClient(ctx, id, 'read_client');
  return listNotes(ctx.db, noteOwnerOf(client), query);
}

/** POST clients/{id}/notes/add (multipart: the note and an optional file). */
export async function addClientNote(ctx: ActorCtx, id: string, input: NoteInput, file?: unknown) {
  const client = await findClient(ctx, id, 'update_client');
  return addNote(ctx, noteOwnerOf(client), input, file);
}

/** GET clients/{id}/notes/{noteId}/download. */
export async function clientNoteFile(ctx: ActorCtx, id: string, noteId: number) {
  const client = await findClient(ctx, id, 'read_client');
  return noteFileResponse(ctx, noteOwnerOf(client), noteId);
}

/** GET clients/{id}/activities: the client's logs tab. */
export async function clientActivities(ctx: ActorCtx, id: string, page = 1, perPage = 25) {
  const client = await findClient(ctx, id, 'read_client_log');
  return activityFeed(ctx.db, 'client', client.id, page, perPage);
}

// ---------------------------------------------------------------- the school's own profile

/** GET client/fetch (school area): the signed-in school user's own client. */
export async function getOwnClient(ctx: ActorCtx): Promise<ClientDetail> {
  return detailOf(ctx.db, await findOwnClient(ctx, 'read_school_profile'));
}

/**
 * POST client/update (school area): what a school may change of itself (name, description, website,
 * phone, language, owner / secondary / accounting contacts). Other contact types are kept.
 */
export async function updateOwnClient(ctx: ActorCtx, input: SchoolClientInput): Promise<ClientDetail> {
  const before = await findOwnClient(ctx, 'update_school_profile');
  const owner = ownerOf(before);
  const current = await readContacts(ctx.db, owner);
  const toInput = (c: ContactsValue['initial']) =>
    c
      ? {
          first_name: c.first_name,
          last_name: c.last_name,
          email: c.email ?? undefined,
          phone_country: c.phone_country ?? undefined,
          phone_number: c.phone_number ?? undefined,
          job_title: c.job_title ?? undefined,
          department: c.department ?? undefined,
          is_master_user: c.is_master_user,
        }
      : undefined;
  const nextContacts = {
    initial: toInput(current.initial),
    custom: current.custom.map((c) => toInput(c)!),
    owner: input.contacts.owner,
    secondary: input.contacts.secondary,
    accounting: input.contacts.accounting,
  };
  const set = {
    name: input.name,
    description: input.description ?? null,
    website: input.website ?? null,
    phone_country: input.phone_country?.toUpperCase() ?? null,
    phone_number: input.phone_number ?? null,
    preferred_lang: input.preferred_lang,
    updated_at: ctx.now,
  };
  const after = { ...before, ...set };
  const manager = (await userName(ctx.db, before.account_manager_id))?.name ?? null;
  await runBatch(ctx.db, [
    ctx.db.update(clients).set(set).where(eq(clients.id, before.id)),
    ...replaceContacts(ctx.db, owner, nextContacts, ctx.now),
    logActivity(ctx, {
      entity_type: 'client',
      entity_id: before.id,
      action: 'profile_updated',
      before: { ...logView(before, manager), ...contactsForLog(current) },
      after: { ...logView(after, manager), ...contactsForLog(nextContacts) },
      company_id: before.company_id,
      client_id: before.id,
    }),
  ]);
  return detailOf(ctx.db, after);
}
