/**
 * Contacts and addresses of a company, client or campus (spec 001 s.3 and s.5). Pure zod, shared by the
 * forms (Conform) and the API.
 *
 * Contact-type rules (spec 001 s.5):
 * - job title only for initial, secondary and accounting contacts;
 * - department only for initial and secondary contacts;
 * - several contacts only of the custom and secondary types (the others are one object each);
 * - the master-user option only for owner and secondary contacts;
 * - owner, secondary and accounting contacts carry a name, an email and a phone number (name and email
 *   required, the phone optional but always as a pair with its country).
 * A contact slot left entirely empty is no contact (a form can always show one empty slot).
 *
 * Address rules: city, postal code, department 1-150, phone pair, an email; the mailing city is required
 * when a mailing email is given; any filled address needs its first line and country.
 */
import { z } from 'zod';
import { ADDRESS_KINDS, CONTACT_TYPES } from '../../../drizzle/enums';
import {
  addressDepartment,
  city,
  contactTitle,
  email,
  msg,
  optional,
  personName,
  postalCode,
} from '../validation';

export {
  CONTACT_SLOTS,
  CONTACT_TYPE_RULES,
  CONTACT_TYPES,
  MAX_CONTACTS_PER_TYPE,
  MULTI_CONTACT_TYPES,
  SINGLE_CONTACT_TYPES,
  type AddressKind,
  type ContactType,
} from './rules';
import { CONTACT_TYPE_RULES, MAX_CONTACTS_PER_TYPE, type AddressKind, type ContactType } from './rules';

const CONTACT_FIELDS = [
  'first_name',
  'last_name',
  'email',
  'phone_country',
  'phone_number',
  'job_title',
  'department',
] as const;

/** True when a submitted contact or address slot holds nothing a person typed. */
export function isBlank(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (typeof value === 'boolean') return value === false;
  if (typeof value === 'object') return Object.values(value as object).every(isBlank);
  return false;
}

const blankToUndefined = (v: unknown) => (isBlank(v) ? undefined : v);

/** A field a type may not carry: empty is fine, a value is refused with a clear message. */
const notAllowed = (messageKey: string) =>
  z.preprocess(
    (v) => (v === '' || v === null || v === false ? undefined : v),
    z.undefined({ invalid_type_error: msg(messageKey) }),
  );

const phoneFields = {
  phone_country: optional(z.string().regex(/^[A-Za-z]{2}$/, msg('validation.phone_country'))),
  phone_number: optional(
    z.preprocess(
      (v) => (typeof v === 'string' ? v.replace(/[\s()-]/g, '') : v),
      z.string().regex(/^\d{3,18}$/, msg('validation.phone_number')),
    ),
  ),
};

function checkPhonePair(d: { phone_country?: string; phone_number?: string }, ctx: z.RefinementCtx) {
  if (d.phone_number && !d.phone_country)
    ctx.addIssue({ code: 'custom', path: ['phone_country'], message: msg('validation.required') });
  if (d.phone_country && !d.phone_number)
    ctx.addIssue({ code: 'custom', path: ['phone_number'], message: msg('validation.required') });
}

function contactSchemaFor(type: ContactType) {
  const rules = CONTACT_TYPE_RULES[type];
  return z
    .object(
      {
        first_name: personName,
        last_name: personName,
        email: rules.emailRequired ? email : optional(email),
        ...phoneFields,
        job_title: rules.jobTitle
          ? optional(contactTitle)
          : notAllowed('contacts.errors.job_title_not_allowed'),
        department: rules.department
          ? optional(contactTitle)
          : notAllowed('contacts.errors.department_not_allowed'),
        is_master_user: rules.masterUser
          ? z.preprocess((v) => v === true || v === 'on' || v === 'true', z.boolean()).default(false)
          : notAllowed('contacts.errors.master_user_not_allowed'),
      },
      // A list given where a type takes one contact (owner: [..]) is refused with the rule's message.
      { invalid_type_error: msg(rules.multiple ? 'validation.required' : 'contacts.errors.single_only') },
    )
    .superRefine(checkPhonePair);
}

export const contactSchemas = Object.fromEntries(CONTACT_TYPES.map((t) => [t, contactSchemaFor(t)])) as {
  [K in ContactType]: ReturnType<typeof contactSchemaFor>;
};

export type ContactInput = {
  first_name: string;
  last_name: string;
  email?: string;
  phone_country?: string;
  phone_number?: string;
  job_title?: string;
  department?: string;
  is_master_user?: boolean;
};

const single = (type: ContactType) => z.preprocess(blankToUndefined, contactSchemas[type].optional());

const several = (type: ContactType) =>
  z
    .array(z.preprocess(blankToUndefined, contactSchemas[type].optional()))
    .max(MAX_CONTACTS_PER_TYPE, msg('contacts.errors.too_many', { max: MAX_CONTACTS_PER_TYPE }))
    .optional()
    .default([])
    // Empty slots keep their index while validating (errors stay on the right slot), then drop out.
    .transform((list) => list.filter((c): c is NonNullable<typeof c> => !!c));

/**
 * Every contact of one owner, by type. `initial`, `owner` and `accounting` are single contacts;
 * `secondary` and `custom` are lists. Form field names: `contacts.owner.email`,
 * `contacts.secondary[0].first_name`, ...
 */
export const contactsSchema = z.object({
  initial: single('initial'),
  owner: single('owner'),
  accounting: single('accounting'),
  secondary: several('secondary'),
  custom: several('custom'),
});
export type ContactsInput = z.infer<typeof contactsSchema>;

export { ADDRESS_KINDS };

const addressShape = {
  first_name: optional(personName),
  last_name: optional(personName),
  email: optional(email),
  country_id: optional(
    z.coerce
      .number({ invalid_type_error: msg('validation.required') })
      .int()
      .positive(),
  ),
  city: optional(city),
  province: optional(z.string().max(100, msg('validation.max', { length: 100 }))),
  address: optional(z.string().max(191, msg('validation.max', { length: 191 }))),
  address2: optional(z.string().max(191, msg('validation.max', { length: 191 }))),
  postal_code: optional(postalCode),
  department: optional(addressDepartment),
  ...phoneFields,
};

function addressSchemaFor(kind: AddressKind) {
  return z.preprocess(
    blankToUndefined,
    z
      .object(addressShape)
      .superRefine((d, ctx) => {
        checkPhonePair(d, ctx);
        if (!d.address)
          ctx.addIssue({ code: 'custom', path: ['address'], message: msg('validation.required') });
        if (!d.country_id)
          ctx.addIssue({ code: 'custom', path: ['country_id'], message: msg('validation.required') });
        if (kind === 'mailing' && d.email && !d.city)
          ctx.addIssue({ code: 'custom', path: ['city'], message: msg('validation.mailing_city_required') });
      })
      .optional(),
  );
}

/** One address (billing or mailing); an entirely empty one is `undefined` (no address). */
export const addressSchemas = {
  billing: addressSchemaFor('billing'),
  mailing: addressSchemaFor('mailing'),
};
export type AddressInput = z.infer<z.ZodObject<typeof addressShape>>;

/** Both addresses of an owner. Form field names: `billing_address.city`, `mailing_address.email`, ... */
export const addressesSchema = z.object({
  billing_address: addressSchemas.billing,
  mailing_address: addressSchemas.mailing,
});
export type AddressesInput = z.infer<typeof addressesSchema>;

export { CONTACT_FIELDS };

/** A contacts form (a client's contacts tab). */
export const contactsFormSchema = z.object({ contacts: contactsSchema });
