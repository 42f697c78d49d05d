/**
 * Billing (spec 001 s.3-5; 002 s.7 "Invoices and payments"): bank statements and their credits
 * with the invoices each credit is allocated to, and the overdue reminders sent for an invoice. The
 * invoices, their items and transactions are in ./ordering.ts; migration 0009 added their billing columns
 * (void, credits and refunds, tax rates per line, stamp duty, billing address at issue, periods, receipts,
 * idempotency keys).
 *
 * - A bank statement is one uploaded file (R2). Uploading a file already uploaded (same SHA-256 for the
 *   company) finds the first one; a credit already recorded from another statement (same `line_key`:
 *   the bank's entry reference, else date + amount + text) is not recorded again.
 * - Confirming a statement records one bank-transfer payment per allocation (transactions.allocation_id),
 *   all in one batch, once.
 */
import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { timestamps } from './columns';
import { companies, jobs, users, outbox } from '../schema';
import { invoices, transactions } from './ordering';
import {
  BANK_ALLOCATION_SOURCES,
  BANK_LINE_STATUSES,
  BANK_STATEMENT_FORMATS,
  BANK_STATEMENT_STATUSES,
  REMINDER_KINDS,
} from './billing-enums';

export * from './billing-enums';

export const bankStatements = sqliteTable(
  'bank_statements',
  {
    id: integer('id').primaryKey(),
    public_id: text('public_id').notNull(),
    company_id: integer('company_id')
      .notNull()
      .references(() => companies.id),
    format: text('format', { enum: BANK_STATEMENT_FORMATS }).notNull(),
    status: text('status', { enum: BANK_STATEMENT_STATUSES }).notNull().default('mapping'),
    /** The uploaded file in R2, exactly as sent, and its SHA-256 (hex): the same file twice is one statement. */
    file_key: text('file_key').notNull(),
    file_name: text('file_name').notNull(),
    file_size: integer('file_size').notNull(),
    file_sha256: text('file_sha256').notNull(),
    /** CSV: the header row, the first rows and the column mapping the user chose. */
    headers: text('headers', { mode: 'json' }).$type<string[] | null>(),
    sample: text('sample', { mode: 'json' }).$type<string[][] | null>(),
    mapping: text('mapping', { mode: 'json' }).$type<Record<string, string | null> | null>(),
    /** The account's currency and IBAN as the statement gives them (camt.053), else null. */
    currency: text('currency'),
    account: text('account'),
    line_count: integer('line_count').notNull().default(0),
    matched_count: integer('matched_count').notNull().default(0),
    recorded_count: integer('recorded_count').notNull().default(0),
    job_id: integer('job_id').references(() => jobs.id),
    message: text('message'),
    created_by: integer('created_by')
      .notNull()
      .references(() => users.id),
    confirmed_at: integer('confirmed_at', { mode: 'timestamp_ms' }),
    confirmed_by: integer('confirmed_by').references(() => users.id),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('bank_statements_public_id_uq').on(t.public_id),
    uniqueIndex('bank_statements_file_uq').on(t.company_id, t.file_sha256),
    index('bank_statements_company_idx').on(t.company_id, t.created_at),
  ],
);

/** One credit (money in) of a statement; debits are not read. */
export const bankStatementLines = sqliteTable(
  'bank_statement_lines',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    statement_id: integer('statement_id')
      .notNull()
      .references(() => bankStatements.id, { onDelete: 'cascade' }),
    company_id: integer('company_id')
      .notNull()
      .references(() => companies.id),
    line_no: integer('line_no').notNull(),
    booking_date: text('booking_date').notNull(),
    amount_minor: integer('amount_minor').notNull(),
    currency: text('currency').notNull(),
    /** Remittance text, the payer's reference and name as the bank gives them. */
    text: text('text').notNull().default(''),
    reference: text('reference'),
    counterparty: text('counterparty'),
    /** The bank's entry reference when given, else date|amount|currency|text: a credit is recorded once. */
    line_key: text('line_key').notNull(),
    status: text('status', { enum: BANK_LINE_STATUSES }).notNull().default('unmatched'),
    /** Why it could not be matched (a message key), for the review page. */
    problem: text('problem'),
    ...timestamps,
  },
  (t) => [
    index('bank_statement_lines_statement_idx').on(t.statement_id, t.line_no),
    index('bank_statement_lines_key_idx').on(t.company_id, t.line_key),
  ],
);

/** Part (or all) of a credit paying one invoice. One credit may pay several invoices. */
export const bankAllocations = sqliteTable(
  'bank_allocations',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    line_id: integer('line_id')
      .notNull()
      .references(() => bankStatementLines.id, { onDelete: 'cascade' }),
    invoice_id: integer('invoice_id')
      .notNull()
      .references(() => invoices.id),
    amount_minor: integer('amount_minor').notNull(),
    source: text('source', { enum: BANK_ALLOCATION_SOURCES }).notNull(),
    /** The payment recorded from it at confirmation. */
    transaction_id: integer('transaction_id').references(() => transactions.id),
    created_by: integer('created_by').references(() => users.id),
    ...timestamps,
  },
  (t) => [
    index('bank_allocations_line_idx').on(t.line_id),
    index('bank_allocations_invoice_idx').on(t.invoice_id),
  ],
);

/** An overdue reminder sent for an invoice: scheduled ones once per step (days after the due date). */
export const invoiceReminders = sqliteTable(
  'invoice_reminders',
  {
    id: integer('id').primaryKey(),
    invoice_id: integer('invoice_id')
      .notNull()
      .references(() => invoices.id),
    kind: text('kind', { enum: REMINDER_KINDS }).notNull(),
    /** Scheduled: the step's days after the due date (1, 7, 14...); manual: 0. */
    step_days: integer('step_days').notNull().default(0),
    recipient: text('recipient').notNull(),
    outbox_id: integer('outbox_id').references(() => outbox.id),
    sent_by: integer('sent_by').references(() => users.id),
    ...timestamps,
  },
  (t) => [
    index('invoice_reminders_invoice_idx').on(t.invoice_id, t.created_at),
    // A scheduled step is sent once per invoice, however often the task runs.
    uniqueIndex('invoice_reminders_step_uq')
      .on(t.invoice_id, t.step_days)
      .where(sql`kind = 'scheduled'`),
  ],
);
