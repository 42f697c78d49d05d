/**
 * Inputs of the billing summary and the statements of account. Pure (zod only), so pages and
 * the API read the same schema.
 */
import { z } from 'zod';
import { isoDate, msg } from '../validation';

const optionalDay = z.preprocess((v) => (v === '' ? undefined : v), isoDate.optional());

/** The fields of a statement's period: from and to (YYYY-MM-DD), both optional. */
export const statementPeriodShape = { from: optionalDay, to: optionalDay };

/** Refuses a period that ends before it starts (the message lands on `to`). */
export function withPeriodRule<O extends { from?: string; to?: string }, I>(
  schema: z.ZodType<O, z.ZodTypeDef, I>,
) {
  return schema.refine((q) => !q.from || !q.to || q.from <= q.to, {
    message: msg('billing.errors.period'),
    path: ['to'],
  });
}

/** A statement's period; the default is this year up to today. */
export const statementQuerySchema = withPeriodRule(z.object(statementPeriodShape));
export type StatementQuery = z.infer<typeof statementQuerySchema>;

/** The period a statement covers on `today` when the query leaves a bound out. */
export function statementPeriod(q: StatementQuery, today: string): { from: string; to: string } {
  const to = q.to ?? today;
  const from = q.from ?? `${(q.to ?? today).slice(0, 4)}-01-01`;
  return { from: from <= to ? from : to, to };
}

/** The kinds of a statement's lines, in the order they are listed on one day. */
export const STATEMENT_ENTRY_KINDS = ['invoice', 'credit_note', 'payment', 'refund'] as const;
export type StatementEntryKind = (typeof STATEMENT_ENTRY_KINDS)[number];
