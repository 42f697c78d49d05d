/**
 * An order's limits, free of zod, so pages read them without loading the schema library
 * (schema.ts re-exports them).
 */

import { APPLICANT_TYPES, GENDERS } from '../../../drizzle/enums';

export { APPLICANT_TYPES, GENDERS };
export type ApplicantType = (typeof APPLICANT_TYPES)[number];
export type Gender = (typeof GENDERS)[number];

/** At most this many applicants in one sheet (spec 001 s.9). */
export const MAX_APPLICANTS = 5000;

/** The applicant fields in the order the forms, the grid and the enrolment template show them. */
export const APPLICANT_FIELDS = [
  'type',
  'first_name',
  'last_name',
  'date_of_birth',
  'gender',
  'email',
  'personal_email',
  'phone_country',
  'phone_number',
  'passport_number',
  'residence_country_id',
  'destination_country_id',
  'start_date',
  'end_date',
  'destination_address',
  'student_number',
  'plan',
  'year_of_study',
  'group_name',
] as const;
export type ApplicantField = (typeof APPLICANT_FIELDS)[number];
