/**
 * The values of contacts and addresses as pages and the API show them, and their form defaults and
 * activity-log forms. Pure (no server imports), so components may use them too.
 */
import type { AddressInput, ContactInput, ContactsInput } from './schema';
import type { AddressKind, ContactType } from './rules';
import { CONTACT_SLOTS } from './rules';

export interface Contact {
  id: number;
  type: ContactType;
  first_name: string;
  last_name: string;
  full_name: string;
  email: string | null;
  phone_country: string | null;
  phone_number: string | null;
  job_title: string | null;
  department: string | null;
  is_master_user: boolean;
}

/** Contacts grouped as the form and the API show them (the same shape as `contactsSchema`). */
export interface ContactsValue {
  initial: Contact | null;
  owner: Contact | null;
  accounting: Contact | null;
  secondary: Contact[];
  custom: Contact[];
}

export interface Address {
  /** The spec's `id (model_id)`: the owner's id as the API shows it is the caller's business. */
  id: number;
  kind: AddressKind;
  first_name: string | null;
  last_name: string | null;
  full_name: string | null;
  email: string | null;
  country_id: number | null;
  country_name: string | null;
  city: string | null;
  province: string | null;
  address: string | null;
  address2: string | null;
  postal_code: string | null;
  department: string | null;
  phone_country: string | null;
  phone_number: string | null;
}

export interface AddressesValue {
  billing_address: Address | null;
  mailing_address: Address | null;
}

export function groupContacts(rows: Contact[]): ContactsValue {
  const of = (t: ContactType) => rows.filter((r) => r.type === t);
  return {
    initial: of('initial')[0] ?? null,
    owner: of('owner')[0] ?? null,
    accounting: of('accounting')[0] ?? null,
    secondary: of('secondary'),
    custom: of('custom'),
  };
}

/** A compact, comparable form of contacts for activity-log rows (one line per contact). */
export function contactsForLog(
  value: ContactsInput | ContactsValue | null | undefined,
): Record<string, string | null> {
  const line = (c: ContactInput | Contact | null | undefined) =>
    c
      ? [
          `${c.first_name} ${c.last_name}`.trim(),
          c.email,
          c.phone_number ? `+${c.phone_country ?? ''} ${c.phone_number}` : null,
          c.job_title,
          c.department,
          c.is_master_user ? 'master user' : null,
        ]
          .filter(Boolean)
          .join(', ')
      : null;
  const out: Record<string, string | null> = {
    initial_contact: line(value?.initial),
    owner_contact: line(value?.owner),
    accounting_contact: line(value?.accounting),
  };
  (value?.secondary ?? []).forEach((c, i) => (out[`secondary_contact_${i + 1}`] = line(c)));
  (value?.custom ?? []).forEach((c, i) => (out[`custom_contact_${i + 1}`] = line(c)));
  return out;
}

/** A compact, comparable form of an address for activity-log rows. */
export function addressForLog(a: AddressInput | Address | null | undefined): string | null {
  if (!a) return null;
  return [
    [a.first_name, a.last_name].filter(Boolean).join(' '),
    a.department,
    a.address,
    a.address2,
    a.city,
    a.province,
    a.postal_code,
    'country_name' in a ? a.country_name : a.country_id ? `country ${a.country_id}` : null,
    a.email,
    a.phone_number ? `+${a.phone_country ?? ''} ${a.phone_number}` : null,
  ]
    .filter(Boolean)
    .join(', ');
}

/** The address as form default values (Conform `defaultValue`). */
export function addressFormValue(a: Address | null | undefined): Record<string, string> | undefined {
  if (!a) return undefined;
  const out: Record<string, string> = {};
  for (const key of [
    'first_name',
    'last_name',
    'email',
    'city',
    'province',
    'address',
    'address2',
    'postal_code',
    'department',
    'phone_country',
    'phone_number',
  ] as const) {
    if (a[key]) out[key] = String(a[key]);
  }
  if (a.country_id) out.country_id = String(a.country_id);
  return out;
}

/** Contacts as form default values: empty slots for the types that take several (JavaScript-free forms). */
export function contactsFormValue(
  value: ContactsValue | null | undefined,
  slots: { secondary: number; custom: number } = CONTACT_SLOTS,
) {
  const one = (c: Contact | null | undefined) =>
    c
      ? {
          first_name: c.first_name,
          last_name: c.last_name,
          email: c.email ?? '',
          phone_country: c.phone_country ?? '',
          phone_number: c.phone_number ?? '',
          job_title: c.job_title ?? '',
          department: c.department ?? '',
          is_master_user: c.is_master_user ? 'on' : '',
        }
      : undefined;
  const list = (cs: Contact[], min: number) => {
    const filled = cs.map(one);
    while (filled.length < Math.max(min, cs.length + 1)) filled.push(undefined);
    return filled;
  };
  return {
    initial: one(value?.initial),
    owner: one(value?.owner),
    accounting: one(value?.accounting),
    secondary: list(value?.secondary ?? [], slots.secondary),
    custom: list(value?.custom ?? [], slots.custom),
  };
}
