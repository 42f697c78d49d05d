/**
 * The applicant (spec 001 sections 3 and 5): one person to insure, as typed in the add form, sent to the
 * API, or read from a spreadsheet row. Pure: the browser validates the add form with the same schema.
 *
 * The rules that need the product, the contract or the other applicants of the batch (trip length, age
 * limits, past start dates, duplicates, family links) are in rules.ts.
 */
import { z } from 'zod';
import { APPLICANT_TYPES, GENDERS } from '../../../drizzle/enums';
import {
  email,
  groupName,
  isoDate,
  msg,
  optional,
  optionalPhoneFields,
  passportNumber,
  personName,
  studentNumber,
} from '../validation';
import { APPLICANT_FIELDS, MAX_APPLICANTS, type ApplicantField } from './values';
export { APPLICANT_FIELDS, MAX_APPLICANTS, type ApplicantField };

export { APPLICANT_TYPES, GENDERS };
import type { ApplicantType, Gender } from './values';
export type { ApplicantType, Gender };

/** Enrollments per cart page (spec 002 s.9). */
export const CART_PAGE_SIZE = 500;

const text = (max: number) => optional(z.string().max(max, msg('validation.max', { length: max })));

const requiredDate = z.preprocess((v) => (typeof v === 'string' ? v.trim() : (v ?? '')), isoDate);

const countryId = z.preprocess(
  (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : Number(v.trim())) : (v ?? undefined)),
  z
    .number({
      required_error: msg('validation.required'),
      invalid_type_error: msg('enrollments.errors.country'),
    })
    .int(msg('enrollments.errors.country'))
    .positive(msg('enrollments.errors.country')),
);

const applicantType = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() ? v.trim() : 'student'),
  z.string().superRefine((v, ctx) => {
    if (!(APPLICANT_TYPES as readonly string[]).includes(v))
      ctx.addIssue({ code: 'custom', message: msg('validation.type_invalid', { type: v }) });
  }),
) as unknown as z.ZodType<ApplicantType>;

/** The fields of one applicant. Dates are YYYY-MM-DD; countries are country ids. */
export const applicantFields = {
  type: applicantType,
  first_name: personName,
  last_name: personName,
  date_of_birth: requiredDate,
  gender: optional(z.enum(GENDERS, { errorMap: () => ({ message: msg('enrollments.errors.gender') }) })),
  email: optional(email),
  personal_email: optional(email),
  ...optionalPhoneFields,
  passport_number: optional(passportNumber),
  residence_country_id: countryId,
  destination_country_id: countryId,
  start_date: requiredDate,
  end_date: requiredDate,
  destination_address: text(255),
  student_number: optional(studentNumber),
  plan: text(100),
  year_of_study: text(50),
  group_name: optional(groupName),
};

/** Text that trimming and collapsing whitespace leave as it is (one plain space between words). */
const settled = (v: string) => !/^\s|\s$|\s\s|[^\S ]/.test(v);

/**
 * Values a field's schema would take exactly as they are, known without running it: cheap tests for the
 * fields whose values hardly ever repeat down a sheet (names, emails, passports, phones, addresses), so
 * checking 5000 rows does not run zod 30,000 times. Each test accepts only a part of what the schema
 * accepts, and only values the schema returns unchanged (a test holds them to the schema); anything
 * else goes through the schema.
 */
export const fieldFastAccept: Partial<Record<keyof typeof applicantFields, (v: string) => boolean>> = {
  first_name: (v) => v.length >= 1 && v.length <= 100 && !/\d/.test(v) && settled(v),
  last_name: (v) => v.length >= 1 && v.length <= 100 && !/\d/.test(v) && settled(v),
  email: (v) =>
    v.length <= 254 &&
    /^[a-z0-9._%+-]{1,64}@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/.test(
      v,
    ),
  personal_email: (v) => fieldFastAccept.email!(v),
  phone_number: (v) => /^\d{3,18}$/.test(v),
  passport_number: (v) => /^[A-Za-z0-9]{3,18}$/.test(v),
  student_number: (v) => /^[A-Za-z0-9]{1,50}$/.test(v),
  destination_address: (v) => v.length >= 1 && v.length <= 255 && settled(v),
};

/** The fields of an applicant as their own schemas parse them. */
type ParsedFields = { [K in keyof typeof applicantFields]?: z.output<(typeof applicantFields)[K]> };

/**
 * The rules between an applicant's own fields (a phone needs its country and the other way round, the
 * destination differs from the residence, the trip ends after it starts), on fields that each parsed.
 */
export function applicantCrossIssues(a: ParsedFields): { path: string; message: string }[] {
  const out: { path: string; message: string }[] = [];
  if (a.phone_number && !a.phone_country)
    out.push({ path: 'phone_country', message: msg('validation.required') });
  if (a.phone_country && !a.phone_number)
    out.push({ path: 'phone_number', message: msg('validation.required') });
  if (a.residence_country_id && a.residence_country_id === a.destination_country_id)
    out.push({ path: 'destination_country_id', message: msg('enrollments.errors.same_country') });
  if (a.start_date && a.end_date && a.end_date <= a.start_date)
    out.push({ path: 'end_date', message: msg('validation.end_after_start') });
  return out;
}

export const applicantSchema = z.object(applicantFields).superRefine((a, ctx) => {
  for (const issue of applicantCrossIssues(a))
    ctx.addIssue({ code: 'custom', path: [issue.path], message: issue.message });
});

export type ApplicantInput = z.infer<typeof applicantSchema>;

// APPLICANT_FIELDS (values.ts) names exactly the applicant schema's fields.
const _fieldsAreTheSchemas: readonly (keyof typeof applicantFields)[] = APPLICANT_FIELDS;
void _fieldsAreTheSchemas;

// ---------------------------------------------------------------- order pages' forms

/** The cart's "remove this order" button. */
export const cartBatchSchema = z.object({ batch_id: z.string().min(1).max(64) });

/** The cart's "remove the selected applicants" (at least one ticked). */
export const cartDeleteSchema = z.object({
  ids: z
    .array(z.string().min(1).max(64))
    .optional()
    .refine((ids) => !!ids?.length, 'cart.errors.select_one'),
});

/** An order's "remove this applicant" button. */
export const enrollmentIdSchema = z.object({ enrollment_id: z.string().max(40) });

/** Starting an order: one by one or from a spreadsheet, for a campus and a contract. */
export const orderStartSchema = z.object({
  prefill: z.string().max(40).optional(),
  campus_id: z.string().max(40).default(''),
  contract_id: z.string({ required_error: 'order.choose_product' }).max(40),
});

/** Discarding an unfinished order. */
export const orderDiscardSchema = z.object({ batch_id: z.string().max(40) });

/** The ticked applicants and their group leader ("No group leader" is empty). */
export const groupLeaderFormSchema = z.object({
  group_leader_id: z.string().max(40).optional(),
  enrollment_ids: z
    .array(z.string().max(40), { required_error: 'cart.errors.select_one' })
    .min(1, 'cart.errors.select_one'),
});

/** An order's review: send the welcome emails or not. */
export const orderReviewSchema = z.object({ send_welcome_email: z.literal('on').optional() });
