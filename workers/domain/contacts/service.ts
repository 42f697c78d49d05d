/**
 * Contacts and addresses of one owner (a company, client or campus), read and replaced INSIDE the
 * caller's batch. These functions check nothing: the caller has already checked its permission and that
 * the owner is in the actor's scope, and runs the returned statements with its own change and log row.
 *
 *   const before = await readContacts(ctx.db, owner);
 *   await runBatch(ctx.db, [
 *     ...replaceContacts(ctx.db, owner, input.contacts, ctx.now),
 *     logActivity(ctx, { entity_type: 'client', entity_id: id, action: 'contacts_updated',
 *       before: contactsForLog(before), after: contactsForLog(input.contacts) }),
 *   ]);
 */
import { and, asc, eq, type SQL } from 'drizzle-orm';
import type { SQLiteInsertValue } from 'drizzle-orm/sqlite-core';
import { addresses, contacts, countries } from '../../../drizzle/schema';
import { bulkInsert, inJson, type DB, type Statement } from '../../platform/db';
import {
  CONTACT_TYPES,
  type AddressInput,
  type AddressKind,
  type AddressesInput,
  type ContactInput,
  type ContactType,
  type ContactsInput,
} from './schema';
import { groupContacts, type Address, type AddressesValue, type Contact, type ContactsValue } from './values';

export * from './values';

export type OwnerType = 'company' | 'client' | 'campus';
export interface ContactOwner {
  type: OwnerType;
  /** A number, or idByPublicId() for an owner written earlier in the same batch. */
  id: number | SQL<number>;
}

const ownerIs = (owner: ContactOwner) =>
  and(eq(contacts.owner_type, owner.type), eq(contacts.owner_id, owner.id));
const addressOwnerIs = (owner: ContactOwner) =>
  and(eq(addresses.owner_type, owner.type), eq(addresses.owner_id, owner.id));

function toContact(row: typeof contacts.$inferSelect): Contact {
  return {
    id: row.id,
    type: row.type,
    first_name: row.first_name,
    last_name: row.last_name,
    full_name: `${row.first_name} ${row.last_name}`.trim(),
    email: row.email,
    phone_country: row.phone_country,
    phone_number: row.phone_number,
    job_title: row.job_title,
    department: row.department,
    is_master_user: row.is_master_user,
  };
}

/** The query for an owner's contacts, for callers that read them in their own batch. */
export function contactsQuery(db: DB, owner: ContactOwner) {
  return db
    .select()
    .from(contacts)
    .where(ownerIs(owner))
    .orderBy(asc(contacts.type), asc(contacts.position), asc(contacts.id));
}

/** Rows of `contactsQuery` as the grouped value. */
export function contactsFromRows(rows: (typeof contacts.$inferSelect)[]): ContactsValue {
  return groupContacts(rows.map(toContact));
}

export async function readContacts(db: DB, owner: ContactOwner): Promise<ContactsValue> {
  return contactsFromRows(await contactsQuery(db, owner));
}

/** Contacts of several owners of one type at once (lists that show, say, each client's owner contact). */
export async function readContactsOfMany(
  db: DB,
  type: OwnerType,
  ownerIds: number[],
): Promise<Map<number, ContactsValue>> {
  const out = new Map<number, ContactsValue>();
  if (!ownerIds.length) return out;
  const rows = await db
    .select()
    .from(contacts)
    .where(and(eq(contacts.owner_type, type), inJson(contacts.owner_id, ownerIds)))
    .orderBy(asc(contacts.position), asc(contacts.id));
  for (const id of ownerIds) out.set(id, contactsFromRows(rows.filter((r) => r.owner_id === id)));
  return out;
}

/** Flattens the grouped input into rows (type and position), in the order a person sees them. */
export function contactRows(
  owner: ContactOwner,
  input: ContactsInput,
  now: Date,
): SQLiteInsertValue<typeof contacts>[] {
  const rows: SQLiteInsertValue<typeof contacts>[] = [];
  const push = (type: ContactType, c: ContactInput, position: number) =>
    rows.push({
      owner_type: owner.type,
      owner_id: owner.id,
      type,
      first_name: c.first_name,
      last_name: c.last_name,
      email: c.email ?? null,
      phone_country: c.phone_country?.toUpperCase() ?? null,
      phone_number: c.phone_number ?? null,
      job_title: c.job_title ?? null,
      department: c.department ?? null,
      is_master_user: c.is_master_user ?? false,
      position,
      created_at: now,
      updated_at: now,
    });
  for (const type of CONTACT_TYPES) {
    const value = input[type as keyof ContactsInput];
    if (!value) continue;
    if (Array.isArray(value)) value.forEach((c, i) => push(type, c as ContactInput, i));
    else push(type, value as ContactInput, 0);
  }
  return rows;
}

