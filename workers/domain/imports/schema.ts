/**
 * Spreadsheet imports (ARCHITECTURE.md "Spreadsheet import"): the limits of an uploaded file, the fields
 * a column can be matched to, and the inputs of the import steps. Pure: the match-columns page and the
 * API use the same schemas.
 */
import { z } from 'zod';
import { DATE_ORDERS, IMPORT_STATUSES } from '../../../drizzle/enums';
import { MAX_APPLICANTS } from '../enrollments/schema';
import { checkbox, msg } from '../validation';
import { IMPORT_TARGETS, MAX_COLUMNS } from './values';
// The limits, targets and mapping helpers are zod-free (pages read them from values.ts); the import steps'
// server code reads everything from here.
export * from './values';

export { DATE_ORDERS, IMPORT_STATUSES, MAX_APPLICANTS };
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

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
