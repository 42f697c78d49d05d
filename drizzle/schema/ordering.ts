/**
 * Ordering (spec 001 sections 3-4, 8-9): spreadsheet imports, policy batches and their enrollments (the
 * cart), the policies issued from them, invoices with their items, and payment transactions.
 *
 * The life of an order:
 * - A policy batch belongs to one campus and one contract. It is `draft` while applicants are being added
 *   (one by one, or staged from an import), `open` once put in the cart, `confirmed` at checkout (its
 *   enrollments become policies and an invoice), or `cleared` when the cart clean-up removed it.
 * - An enrollment is one applicant of a batch, with its validation errors (an enrollment with errors
 *   cannot be checked out) and its fee. Imported rows keep their original cells in `source`.
 * - An import is one uploaded file (kept in R2): its headers, the column mapping the user chose, and the
 *   staging job that writes its rows as enrollments of a draft batch.
 * Money is stored in minor units (pence, cents) with the currency beside it.
 */
import { relations, sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { timestamps } from './columns';
import { campuses, clients, companies, countries, jobs, users } from '../schema';
import { contracts, products } from './configuration';
import {
  APPLICANT_TYPES,
  BATCH_SOURCES,
  BATCH_STATUSES,
  DATE_ORDERS,
  GENDERS,
  IMPORT_STATUSES,
  INVOICE_PAYMENT_METHODS,
  INVOICE_STATUSES,
  POLICY_STATUSES,
  TRANSACTION_GATEWAYS,
  TRANSACTION_KINDS,
  TRANSACTION_STATUSES,
} from './ordering-enums';
import { INVOICE_TYPES } from './policy-enums';
import { INVOICE_ITEM_KINDS, RECEIVED_VIA } from './billing-enums';

export * from './ordering-enums';
import type { EnrollmentError } from './ordering-enums';

// ---------------------------------------------------------------- imports

export const imports = sqliteTable(
  'imports',
  {
    id: integer('id').primaryKey(),
    public_id: text('public_id').notNull(),
    company_id: integer('company_id')
      .notNull()
      .references(() => companies.id),
    client_id: integer('client_id')
      .notNull()
      .references(() => clients.id),
    campus_id: integer('campus_id')
      .notNull()
      .references(() => campuses.id),
    contract_id: integer('contract_id')
      .notNull()
      .references(() => contracts.id),
    created_by: integer('created_by')
      .notNull()
      .references(() => users.id),
    status: text('status', { enum: IMPORT_STATUSES }).notNull().default('uploaded'),
    /** The uploaded file in R2, exactly as the user sent it. */
    file_key: text('file_key').notNull(),
    file_name: text('file_name').notNull(),
    file_size: integer('file_size').notNull(),
    file_type: text('file_type', { enum: ['xlsx', 'csv'] }).notNull(),
    /** The header row and the first rows, read at upload for column matching. */
    headers: text('headers', { mode: 'json' }).$type<string[]>().notNull(),
    sample: text('sample', { mode: 'json' }).$type<string[][]>().notNull(),
    row_count: integer('row_count').notNull().default(0),
    /** Column index (as a string) to applicant field, or null when the column is ignored. */
    mapping: text('mapping', { mode: 'json' }).$type<Record<string, string | null> | null>(),
    date_order: text('date_order', { enum: DATE_ORDERS }).notNull().default('dmy'),
    job_id: integer('job_id').references(() => jobs.id),
    batch_id: integer('batch_id'),
    message: text('message'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('imports_public_id_uq').on(t.public_id),
    index('imports_client_idx').on(t.client_id, t.created_at),
    index('imports_created_by_idx').on(t.created_by, t.created_at),
  ],
);

// ---------------------------------------------------------------- policy batches and enrollments

export const policyBatches = sqliteTable(
  'policy_batches',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    public_id: text('public_id').notNull(),
    company_id: integer('company_id')
      .notNull()
      .references(() => companies.id),
    client_id: integer('client_id')
      .notNull()
      .references(() => clients.id),
    campus_id: integer('campus_id')
      .notNull()
      .references(() => campuses.id),
    contract_id: integer('contract_id')
      .notNull()
      .references(() => contracts.id),
    status: text('status', { enum: BATCH_STATUSES }).notNull().default('draft'),
    source: text('source', { enum: BATCH_SOURCES }).notNull().default('single'),
    import_id: integer('import_id').references(() => imports.id),
    contact_source: text('contact_source'),
    conversation_id: text('conversation_id'),
    /** Send the welcome email to each insured when the batch is issued. */
    send_welcome_email: integer('send_welcome_email', { mode: 'boolean' }).notNull().default(false),
    created_by: integer('created_by')
      .notNull()
      .references(() => users.id),
    invoice_id: integer('invoice_id'),
    opened_at: integer('opened_at', { mode: 'timestamp_ms' }),
    confirmed_at: integer('confirmed_at', { mode: 'timestamp_ms' }),
    cleared_at: integer('cleared_at', { mode: 'timestamp_ms' }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('policy_batches_public_id_uq').on(t.public_id),
    index('policy_batches_campus_idx').on(t.campus_id, t.status),
    index('policy_batches_client_idx').on(t.client_id, t.status),
    index('policy_batches_status_idx').on(t.status, t.opened_at),
    index('policy_batches_created_by_idx').on(t.created_by, t.status),
  ],
);

export const enrollments = sqliteTable(
  'enrollments',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    public_id: text('public_id').notNull(),
    batch_id: integer('batch_id')
      .notNull()
      .references(() => policyBatches.id, { onDelete: 'cascade' }),
    /** Order within the batch: the spreadsheet row number for imports, 1, 2, 3... otherwise. */
    position: integer('position').notNull(),
    type: text('type', { enum: APPLICANT_TYPES }).notNull().default('student'),
    first_name: text('first_name'),
    last_name: text('last_name'),
    date_of_birth: text('date_of_birth'),
    gender: text('gender', { enum: GENDERS }),
    email: text('email'),
    personal_email: text('personal_email'),
    phone_country: text('phone_country'),
    phone_number: text('phone_number'),
    passport_number: text('passport_number'),
    residence_country_id: integer('residence_country_id').references(() => countries.id),
    destination_country_id: integer('destination_country_id').references(() => countries.id),
    start_date: text('start_date'),
    end_date: text('end_date'),
    destination_address: text('destination_address'),
    student_number: text('student_number'),
    plan: text('plan'),
    year_of_study: text('year_of_study'),
    group_name: text('group_name'),
    /** The enrollment (same batch) of the group leader of this applicant. */
    group_leader_id: integer('group_leader_id'),
    /** For an immediate family member: the enrollment (same batch) of the student it depends on. */
    dependency_id: integer('dependency_id'),
    errors: text('errors', { mode: 'json' }).$type<EnrollmentError[]>().notNull().default([]),
    error_count: integer('error_count').notNull().default(0),
    fee_minor: integer('fee_minor'),
    tax_minor: integer('tax_minor'),
    stamp_duty_minor: integer('stamp_duty_minor'),
    /** The original cells of an imported row (header to text), so nothing the user sent is lost. */
    source: text('source', { mode: 'json' }).$type<Record<string, string> | null>(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('enrollments_public_id_uq').on(t.public_id),
    index('enrollments_batch_idx').on(t.batch_id, t.position),
    index('enrollments_batch_errors_idx').on(t.batch_id, t.error_count, t.position),
    index('enrollments_dependency_idx').on(t.dependency_id),
    index('enrollments_group_leader_idx').on(t.group_leader_id),
  ],
);

// ---------------------------------------------------------------- invoices and transactions

export const invoices = sqliteTable(
  'invoices',
  {
    id: integer('id').primaryKey(),
    public_id: text('public_id').notNull(),
    number: text('number').notNull(),
    company_id: integer('company_id')
      .notNull()
      .references(() => companies.id),
    client_id: integer('client_id')
      .notNull()
      .references(() => clients.id),
    campus_id: integer('campus_id').references(() => campuses.id),
    status: text('status', { enum: INVOICE_STATUSES }).notNull().default('unpaid'),
    payment_method: text('payment_method', { enum: INVOICE_PAYMENT_METHODS }).notNull(),
    currency: text('currency').notNull(),
    /** Invoice date and due date, YYYY-MM-DD. */
    date: text('date').notNull(),
    due_at: text('due_at').notNull(),
    paid_at: text('paid_at'),
    insurance_cost_minor: integer('insurance_cost_minor').notNull(),
    tax_minor: integer('tax_minor').notNull(),
    admin_fee_minor: integer('admin_fee_minor').notNull().default(0),
    total_minor: integer('total_minor').notNull(),
    paid_minor: integer('paid_minor').notNull().default(0),
    /** invoice (a checkout), supplementary (an amendment that charges) or credit_note (one that credits). */
    type: text('type', { enum: INVOICE_TYPES }).notNull().default('invoice'),
    /** The amendment a supplementary invoice or credit note comes from. */
    amendment_id: integer('amendment_id'),
    /** The reference a bank transfer must quote; unique across the region. */
    payment_reference: text('payment_reference').notNull(),
    order_number: text('order_number'),
    /** The user who checked out: one checkout, one invoice (see `checkout_key`). */
    created_by: integer('created_by').references(() => users.id),
    /** Idempotency key of the checkout that created it: a second click finds this invoice. */
    checkout_key: text('checkout_key'),
    // ---- billing (migration 0009)
    /** Stamp duty (Ireland: per policy whose premium reaches the threshold), its own line; in total_minor. */
    stamp_duty_minor: integer('stamp_duty_minor').notNull().default(0),
    /** Sum of the credit notes issued against this invoice (credit_for_id), and of its refunds. */
    credited_minor: integer('credited_minor').notNull().default(0),
    refunded_minor: integer('refunded_minor').notNull().default(0),
    /** A credit note: the invoice it corrects (null for an amendment's credit note on the account). */
    credit_for_id: integer('credit_for_id'),
    /** Voided before any payment (status `void`): kept with its number, never deleted. */
    voided_at: integer('voided_at', { mode: 'timestamp_ms' }),
    voided_by: integer('voided_by').references(() => users.id),
    void_reason: text('void_reason'),
    /** The billing address as it was at issue (an issued invoice never changes); null when none was set. */
    billing_address: text('billing_address', { mode: 'json' }).$type<Record<string, string | null> | null>(),
    /** Periodic invoices: the period they bill and, under the "by group" rule, the group. */
    period_from: text('period_from'),
    period_to: text('period_to'),
    group_name: text('group_name'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('invoices_public_id_uq').on(t.public_id),
    uniqueIndex('invoices_number_uq').on(t.number),
    uniqueIndex('invoices_payment_reference_uq').on(t.payment_reference),
    uniqueIndex('invoices_checkout_key_uq').on(t.checkout_key),
    index('invoices_client_idx').on(t.client_id, t.date),
    index('invoices_company_idx').on(t.company_id, t.status, t.date),
    index('invoices_campus_idx').on(t.campus_id, t.date),
    index('invoices_company_due_idx').on(t.company_id, t.due_at),
    index('invoices_credit_for_idx').on(t.credit_for_id),
  ],
);

export const invoiceItems = sqliteTable(
  'invoice_items',
  {
    id: integer('id').primaryKey(),
    invoice_id: integer('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    policy_id: integer('policy_id'),
    description: text('description').notNull(),
    quantity: integer('quantity').notNull().default(1),
    unit_minor: integer('unit_minor').notNull(),
    tax_minor: integer('tax_minor').notNull().default(0),
    total_minor: integer('total_minor').notNull(),
    // ---- billing (migration 0009)
    kind: text('kind', { enum: INVOICE_ITEM_KINDS }).notNull().default('premium'),
    /** The tax rate this line used, basis points (2000 = 20 %); null for a flat tax or none. */
    tax_rate_bp: integer('tax_rate_bp'),
    /** Stamp duty of this line (in total_minor). */
    stamp_duty_minor: integer('stamp_duty_minor').notNull().default(0),
    /** A credit note's line: the invoice line it credits (credited at that line's rate). */
    credits_item_id: integer('credits_item_id'),
  },
  (t) => [
    index('invoice_items_invoice_idx').on(t.invoice_id),
    index('invoice_items_policy_idx').on(t.policy_id),
  ],
);

export const transactions = sqliteTable(
  'transactions',
  {
    id: integer('id').primaryKey(),
    public_id: text('public_id').notNull(),
    invoice_id: integer('invoice_id')
      .notNull()
      .references(() => invoices.id),
    kind: text('kind', { enum: TRANSACTION_KINDS }).notNull().default('payment'),
    gateway: text('gateway', { enum: TRANSACTION_GATEWAYS }).notNull(),
    status: text('status', { enum: TRANSACTION_STATUSES }).notNull().default('pending'),
    /** The gateway's id of the payment (ePDQ PAYID) and its own status code (ePDQ STATUS). */
    identifier: text('identifier'),
    gateway_status: text('gateway_status'),
    amount_minor: integer('amount_minor').notNull(),
    currency: text('currency').notNull(),
    /** YYYY-MM-DD the money arrived (bank transfers are approved with a date). */
    paid_on: text('paid_on'),
    extra: text('extra', { mode: 'json' }).$type<Record<string, unknown> | null>(),
    user_id: integer('user_id').references(() => users.id),
    // ---- billing (migration 0009)
    /** How the money came (a recorded payment or refund); the card and bank flows leave it null. */
    method: text('method', { enum: RECEIVED_VIA }),
    note: text('note'),
    /** The receipt (PDF, JPG or PNG) in R2. */
    receipt_key: text('receipt_key'),
    receipt_name: text('receipt_name'),
    receipt_type: text('receipt_type'),
    /** The form's one-time key: the same submission twice (double click, two tabs) is recorded once. */
    idempotency_key: text('idempotency_key'),
    /** The bank statement allocation it was recorded from (reconciliation). */
    allocation_id: integer('allocation_id'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('transactions_public_id_uq').on(t.public_id),
    // A gateway answer (PAYID, STATUS) is recorded once, however often it is delivered.
    uniqueIndex('transactions_gateway_answer_uq').on(t.gateway, t.identifier, t.gateway_status),
    index('transactions_invoice_idx').on(t.invoice_id, t.created_at),
    uniqueIndex('transactions_idempotency_uq').on(t.idempotency_key),
    uniqueIndex('transactions_allocation_uq').on(t.allocation_id),
  ],
);

// ---------------------------------------------------------------- policies

export const policies = sqliteTable(
  'policies',
  {
    id: integer('id').primaryKey(),
    public_id: text('public_id').notNull(),
    policy_number: text('policy_number').notNull(),
    company_id: integer('company_id')
      .notNull()
      .references(() => companies.id),
    client_id: integer('client_id')
      .notNull()
      .references(() => clients.id),
    campus_id: integer('campus_id')
      .notNull()
      .references(() => campuses.id),
    contract_id: integer('contract_id')
      .notNull()
      .references(() => contracts.id),
    product_id: integer('product_id')
      .notNull()
      .references(() => products.id),
    batch_id: integer('batch_id')
      .notNull()
      .references(() => policyBatches.id),
    enrollment_id: integer('enrollment_id'),
    invoice_id: integer('invoice_id').references(() => invoices.id),
    type: text('type', { enum: APPLICANT_TYPES }).notNull(),
    first_name: text('first_name').notNull(),
    last_name: text('last_name').notNull(),
    date_of_birth: text('date_of_birth').notNull(),
    gender: text('gender', { enum: GENDERS }),
    email: text('email'),
    personal_email: text('personal_email'),
    phone_country: text('phone_country'),
    phone_number: text('phone_number'),
    passport_number: text('passport_number'),
    residence_country_id: integer('residence_country_id').references(() => countries.id),
    destination_country_id: integer('destination_country_id').references(() => countries.id),
    start_date: text('start_date').notNull(),
    end_date: text('end_date').notNull(),
    destination_address: text('destination_address'),
    student_number: text('student_number'),
    plan: text('plan'),
    year_of_study: text('year_of_study'),
    group_name: text('group_name'),
    group_leader_id: integer('group_leader_id'),
    dependency_id: integer('dependency_id'),
    /** issued or cancelled; active / not started / expired are derived from the dates when read. */
    status: text('status', { enum: POLICY_STATUSES }).notNull().default('issued'),
    premium_minor: integer('premium_minor').notNull(),
    net_minor: integer('net_minor').notNull(),
    tax_minor: integer('tax_minor').notNull().default(0),
    /** The tax rate of tax_minor in basis points (null: a flat tax or none), and the stamp duty (0009). */
    tax_rate_bp: integer('tax_rate_bp'),
    stamp_duty_minor: integer('stamp_duty_minor').notNull().default(0),
    currency: text('currency').notNull(),
    booking_date: text('booking_date').notNull(),
    issued_at: integer('issued_at', { mode: 'timestamp_ms' }).notNull(),
    welcome_email_sent_at: integer('welcome_email_sent_at', { mode: 'timestamp_ms' }),
    cancelled_at: integer('cancelled_at', { mode: 'timestamp_ms' }),
    cancelled_by: integer('cancelled_by').references(() => users.id),
    cancel_reason: text('cancel_reason'),
    /** Goes up by one with every change; documents and amendment quotes name the version they are for. */
    version: integer('version').notNull().default(1),
    /** When the expiry reminder for this policy's end date went to the client (sent once). */
    expiry_reminder_sent_at: integer('expiry_reminder_sent_at', { mode: 'timestamp_ms' }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('policies_public_id_uq').on(t.public_id),
    uniqueIndex('policies_number_uq').on(t.policy_number),
    index('policies_company_idx').on(t.company_id, t.created_at),
    index('policies_client_idx').on(t.client_id, t.start_date),
    index('policies_campus_idx').on(t.campus_id, t.start_date),
    index('policies_batch_idx').on(t.batch_id),
    index('policies_invoice_idx').on(t.invoice_id),
    // The insureds list (migration 0007): every filter and the default order has an index under the
    // scope's first column, company_id for company users and client_id for school users. Names are
    // matched by prefix with LIKE, which uses an index only when it is NOCASE.
    ...(['company_id', 'client_id'] as const).flatMap((scope) => {
      const s = scope === 'company_id' ? 'company' : 'client';
      const by = t[scope];
      return [
        index(`policies_${s}_issued_idx`).on(by, t.issued_at),
        index(`policies_${s}_last_name_idx`).on(by, sql`${t.last_name} COLLATE NOCASE`),
        index(`policies_${s}_first_name_idx`).on(by, sql`${t.first_name} COLLATE NOCASE`),
        index(`policies_${s}_end_idx`).on(by, t.end_date),
        index(`policies_${s}_booking_idx`).on(by, t.booking_date),
        // Covers the status conditions and the summary by status (counted from the index alone).
        index(`policies_${s}_status_idx`).on(by, t.status, t.start_date, t.end_date),
        index(`policies_${s}_number_idx`).on(by, t.policy_number),
        index(`policies_${s}_campus_idx`).on(by, t.campus_id),
        index(`policies_${s}_product_idx`).on(by, t.product_id),
        index(`policies_${s}_group_idx`).on(by, t.group_name),
        index(`policies_${s}_type_idx`).on(by, t.type),
        index(`policies_${s}_residence_idx`).on(by, t.residence_country_id),
      ];
    }),
    index('policies_company_start_idx').on(t.company_id, t.start_date),
    index('policies_company_client_idx').on(t.company_id, t.client_id),
    index('policies_dependency_idx').on(t.dependency_id),
    index('policies_group_leader_idx').on(t.group_leader_id),
  ],
);

/** Numbered series (policy numbers, invoice numbers): the last number handed out per series. */
export const sequences = sqliteTable('sequences', {
  name: text('name').primaryKey(),
  value: integer('value').notNull().default(0),
});

// ---------------------------------------------------------------- relations

export const policyBatchesRelations = relations(policyBatches, ({ one, many }) => ({
  campus: one(campuses, { fields: [policyBatches.campus_id], references: [campuses.id] }),
  contract: one(contracts, { fields: [policyBatches.contract_id], references: [contracts.id] }),
  enrollments: many(enrollments),
}));

export const enrollmentsRelations = relations(enrollments, ({ one }) => ({
  batch: one(policyBatches, { fields: [enrollments.batch_id], references: [policyBatches.id] }),
}));

export const invoicesRelations = relations(invoices, ({ many }) => ({
  items: many(invoiceItems),
  transactions: many(transactions),
}));

export const invoiceItemsRelations = relations(invoiceItems, ({ one }) => ({
  invoice: one(invoices, { fields: [invoiceItems.invoice_id], references: [invoices.id] }),
}));

export const transactionsRelations = relations(transactions, ({ one }) => ({
  invoice: one(invoices, { fields: [transactions.invoice_id], references: [invoices.id] }),
}));
