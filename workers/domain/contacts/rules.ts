/**
 * The contact-type rules and slots (spec 001 s.5) as plain values, free of zod: the contacts editor and
 * view read them without loading the schema library (schema.ts re-exports them). The rules are described
 * in schema.ts.
 */
import { type ADDRESS_KINDS, CONTACT_TYPES } from '../../../drizzle/enums';

export { CONTACT_TYPES };
export type ContactType = (typeof CONTACT_TYPES)[number];
export const SINGLE_CONTACT_TYPES = ['initial', 'owner', 'accounting'] as const;
export const MULTI_CONTACT_TYPES = ['secondary', 'custom'] as const;

/** Which optional fields each contact type may carry. */
export const CONTACT_TYPE_RULES: Record<
  ContactType,
  { jobTitle: boolean; department: boolean; masterUser: boolean; multiple: boolean; emailRequired: boolean }
> = {
  initial: { jobTitle: true, department: true, masterUser: false, multiple: false, emailRequired: false },
  owner: { jobTitle: false, department: false, masterUser: true, multiple: false, emailRequired: true },
  secondary: { jobTitle: true, department: true, masterUser: true, multiple: true, emailRequired: true },
  accounting: { jobTitle: true, department: false, masterUser: false, multiple: false, emailRequired: true },
  custom: { jobTitle: false, department: false, masterUser: false, multiple: true, emailRequired: false },
};

/** How many slots a form shows for the types that take several contacts (without JavaScript). */
export const CONTACT_SLOTS = { secondary: 1, custom: 1 } as const;
export const MAX_CONTACTS_PER_TYPE = 20;

export type AddressKind = (typeof ADDRESS_KINDS)[number];