/**
 * Statements that replace every contact of the owner with `input` (validated with `contactsSchema`).
 * Run them in the caller's batch.
 */
export function replaceContacts(db: DB, owner: ContactOwner, input: ContactsInput, now: Date): Statement[] {
  return [
    db.delete(contacts).where(ownerIs(owner)),
    ...bulkInsert(db, contacts, contactRows(owner, input, now)),
  ];
}

/** Statements that remove every contact and address of an owner (when the owner itself is deleted). */
export function deleteContactsAndAddresses(db: DB, owner: ContactOwner): Statement[] {
  return [db.delete(contacts).where(ownerIs(owner)), db.delete(addresses).where(addressOwnerIs(owner))];
}

// ---------------------------------------------------------------- addresses

function addressQuery(db: DB, owner: ContactOwner, kind?: AddressKind) {
  return db
    .select({ address: addresses, country_name: countries.name })
    .from(addresses)
    .leftJoin(countries, eq(countries.id, addresses.country_id))
    .where(and(addressOwnerIs(owner), kind ? eq(addresses.kind, kind) : undefined));
}

function toAddress(row: { address: typeof addresses.$inferSelect; country_name: string | null }): Address {
  const a = row.address;
  const full = [a.first_name, a.last_name].filter(Boolean).join(' ');
  return {
    id: a.id,
    kind: a.kind,
    first_name: a.first_name,
    last_name: a.last_name,
    full_name: full || null,
    email: a.email,
    country_id: a.country_id,
    country_name: row.country_name,
    city: a.city,
    province: a.province,
    address: a.address,
    address2: a.address2,
    postal_code: a.postal_code,
    department: a.department,
    phone_country: a.phone_country,
    phone_number: a.phone_number,
  };
}

export async function readAddresses(db: DB, owner: ContactOwner): Promise<AddressesValue> {
  const rows = (await addressQuery(db, owner)).map(toAddress);
  return {
    billing_address: rows.find((r) => r.kind === 'billing') ?? null,
    mailing_address: rows.find((r) => r.kind === 'mailing') ?? null,
  };
}

export async function readAddress(db: DB, owner: ContactOwner, kind: AddressKind): Promise<Address | null> {
  const rows = await addressQuery(db, owner, kind);
  return rows[0] ? toAddress(rows[0]) : null;
}

/**
 * Statements that set one address of the owner (billing or mailing) to `input`, or remove it when
 * `input` is undefined or null (an empty address). Run them in the caller's batch.
 */
export function replaceAddress(
  db: DB,
  owner: ContactOwner,
  kind: AddressKind,
  input: AddressInput | null | undefined,
  now: Date,
): Statement[] {
  const remove = db.delete(addresses).where(and(addressOwnerIs(owner), eq(addresses.kind, kind)));
  if (!input) return [remove];
  return [
    remove,
    db.insert(addresses).values({
      owner_type: owner.type,
      owner_id: owner.id,
      kind,
      first_name: input.first_name ?? null,
      last_name: input.last_name ?? null,
      email: input.email ?? null,
      country_id: input.country_id ?? null,
      city: input.city ?? null,
      province: input.province ?? null,
      address: input.address ?? null,
      address2: input.address2 ?? null,
      postal_code: input.postal_code ?? null,
      department: input.department ?? null,
      phone_country: input.phone_country?.toUpperCase() ?? null,
      phone_number: input.phone_number ?? null,
      created_at: now,
      updated_at: now,
    }),
  ];
}

/** Both addresses at once (`addressesSchema`). */
export function replaceAddresses(db: DB, owner: ContactOwner, input: AddressesInput, now: Date): Statement[] {
  return [
    ...replaceAddress(db, owner, 'billing', input.billing_address, now),
    ...replaceAddress(db, owner, 'mailing', input.mailing_address, now),
  ];
}

/** Countries for address and phone-country fields (active ones, by name). */
export async function countryOptions(db: DB) {
  return db
    .select({
      id: countries.id,
      name: countries.name,
      abbreviation: countries.abbreviation,
      dial_code: countries.dial_code,
    })
    .from(countries)
    .where(eq(countries.status, 'active'))
    .orderBy(asc(countries.name));
}
