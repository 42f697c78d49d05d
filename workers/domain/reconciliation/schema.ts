/**
 * Bank reconciliation: what a column of a bank statement CSV can hold, the inputs of the
 * review page and the API, and the limits. Pure: the pages and the API use the same schemas.
 */
import { z } from 'zod';
import { listQuerySchema, pageParam } from '../list-query';
import { msg } from '../messages';
import { requiredAmount } from '../validation';
import { statementPeriodShape, withPeriodRule } from '../billing/schema';
import {
  BANK_LINE_STATUSES,
  BANK_STATEMENT_FORMATS,
  BANK_STATEMENT_STATUSES,
  CSV_TARGETS,
  DATE_ORDERS,
} from './values';

export * from './values';

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

const blank = (v: unknown) => (v === '' || v === null ? undefined : v);

/**
 * The statements list (page and `GET bank-statements`): paging, a search over the file name, the account
 * and the credits' text, reference and payer, the status, the format and the days uploaded (from/to).
 */
export const statementListQuerySchema = withPeriodRule(
  listQuerySchema.extend({
    status: z.preprocess(blank, z.enum(BANK_STATEMENT_STATUSES).optional()),
    format: z.preprocess(blank, z.enum(BANK_STATEMENT_FORMATS).optional()),
    ...statementPeriodShape,
  }),
);
export type StatementListQuery = z.infer<typeof statementListQuerySchema>;

export const linesQuerySchema = z.object({
  page: pageParam,
  status: z.enum(BANK_LINE_STATUSES).optional(),
});
export type LinesQuery = z.infer<typeof linesQuerySchema>;

/** The upload form of the page: the file, read by the service. */
export const statementUploadFormSchema = z.object({ file: z.unknown() });

const lineNo = z.coerce.number().int().min(1).max(1_000_000_000);

/** The review page's forms: allocate (an amount in major units), remove, ignore or take back, confirm. */
export const reviewIntentSchemas = {
  allocate: z.object({
    line: lineNo,
    invoice: z.string().trim().min(1, 'validation.required').max(64),
    amount: requiredAmount(
      z.coerce
        .number({ invalid_type_error: 'reconciliation.errors.amount' })
        .positive('reconciliation.errors.amount')
        .max(1_000_000_000, 'reconciliation.errors.amount'),
    ),
  }),
  remove: z.object({ allocation: lineNo }),
  ignore: z.object({ line: lineNo, ignored: z.enum(['true', 'false']) }),
  confirm: z.object({}),
};
