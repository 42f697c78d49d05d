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

/** The applicant fields that hold a day (YYYY-MM-DD; typed in the forms and the review grid as DD/MM/YYYY). */
export const APPLICANT_DAY_FIELDS: ReadonlySet<ApplicantField> = new Set([
  'date_of_birth',
  'start_date',
  'end_date',
]);

/** Days since 1970 of a YYYY-MM-DD day. */
export function dayNumber(iso: string): number {
  return (
    Date.UTC(Number(iso.slice(0, 4)), Number(iso.slice(5, 7)) - 1, Number(iso.slice(8, 10))) / 86_400_000
  );
}

/** Days of a trip, both ends included (1 June to 6 June is 6 days). */
export function tripDays(start: string, end: string): number {
  return dayNumber(end) - dayNumber(start) + 1;
}
