/**
 * After the sale (spec 001 s.3-4, 8; 002 s.7 "Insureds and policies"): amendments of issued policies
 * (extend, edit trip dates, cancel) quoted first and confirmed once, the append-only transactions of
 * every change to a policy, the policy documents kept in R2, and cancellation by spreadsheet.
 *
 * - An amendment is one request over many policies: its lines say, per policy, the dates before and after
 *   and the premium and tax difference; its totals are what confirming will charge (one supplementary
 *   invoice per client and currency) or credit (one credit note). Each line remembers the policy's
 *   `version` it was priced on: confirming checks every version is unchanged, so two people amending the
 *   same insureds cannot both succeed (the second quote is `stale`).
 * - `policies.version` goes up by one with every change to a policy; a document is made for a version.
 * - A policy transaction is written with every change (issue included), never updated or deleted.
 */
import { index, integer, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { timestamps } from './columns';
import { companies, jobs, users } from '../schema';
import { IMPORT_STATUSES, invoices, policies } from './ordering';
import {
  AMENDMENT_KINDS,
  AMENDMENT_STATUSES,
  POLICY_DOCUMENT_KINDS,
  POLICY_TRANSACTION_KINDS,
} from './policy-enums';

export * from './policy-enums';

// ---------------------------------------------------------------- amendments (quote, then confirm)

export const policyAmendments = sqliteTable(
  'policy_amendments',
  {
    id: integer('id').primaryKey(),
    public_id: text('public_id').notNull(),
    company_id: integer('company_id')
      .notNull()
      .references(() => companies.id),
    kind: text('kind', { enum: AMENDMENT_KINDS }).notNull(),
    status: text('status', { enum: AMENDMENT_STATUSES }).notNull().default('draft'),
    /** The new trip dates asked for (extend: the end date only), YYYY-MM-DD. */
    new_start_date: text('new_start_date'),
    new_end_date: text('new_end_date'),
    /** Cancellation reason. */
    reason: text('reason'),
    /** Totals of the quote, minor units (charge: what a supplementary invoice bills; credit: a credit note). */
    policy_count: integer('policy_count').notNull().default(0),
    error_count: integer('error_count').notNull().default(0),
    charge_minor: integer('charge_minor').notNull().default(0),
    charge_tax_minor: integer('charge_tax_minor').notNull().default(0),
    credit_minor: integer('credit_minor').notNull().default(0),
    credit_tax_minor: integer('credit_tax_minor').notNull().default(0),
    currency: text('currency'),
    /** A large quote or confirmation runs as a job (progress bar). */
    job_id: integer('job_id').references(() => jobs.id),
    created_by: integer('created_by')
      .notNull()
      .references(() => users.id),
    quoted_at: integer('quoted_at', { mode: 'timestamp_ms' }),
    confirmed_at: integer('confirmed_at', { mode: 'timestamp_ms' }),
    confirmed_by: integer('confirmed_by').references(() => users.id),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('policy_amendments_public_id_uq').on(t.public_id),
    index('policy_amendments_created_by_idx').on(t.created_by, t.created_at),
  ],
);

export const policyAmendmentLines = sqliteTable(
  'policy_amendment_lines',
  {
    id: integer('id').primaryKey(),
    amendment_id: integer('amendment_id')
      .notNull()
      .references(() => policyAmendments.id, { onDelete: 'cascade' }),
    policy_id: integer('policy_id')
      .notNull()
      .references(() => policies.id),
    /** The policy's version the line was priced on. */
    policy_version: integer('policy_version').notNull(),
    /** A dependant (or other insured) included because of another line: that line's policy id. */
    because_of_policy_id: integer('because_of_policy_id'),
    old_start_date: text('old_start_date').notNull(),
    old_end_date: text('old_end_date').notNull(),
    new_start_date: text('new_start_date'),
    new_end_date: text('new_end_date'),
    old_premium_minor: integer('old_premium_minor').notNull(),
    new_premium_minor: integer('new_premium_minor'),
    /** Positive: charged; negative: credited. Tax at the rate of the original premium (`tax_rate`). */
    premium_diff_minor: integer('premium_diff_minor').notNull().default(0),
    tax_diff_minor: integer('tax_diff_minor').notNull().default(0),
    tax_rate: real('tax_rate'),
    currency: text('currency').notNull(),
    /** Why this line cannot be applied (message keys with params); a quote with errors cannot be confirmed. */
    errors: text('errors', { mode: 'json' })
      .$type<{ message: string; params?: Record<string, string | number> }[]>()
      .notNull()
      .default([]),
    error_count: integer('error_count').notNull().default(0),
  },
  (t) => [
    uniqueIndex('policy_amendment_lines_uq').on(t.amendment_id, t.policy_id),
    index('policy_amendment_lines_policy_idx').on(t.policy_id),
  ],
);

// ---------------------------------------------------------------- policy transactions (append-only)

export const policyTransactions = sqliteTable(
  'policy_transactions',
  {
    id: integer('id').primaryKey(),
    public_id: text('public_id').notNull(),
    policy_id: integer('policy_id')
      .notNull()
      .references(() => policies.id),
    company_id: integer('company_id').notNull(),
    client_id: integer('client_id').notNull(),
    kind: text('kind', { enum: POLICY_TRANSACTION_KINDS }).notNull(),
    /** The day the change takes effect, YYYY-MM-DD. */
    effective_date: text('effective_date').notNull(),
    /** The changed fields before and after. */
    before: text('before', { mode: 'json' }).$type<Record<string, unknown> | null>(),
    after: text('after', { mode: 'json' }).$type<Record<string, unknown> | null>(),
    premium_diff_minor: integer('premium_diff_minor').notNull().default(0),
    tax_diff_minor: integer('tax_diff_minor').notNull().default(0),
    tax_rate: real('tax_rate'),
    currency: text('currency').notNull(),
    /** The policy's version after this change (the documents made for it carry the same number). */
    document_version: integer('document_version').notNull(),
    /** The invoice, supplementary invoice or credit note of the change, if it moved money. */
    invoice_id: integer('invoice_id').references(() => invoices.id),
    amendment_id: integer('amendment_id').references(() => policyAmendments.id),
    user_id: integer('user_id').references(() => users.id),
    created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [
    uniqueIndex('policy_transactions_public_id_uq').on(t.public_id),
    index('policy_transactions_policy_idx').on(t.policy_id, t.created_at),
    index('policy_transactions_amendment_idx').on(t.amendment_id),
    index('policy_transactions_invoice_idx').on(t.invoice_id),
  ],
);

// ---------------------------------------------------------------- policy documents (PDF in R2)

export const policyDocuments = sqliteTable(
  'policy_documents',
  {
    id: integer('id').primaryKey(),
    policy_id: integer('policy_id')
      .notNull()
      .references(() => policies.id),
    kind: text('kind', { enum: POLICY_DOCUMENT_KINDS }).notNull(),
    version: integer('version').notNull(),
    file_key: text('file_key').notNull(),
    size: integer('size').notNull(),
    created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [uniqueIndex('policy_documents_uq').on(t.policy_id, t.kind, t.version)],
);

// ---------------------------------------------------------------- cancellation by spreadsheet

export const cancellationImports = sqliteTable(
  'cancellation_imports',
  {
    id: integer('id').primaryKey(),
    public_id: text('public_id').notNull(),
    company_id: integer('company_id')
      .notNull()
      .references(() => companies.id),
    /** Set for a client user's upload: only that client's policies can be matched. */
    client_id: integer('client_id'),
    created_by: integer('created_by')
      .notNull()
      .references(() => users.id),
    status: text('status', { enum: IMPORT_STATUSES }).notNull().default('uploaded'),
    file_key: text('file_key').notNull(),
    file_name: text('file_name').notNull(),
    file_size: integer('file_size').notNull(),
    file_type: text('file_type', { enum: ['xlsx', 'csv'] }).notNull(),
    headers: text('headers', { mode: 'json' }).$type<string[]>().notNull(),
    sample: text('sample', { mode: 'json' }).$type<string[][]>().notNull(),
    row_count: integer('row_count').notNull().default(0),
    /** Column index (as a string) to field (`policy_id`, `reason`, ...), or null when ignored. */
    mapping: text('mapping', { mode: 'json' }).$type<Record<string, string | null> | null>(),
    reason: text('reason'),
    job_id: integer('job_id').references(() => jobs.id),
    /** The cancel amendment made when the user proceeds. */
    amendment_id: integer('amendment_id').references(() => policyAmendments.id),
    message: text('message'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('cancellation_imports_public_id_uq').on(t.public_id),
    index('cancellation_imports_created_by_idx').on(t.created_by, t.created_at),
  ],
);

export const cancellationRows = sqliteTable(
  'cancellation_rows',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    import_id: integer('import_id')
      .notNull()
      .references(() => cancellationImports.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    policy_number: text('policy_number'),
    reason: text('reason'),
    policy_id: integer('policy_id'),
    errors: text('errors', { mode: 'json' })
      .$type<{ field: string; message: string; params?: Record<string, string | number> }[]>()
      .notNull()
      .default([]),
    error_count: integer('error_count').notNull().default(0),
    /** The original cells (header to text), so nothing the user sent is lost. */
    source: text('source', { mode: 'json' }).$type<Record<string, string> | null>(),
  },
  (t) => [index('cancellation_rows_import_idx').on(t.import_id, t.error_count, t.position)],
);

// ---------------------------------------------------------------- the insureds list's counts, cached

/**
 * Per company, a number that goes up with every policy inserted, deleted or changed in a way the list's
 * counts see (status, dates, group name, owner). Kept by the triggers of migration 0008, so no write path
 * can forget it.
 */
export const policyRevisions = sqliteTable('policy_revisions', {
  company_id: integer('company_id').primaryKey(),
  revision: integer('revision').notNull().default(0),
});

/**
 * The insureds list's summary by status and its group names, per tenant scope (`policyScopeKey`), valid for
 * one day (the statuses follow today's date) and one set of revisions of the scope's companies.
 */
export const policyOverviewCache = sqliteTable('policy_overview_cache', {
  scope_key: text('scope_key').primaryKey(),
  day: text('day').notNull(),
  revision: text('revision').notNull(),
  summary: text('summary', { mode: 'json' }).notNull(),
  group_names: text('group_names', { mode: 'json' }).notNull(),
  computed_at: integer('computed_at', { mode: 'timestamp_ms' }).notNull(),
});
