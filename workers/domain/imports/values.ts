/**
 * A spreadsheet import's limits, free of zod, so pages read them without loading the schema
 * library (schema.ts re-exports them).
 */

import { type DATE_ORDERS } from '../../../drizzle/enums';
import { APPLICANT_FIELDS, type ApplicantField } from '../enrollments/values';

/** Spec 000 s.5: default file size limit ('File cannot be larger than {n}MB'). */
export const MAX_IMPORT_MB = 10;

export type DateOrder = (typeof DATE_ORDERS)[number];

/**
 * Zip-bomb limits of an .xlsx, checked on its central directory before anything is inflated: a real
 * 5000-row sheet has about 15 entries and expands to 20-30 MB.
 */
export const MAX_ZIP_ENTRIES = 1000;
export const MAX_UNCOMPRESSED_BYTES = 150 * 1024 * 1024;
export const MAX_COMPRESSION_RATIO = 200;
/** Columns read from a sheet: anything past this is not an applicant sheet. */
export const MAX_COLUMNS = 100;
/** Rows kept at upload for the column matching page. */
export const SAMPLE_ROWS = 5;
/** Review grid rows per page. */
export const REVIEW_PAGE_SIZE = 50;

/**
 * What a column can be matched to: an applicant field, or `group_leader` (the template's "Group Leader"
 * column: Yes for a group leader, or the email of the applicant's group leader).
 */
export const IMPORT_TARGETS = [...APPLICANT_FIELDS, 'group_leader'] as const;
export type ImportTarget = ApplicantField | 'group_leader';

export function isImportTarget(v: unknown): v is ImportTarget {
  return typeof v === 'string' && (IMPORT_TARGETS as readonly string[]).includes(v);
}

/** Fields every sheet must provide (the destination may come from the campus's country instead). */
export const REQUIRED_TARGETS = [
  'first_name',
  'last_name',
  'date_of_birth',
  'residence_country_id',
  'destination_country_id',
  'start_date',
  'end_date',
] as const satisfies readonly ImportTarget[];

/** The fields whose values are calendar dates (shown with how they will be read). */
export const DATE_TARGETS = [
  'date_of_birth',
  'start_date',
  'end_date',
] as const satisfies readonly ImportTarget[];

/** Column index (as text) to target, or null for an ignored column. */
export type ColumnMapping = Record<string, ImportTarget | null>;

/** A stored mapping (JSON) as a ColumnMapping: anything that is not a known target counts as ignored. */
export function asMapping(stored: Record<string, string | null> | null | undefined): ColumnMapping | null {
  if (!stored) return null;
  const out: ColumnMapping = {};
  for (const [column, t] of Object.entries(stored)) out[column] = isImportTarget(t) ? t : null;
  return out;
}
