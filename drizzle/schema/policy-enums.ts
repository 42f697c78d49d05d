/**
 * The value lists of the tables of "after the sale" (amendments, policy transactions, documents,
 * cancellation imports), kept free of drizzle so that pure domain schemas (which the browser bundles)
 * can import them.
 */

/** What a policy transaction records: every change to a policy, append-only. */
export const POLICY_TRANSACTION_KINDS = [
  'issue',
  'extension',
  'trip_dates',
  'details',
  'group_name',
  'group_leader',
  'cancellation',
] as const;
export type PolicyTransactionKind = (typeof POLICY_TRANSACTION_KINDS)[number];

/** The amendments that are quoted first and then confirmed (they may charge or credit money). */
export const AMENDMENT_KINDS = ['extend', 'trip_dates', 'cancel'] as const;
export type AmendmentKind = (typeof AMENDMENT_KINDS)[number];

/**
 * draft: the insureds are chosen, the new dates (or the reason) not yet; quoted: priced and waiting for
 * confirmation; confirmed: applied once; stale: a policy changed after the quote, so it can no longer be
 * confirmed (the user is told the quote is out of date and quotes again).
 */
export const AMENDMENT_STATUSES = ['draft', 'quoted', 'confirmed', 'stale'] as const;
export type AmendmentStatus = (typeof AMENDMENT_STATUSES)[number];

/** The documents made for each policy (PDF, in R2), versioned with the policy. */
export const POLICY_DOCUMENT_KINDS = ['insurance_card', 'certificate'] as const;
export type PolicyDocumentKind = (typeof POLICY_DOCUMENT_KINDS)[number];

/** An invoice of a checkout, a supplementary invoice of an amendment that charges, or a credit note. */
export const INVOICE_TYPES = ['invoice', 'supplementary', 'credit_note'] as const;
export type InvoiceType = (typeof INVOICE_TYPES)[number];
