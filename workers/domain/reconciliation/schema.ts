/**
 * Bank reconciliation (issue 10): what a column of a bank statement CSV can hold, the inputs of the
 * review page and the API, and the limits. Pure: the pages and the API use the same schemas.
 */
import { z } from 'zod';
import { DATE_ORDERS } from '../../../drizzle/enums';
import {
  BANK_ALLOCATION_SOURCES,
  BANK_LINE_STATUSES,
  BANK_STATEMENT_FORMATS,
  BANK_STATEMENT_STATUSES,
} from '../../../drizzle/schema/billing-enums';
import { msg } from '../messages';

export {
  BANK_ALLOCATION_SOURCES,
  BANK_LINE_STATUSES,
  BANK_STATEMENT_FORMATS,
  BANK_STATEMENT_STATUSES,
  DATE_ORDERS,
};
export type StatementStatus = (typeof BANK_STATEMENT_STATUSES)[number];
export type LineStatus = (typeof BANK_LINE_STATUSES)[number];
export type AllocationSource = (typeof BANK_ALLOCATION_SOURCES)[number];
export type DateOrder = (typeof DATE_ORDERS)[number];

/** Who may read statements and who may upload, allocate and confirm them (docs/decisions.md). */
export const READ_PERMISSION = 'read_billing';
export const RECONCILE_PERMISSION = 'update_billing';

/** Spec 000 s.5 default upload limit. */
export const MAX_STATEMENT_MB = 10;
/** Credits read from one statement. */
export const MAX_LINES = 20_000;
/** Rows kept at upload for the column matching page. */
export const SAMPLE_ROWS = 5;
/** Review page rows per page. */
export const LINES_PAGE_SIZE = 50;

/**
 * What a CSV column can hold: the booking date, the amount (signed: credits are positive) or separate
 * credit and debit columns, the currency, the remittance text, the payer's reference, the payer's name,
 * and the bank's own reference of the entry.
 */
export const CSV_TARGETS = [
  'booking_date',
  'amount',
  'credit',
  'debit',
  'currency',
  'text',
  'reference',
  'counterparty',
  'bank_reference',
] as const;
export type CsvTarget = (typeof CSV_TARGETS)[number];

export function isCsvTarget(v: unknown): v is CsvTarget {
  return typeof v === 'string' && (CSV_TARGETS as readonly string[]).includes(v);
}

/** Column index (as text) to what it holds, or null for a column not read. */
export type CsvMapping = Record<string, CsvTarget | null>;

const target = z.preprocess(
  (v) => (v === '' || v === undefined ? null : v),
  z
    .enum(CSV_TARGETS, { errorMap: () => ({ message: msg('reconciliation.errors.unknown_target') }) })
    .nullable(),
);
const currencyCode = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{3}$/, msg('reconciliation.errors.currency_code'));

/** The column matching of a CSV statement: `columns[i]`, the day/month order, and a currency for the file. */
export const statementMappingSchema = z.object({
  columns: z.array(target).max(100),
  date_order: z.enum(DATE_ORDERS),
  currency: z.preprocess((v) => (v === '' ? undefined : v), currencyCode.optional()),
});
export type StatementMappingInput = z.infer<typeof statementMappingSchema>;

const amountMinor = z.coerce
  .number({ invalid_type_error: msg('reconciliation.errors.amount') })
  .int(msg('reconciliation.errors.amount'))
  .positive(msg('reconciliation.errors.amount'))
  .max(1_000_000_000_00, msg('reconciliation.errors.amount'));

/** A part of a credit paid to an invoice by hand: the invoice (number or id) and the amount in minor units. */
export const allocationSchema = z.object({
  invoice: z.string().trim().min(1, msg('validation.required')).max(64),
  amount_minor: amountMinor,
});
export type AllocationInput = z.infer<typeof allocationSchema>;

/** Ignore a credit (not money for an invoice), or take it back into the review. */
export const ignoreSchema = z.object({ ignored: z.boolean() });

export const statementListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  status: z.enum(BANK_STATEMENT_STATUSES).optional(),
});
export type StatementListQuery = z.infer<typeof statementListQuerySchema>;

export const linesQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  status: z.enum(BANK_LINE_STATUSES).optional(),
});
export type LinesQuery = z.infer<typeof linesQuerySchema>;
