/**
 * Bank reconciliation's plain values: who may, the limits, and what a CSV column can hold.
 * Free of zod, so the pages read them without loading the schema library (schema.ts re-exports them).
 */
import { DATE_ORDERS } from '../../../drizzle/enums';
import {
  BANK_ALLOCATION_SOURCES,
  BANK_LINE_STATUSES,
  BANK_STATEMENT_FORMATS,
  BANK_STATEMENT_STATUSES,
} from '../../../drizzle/schema/billing-enums';

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

/** Who may read statements and who may upload, allocate and confirm them (docs/decisions/billing.md). */
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
