/**
 * The value lists of billing, kept free of drizzle so that pure domain schemas (which the
 * browser bundles) can import them.
 */

/** What a line of an invoice is: a policy's premium, an amendment's difference, or a manual correction. */
export const INVOICE_ITEM_KINDS = ['premium', 'adjustment', 'correction'] as const;
export type InvoiceItemKind = (typeof INVOICE_ITEM_KINDS)[number];

/** Where the money of a payment came from (the transaction's `method`, beside its gateway). */
export const RECEIVED_VIA = ['bank_transfer', 'card', 'cheque', 'cash', 'direct_debit', 'other'] as const;
export type ReceivedVia = (typeof RECEIVED_VIA)[number];

/** A bank statement file: CSV (columns matched by the user) or ISO 20022 camt.053 XML. */
export const BANK_STATEMENT_FORMATS = ['csv', 'camt053'] as const;
export const BANK_STATEMENT_STATUSES = ['mapping', 'matching', 'review', 'confirmed', 'failed'] as const;
/** A credit of a statement: matched automatically, allocated by hand, ignored, or recorded (confirmed). */
export const BANK_LINE_STATUSES = ['unmatched', 'matched', 'allocated', 'ignored', 'recorded'] as const;
export const BANK_ALLOCATION_SOURCES = ['reference', 'invoice_number', 'amount', 'manual'] as const;

/** How an overdue reminder was sent: by the daily task (one per step) or on demand. */
export const REMINDER_KINDS = ['scheduled', 'manual'] as const;
