/** A client as pages and the API show it, and as its logs tab shows its fields. */
import { and, count, eq } from 'drizzle-orm';
import { campuses, companies, contracts, serviceAgreements, users } from '../../../drizzle/schema';
import type { DB } from '../../platform/db';
import {
  readAddresses,
  readContacts,
  type AddressesValue,
  type ContactOwner,
  type ContactsValue,
} from '../contacts/service';
import { FACT_FIND_QUESTIONS } from './schema';
import type { ClientRow } from '../access/finders';
import { userName } from './managers';
import { storedFileName } from './files';

export const ownerOf = (row: Pick<ClientRow, 'id'>): ContactOwner => ({ type: 'client', id: row.id });

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
  expiry_reminders: boolean;
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

export async function detailOf(db: DB, row: ClientRow): Promise<ClientDetail> {
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
    expiry_reminders: row.expiry_reminders,
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
export function logView(row: ClientRow, accountManager: string | null): Record<string, unknown> {
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
    expiry_reminders: row.expiry_reminders,
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
export function withoutEmpty(row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(row).filter(([, v]) => v !== null && v !== undefined && v !== ''));
}

export function cleanFactFind(
  input: Record<string, string | undefined> | undefined,
): Record<string, string> | null {
  if (!input) return null;
  const out: Record<string, string> = {};
  for (const q of FACT_FIND_QUESTIONS) {
    const v = input[q.key];
    if (v !== undefined && v !== '') out[q.key] = v;
  }
  return Object.keys(out).length ? out : null;
}
