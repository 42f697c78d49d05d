/**
 * Spreadsheet imports (ARCHITECTURE.md "Spreadsheet import"): the limits of an uploaded file, the fields
 * a column can be matched to, and the inputs of the import steps. Pure: the match-columns page and the
 * API use the same schemas.
 */
import { z } from 'zod';
import { DATE_ORDERS, IMPORT_STATUSES } from '../../../drizzle/enums';
import { MAX_APPLICANTS } from '../enrollments/schema';
import { checkbox, msg } from '../validation';
import { pageParam } from '../list-query';
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
  page: pageParam,
  errors_only: checkbox.default(false),
});
export type ReviewQuery = z.infer<typeof reviewQuerySchema>;

/** The spreadsheet upload form: the campus and contract it is for, and the file (checked by the service). */
export const importUploadFormSchema = z.object({
  campus: z.string().max(40).optional(),
  contract: z.string().max(40).optional(),
  file: z.unknown(),
});

// ---------------------------------------------------------------- the import steps' forms

/** An import, by its public id (the steps' hidden `import` field). */
export const importIdSchema = z.object({ import: z.string().max(40) });

/** The column mapping of an import, as its match-columns page posts it. */
export const mappingFormSchema = mappingSchema.merge(importIdSchema);

/**
 * The import or batch a step after staging works on (`import` or `batch`, as its address names it);
 * the service reads it in the actor's scope.
 */
export const importBatchRefSchema = z.object({
  import: z.string().max(40).optional(),
  batch: z.string().max(40).optional(),
});

/**
 * A row of the review grid saved in place: its id; the applicant fields are read as posted (an emptied
 * cell is a change, and the row is stored as typed and checked again, errors and all).
 */
export const reviewRowSchema = importBatchRefSchema.extend({ enrollment_id: z.string().min(1).max(40) });

/** Rows of the review grid to delete (`ids`; an empty selection is refused by the page's message). */
export const reviewDeleteSchema = importBatchRefSchema.extend({
  ids: z.array(z.string().max(40)).max(MAX_APPLICANTS).default([]),
});

/**
 * The family members of an imported order, each with the student it travels with (`links[i]`; an empty
 * choice leaves it unlinked, which the step then names).
 */
export const linkDependentsFormSchema = importBatchRefSchema.extend({
  links: z
    .array(
      z.object({
        enrollment_id: z.string().min(1).max(40),
        student_id: z
          .string()
          .max(40)
          .optional()
          .transform((v) => v || null),
      }),
    )
    .max(MAX_APPLICANTS)
    .default([]),
});
