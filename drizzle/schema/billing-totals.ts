/**
 * The billing summary's running totals (docs/decisions/billing.md "Billing summary, statements of account and receivables").
 * Kept by triggers on `invoices` and `transactions` (hand-written at the end of migration
 * 0010_billing_totals.sql), so no write path can forget them:
 *
 * - `billing_balances`: per company, client, currency and due date, what the invoices still owe
 *   (positive balances) and the unapplied credit (credit notes on the account, overpayments). The aging
 *   buckets move every day, so they are summed from these rows on read (hundreds of rows, not tens of
 *   thousands of invoices). A row whose both sums come to 0 is removed.
 * - `billing_months`: per company, currency and month, the invoiced total (invoices and supplementary
 *   invoices by invoice date, not void) and the collected total (succeeded payments less refunds by the
 *   day the money moved).
 *
 * Only company-wide scopes read them (workers/domain/access/scope.ts `billingTotalsScope`); a school
 * user's summary is summed from its invoices.
 */
import { integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';

export const billingBalances = sqliteTable(
  'billing_balances',
  {
    company_id: integer('company_id').notNull(),
    client_id: integer('client_id').notNull(),
    currency: text('currency').notNull(),
    /** YYYY-MM-DD */
    due_at: text('due_at').notNull(),
    owed_minor: integer('owed_minor').notNull().default(0),
    credit_minor: integer('credit_minor').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.company_id, t.client_id, t.currency, t.due_at] })],
);

export const billingMonths = sqliteTable(
  'billing_months',
  {
    company_id: integer('company_id').notNull(),
    currency: text('currency').notNull(),
    /** YYYY-MM */
    month: text('month').notNull(),
    invoiced_minor: integer('invoiced_minor').notNull().default(0),
    collected_minor: integer('collected_minor').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.company_id, t.currency, t.month] })],
);
