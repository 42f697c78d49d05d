/**
 * Campuses (spec 001 s.3 Campus, s.4, s.5): the inputs of the area as zod schemas, shared by the pages
 * (Conform) and the API. Pure: no server imports. Contacts and addresses use the shared schemas of
 * workers/domain/contacts.
 */
import { z } from 'zod';
import { addressSchemas, contactsSchema } from '../contacts/schema';
import { listQuerySchema } from '../list-query';
import { checkbox, entityName, msg, optional, url } from '../validation';

import { CAMPUS_LANGUAGES, CAMPUS_PAYMENT_TERMS, CAMPUS_STATUSES } from './values';

export { CAMPUS_CONTACT_TYPES, CAMPUS_LANGUAGES, CAMPUS_PAYMENT_TERMS, CAMPUS_STATUSES } from './values';

const emptyToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);
const text = (max: number) => optional(z.string().max(max, msg('validation.max', { length: max })));
const choose = { errorMap: () => ({ message: msg('campuses.errors.choose_option') }) };

const phoneFields = {
  phone_country: optional(z.string().regex(/^[A-Za-z]{2}$/, msg('validation.phone_country'))),
  phone_number: optional(
    z.preprocess(
      (v) => (typeof v === 'string' ? v.replace(/[\s()-]/g, '') : v),
      z.string().regex(/^\d{3,18}$/, msg('validation.phone_number')),
    ),
  ),
};

function phonePair(d: { phone_country?: string; phone_number?: string }, ctx: z.RefinementCtx) {
  if (d.phone_number && !d.phone_country)
    ctx.addIssue({ code: 'custom', path: ['phone_country'], message: msg('validation.required') });
  if (d.phone_country && !d.phone_number)
    ctx.addIssue({ code: 'custom', path: ['phone_number'], message: msg('validation.required') });
}

/** The profile of a campus: every field of spec 001 s.3 except contacts and addresses. */
export const campusProfileShape = {
  name: entityName,
  initial: text(10),
  description: text(1000),
  country_id: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ invalid_type_error: msg('validation.required') })
      .int()
      .positive()
      .optional(),
  ),
  ...phoneFields,
  website: optional(url),
  preferred_lang: z.preprocess((v) => (v === '' || v == null ? 'en' : v), z.enum(CAMPUS_LANGUAGES, choose)),
  /** A company user of the client's company (public id). */
  account_manager_id: z.preprocess(emptyToUndefined, z.string().max(40).optional()),
  quickbooks_id: text(50),
};

/** The billing settings of a campus (campuses/{id}/update-billing). */
export const campusBillingShape = {
  account_number_ap: text(50),
  account_number_ar: text(50),
  payment_terms: z.preprocess(emptyToUndefined, z.enum(CAMPUS_PAYMENT_TERMS, choose).optional()),
  pay_with_bank_transfer: checkbox.optional().default(false),
};

const campusContacts = contactsSchema.pick({ initial: true, owner: true, secondary: true, accounting: true });

/** campuses/add (/clients/{id}/add-campus): profile, billing, contacts and both addresses. */
export const createCampusSchema = z
  .object({
    client_id: z.preprocess(
      (v) => (typeof v === 'string' ? v.trim() : (v ?? '')),
      z.string().min(1, msg('validation.required')).max(40),
    ),
    ...campusProfileShape,
    ...campusBillingShape,
    contacts: campusContacts.optional().default({}),
    billing_address: addressSchemas.billing,
    mailing_address: addressSchemas.mailing,
  })
  .superRefine(phonePair);
export type CreateCampusInput = z.infer<typeof createCampusSchema>;

/** campuses/{id}/update: the profile. */
export const updateCampusSchema = z.object(campusProfileShape).superRefine(phonePair);
export type UpdateCampusInput = z.infer<typeof updateCampusSchema>;

/** campuses/{id}/update-billing. */
export const campusBillingSchema = z.object(campusBillingShape);
export type CampusBillingInput = z.infer<typeof campusBillingSchema>;

/** The campus page's details form: the profile and billing in one. */
export const campusDetailsSchema = z.object({ ...campusProfileShape, ...campusBillingShape });

/** campuses/{id}/update-contact. */
export const campusContactsSchema = z.object({ contacts: campusContacts });
export type CampusContactsInput = z.infer<typeof campusContactsSchema>;

/** campuses/{id}/billing-address/update and mailing-address/update: one address (empty removes it). */
export const campusAddressSchemas = {
  billing: z.object({ address: addressSchemas.billing }),
  mailing: z.object({ address: addressSchemas.mailing }),
};

/** campuses/{id}/clone: the copy's name (default: the original's with " (copy)"). */
export const cloneCampusSchema = z.object({ name: z.preprocess(emptyToUndefined, entityName.optional()) });

export const campusListQuerySchema = listQuerySchema.extend({
  client_id: z.preprocess(emptyToUndefined, z.string().max(40).optional()),
  status: z.preprocess(emptyToUndefined, z.enum([...CAMPUS_STATUSES, 'all']).optional()),
  country_id: z.preprocess(emptyToUndefined, z.coerce.number().int().positive().optional()),
});
export type CampusListQuery = z.infer<typeof campusListQuerySchema>;

/**
 * The enrolment template's applicant columns (spec 001 s.3 Applicant), in the order of the sheet, with
 * whether a row needs a value. Header texts are in campuses.json (`template.columns.*`).
 */
export const TEMPLATE_COLUMNS = [
  { key: 'type', required: true },
  { key: 'first_name', required: true },
  { key: 'last_name', required: true },
  { key: 'date_of_birth', required: true },
  { key: 'gender', required: true },
  { key: 'email', required: true },
  { key: 'personal_email', required: false },
  { key: 'mobile_number_country', required: false },
  { key: 'mobile_number', required: false },
  { key: 'passport_number', required: true },
  { key: 'country_of_residence', required: true },
  { key: 'country_of_destination', required: true },
  { key: 'trip_start_date', required: true },
  { key: 'trip_end_date', required: true },
  { key: 'destination_address', required: false },
  { key: 'student_number', required: false },
  { key: 'year_of_study', required: false },
  { key: 'group_leader', required: false },
  { key: 'group_name', required: false },
] as const;

export { APPLICANT_TYPES, GENDERS } from '../../../drizzle/enums';

/** A campus's addresses tab: the billing and the mailing address. */
export const campusAddressesSchema = z.object({
  billing_address: addressSchemas.billing,
  mailing_address: addressSchemas.mailing,
});
