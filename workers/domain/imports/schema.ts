/**
 * Spreadsheet imports (ARCHITECTURE.md "Spreadsheet import"): the limits of an uploaded file, the fields
 * a column can be matched to, and the inputs of the import steps. Pure: the match-columns page and the
 * API use the same schemas.
 */
import { z } from 'zod';
import { DATE_ORDERS, IMPORT_STATUSES } from '../../../drizzle/enums';
import { APPLICANT_FIELDS, MAX_APPLICANTS, type ApplicantField } from '../enrollments/schema';
import { checkbox, msg } from '../validation';
import { MAX_IMPORT_MB } from './values';
export { MAX_IMPORT_MB };

export { DATE_ORDERS, IMPORT_STATUSES, MAX_APPLICANTS };
export type DateOrder = (typeof DATE_ORDERS)[number];
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

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

const target = z.preprocess(
  (v) => (v === '' || v === 'ignore' || v == null ? null : v),
  z.enum(IMPORT_TARGETS).nullable(),
);

/**
 * The columns the user matched: `columns[i]` is the target of column i ('' or 'ignore' to ignore it),
 * and the day/month order of its dates. A form posts `columns[0]`, `columns[1]`...; the API a list.
 */
export const mappingSchema = z.object({
  columns: z.array(target).max(MAX_COLUMNS),
  date_order: z.enum(DATE_ORDERS).default('dmy'),
});
export type MappingInput = z.infer<typeof mappingSchema>;

/** `/insureds/new/import?campus=…&contract=…`: the campus and product chosen on the order page. */
export const importTargetSchema = z.object({
  campus_id: z
    .string({ required_error: msg('validation.required') })
    .trim()
    .min(1, msg('validation.required'))
    .max(40),
  contract_id: z
    .string({ required_error: msg('validation.required') })
    .trim()
    .min(1, msg('validation.required'))
    .max(40),
});

/** The review grid's query. */
export const reviewQuerySchema = z.object({
  page: z.coerce.number().int().min(1).catch(1).default(1),
  errors_only: checkbox.default(false),
});
export type ReviewQuery = z.infer<typeof reviewQuerySchema>;

/** The spreadsheet upload form: the campus and contract it is for, and the file (checked by the service). */
export const importUploadFormSchema = z.object({
  campus: z.string().max(40).optional(),
  contract: z.string().max(40).optional(),
  file: z.unknown(),
});
