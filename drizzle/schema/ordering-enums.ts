/**
 * The value lists of the ordering tables, kept free of drizzle so that pure domain schemas (which the
 * browser bundles) can import them.
 */
export const APPLICANT_TYPES = ['student', 'immediate_family', 'group_leader'] as const;
export const GENDERS = [
  'male',
  'female',
  'other',
  'undefined',
  'transgender',
  'non_binary',
  'prefer_not_to_respond',
] as const;
export const BATCH_STATUSES = ['draft', 'open', 'confirmed', 'cleared'] as const;
export const BATCH_SOURCES = ['single', 'import'] as const;
export const IMPORT_STATUSES = ['uploaded', 'staging', 'review', 'done', 'failed'] as const;
export const DATE_ORDERS = ['dmy', 'mdy', 'ymd'] as const;
export const POLICY_STATUSES = ['issued', 'cancelled'] as const;
/** The payment state kept on an invoice (recomputed by invoices/settle.ts); open, due and overdue are
 * derived from the due date when read (invoices/status.ts). */
/** An invoice's payment status; a credit note is `issued` (it is not paid: it reduces what an invoice owes). */
export const INVOICE_STATUSES = ['unpaid', 'pending', 'paid', 'refunded', 'void', 'issued'] as const;
export const INVOICE_PAYMENT_METHODS = [
  'credit_card',
  'bank_transfer',
  'invoiced_directly',
  'pay_later',
] as const;
export const TRANSACTION_KINDS = ['payment', 'refund'] as const;
export const TRANSACTION_GATEWAYS = ['barclaycard', 'bank_transfer', 'manual'] as const;
export const TRANSACTION_STATUSES = ['pending', 'succeeded', 'failed', 'cancelled'] as const;

/** A validation problem of an enrollment: the field (applicant field name, or `row`) and a message key. */
export interface EnrollmentError {
  field: string;
  message: string;
  params?: Record<string, string | number>;
}
