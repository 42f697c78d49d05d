/**
 * Cancellation by spreadsheet (spec 001 s.2 "Cancel-insureds import wizard", s.8 'Cancel import
 * requires a policy id column that cannot be ignored'): the columns a cancellation sheet may have and
 * the inputs of the wizard's steps. Pure: the pages and the API use the same schemas.
 */
import { z } from 'zod';
import { type IMPORT_STATUSES } from '../../../drizzle/schema/ordering-enums';
import { MAX_COLUMNS } from '../imports/schema';
import { checkbox, msg } from '../validation';
import { pageParam } from '../list-query';
import { CANCEL_TARGETS, MAX_CANCEL_ROWS, CANCEL_PERMISSION } from './values';
export { CANCEL_TARGETS, MAX_CANCEL_ROWS, CANCEL_PERMISSION };

export type CancellationStatus = (typeof IMPORT_STATUSES)[number];

export type CancelTarget = (typeof CANCEL_TARGETS)[number];

/** The template's columns, in order. */
export const CANCEL_TEMPLATE_COLUMNS = CANCEL_TARGETS;

/** Rows per page of the review grid. */
export const CANCEL_REVIEW_PAGE_SIZE = 50;
/** Rows kept at upload for the match page. */
export const CANCEL_SAMPLE_ROWS = 5;

export function isCancelTarget(v: unknown): v is CancelTarget {
  return typeof v === 'string' && (CANCEL_TARGETS as readonly string[]).includes(v);
}

/** Column index (as text) to target, or null for an ignored column. */
export type CancelMapping = Record<string, CancelTarget | null>;

export function asCancelMapping(
  stored: Record<string, string | null> | null | undefined,
): CancelMapping | null {
  if (!stored) return null;
  const out: CancelMapping = {};
  for (const [column, t] of Object.entries(stored)) out[column] = isCancelTarget(t) ? t : null;
  return out;
}

const target = z.preprocess(
  (v) => (v === '' || v === 'ignore' || v == null ? null : v),
  z.enum(CANCEL_TARGETS).nullable(),
);

/** The columns the user matched: `columns[i]` is the target of column i ('' or 'ignore' to ignore it). */
export const cancelMappingSchema = z.object({
  columns: z.array(target).max(MAX_COLUMNS),
});
export type CancelMappingInput = z.infer<typeof cancelMappingSchema>;

/** The review grid's query. */
export const cancelReviewQuerySchema = z.object({
  page: pageParam,
  errors_only: checkbox.default(false),
});
export type CancelReviewQuery = z.infer<typeof cancelReviewQuerySchema>;

/** Rows to delete from the review: the chosen ones, or every row with errors. */
export const deleteCancelRowsSchema = z.object({
  rows: z.array(z.coerce.number().int().min(1)).max(MAX_CANCEL_ROWS).default([]),
  errored: checkbox.default(false),
});
export type DeleteCancelRowsInput = z.infer<typeof deleteCancelRowsSchema>;

/** Proceeding to the cancellation: one reason for every policy of the sheet (as policies/cancel takes). */
export const proceedCancelSchema = z.object({
  reason: z
    .string({ required_error: msg('validation.required') })
    .trim()
    .min(3, msg('cancellations.errors.reason_short'))
    .max(255, msg('validation.max', { length: 255 })),
});
export type ProceedCancelInput = z.infer<typeof proceedCancelSchema>;

// ---------------------------------------------------------------- cancellation pages' forms

/** The cancellation spreadsheet upload (the file is checked by the service). */
export const cancelUploadFormSchema = z.object({ file: z.unknown() });

/** A cancellation import, by its public id. */
export const cancelImportIdSchema = z.object({ import: z.string().max(40) });

/** The column mapping of a cancellation import. */
export const cancelMappingFormSchema = cancelMappingSchema.merge(cancelImportIdSchema);

/** Removing rows of a cancellation import's review. */
export const deleteCancelRowsFormSchema = deleteCancelRowsSchema.merge(cancelImportIdSchema);

/** Proceeding with a cancellation import's review. */
export const proceedCancelFormSchema = proceedCancelSchema.merge(cancelImportIdSchema);
