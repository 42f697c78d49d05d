/**
 * Payment inputs (spec 002 s.7 "Invoices and payments"; spec 000 s.5 payment date). Pure: the pages
 * validate their forms with the same schemas.
 */
import { z } from 'zod';
import { RECEIVED_VIA } from '../../../drizzle/schema/billing-enums';

export { RECEIVED_VIA };
import { isLocalPath, isoDate, msg, requiredAmount } from '../validation';

/** POST .../pay-invoice/{id}/start: the currency the client pays in (the invoice's). */
export const startPaymentSchema = z.object({
  currency: z
    .string({ required_error: msg('validation.required') })
    .trim()
    .regex(/^[A-Za-z]{3}$/, msg('payments.errors.currency'))
    .transform((c) => c.toUpperCase()),
});
export type StartPaymentInput = z.infer<typeof startPaymentSchema>;

/**
 * POST payment/invoices/{invoiceId}/approve-bank-transfer: the date the money arrived. Required, a real
 * date, and not in the future (checked against the server's today by the service as well).
 */
export const approveBankTransferSchema = z.object({
  date: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() : v),
    z
      .string({
        required_error: msg('validation.payment_date_required'),
        invalid_type_error: msg('validation.payment_date_required'),
      })
      .min(1, msg('validation.payment_date_required'))
      .pipe(isoDate),
  ),
});
export type ApproveBankTransferInput = z.infer<typeof approveBankTransferSchema>;

/** The parameters of an ePDQ answer (browser return or notification): names and values as sent. */
export const cardResultSchema = z
  .record(z.string(), z.string().max(2000))
  .refine((p) => Object.keys(p).length <= 200, msg('payments.errors.incomplete'));

// ---------------------------------------------------------------- recorded payments and refunds

/** Receipts: PDF, JPG or PNG (checked by their bytes), at most this many MB. */
export const RECEIPT_MAX_MB = 10;
export const RECEIPT_KINDS = ['pdf', 'jpg', 'png'] as const;
/** The multipart field of the receipt file. */
export const RECEIPT_FIELD = 'receipt';

const paymentDate = z.preprocess(
  (v) => (typeof v === 'string' ? v.trim() : v),
  z
    .string({
      required_error: msg('validation.payment_date_required'),
      invalid_type_error: msg('validation.payment_date_required'),
    })
    .min(1, msg('validation.payment_date_required'))
    .pipe(isoDate),
);

/** An amount as typed, in major units with at most two decimals ("120.50"), to minor units; above 0. */
const positiveAmount = requiredAmount(
  z.preprocess(
    (v) => (typeof v === 'string' ? v.replace(/[,\s]/g, '') : v),
    z.coerce
      .number({ invalid_type_error: msg('payments.errors.amount_invalid') })
      .finite(msg('payments.errors.amount_invalid'))
      .refine((n) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6, msg('payments.errors.amount_invalid'))
      .transform((n) => Math.round(n * 100))
      .refine((n) => n > 0, msg('payments.errors.amount_positive'))
      .refine((n) => n <= 1_000_000_000_00, msg('payments.errors.amount_invalid')),
  ),
);

const transactionFields = {
  amount: positiveAmount,
  paid_on: paymentDate,
  method: z.enum(RECEIVED_VIA, { errorMap: () => ({ message: msg('payments.errors.method') }) }),
  note: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() || undefined : (v ?? undefined)),
    z
      .string()
      .max(1000, msg('validation.max', { length: 1000 }))
      .optional(),
  ),
};

/**
 * POST invoices/{id}/transactions/record and /record/refund (multipart; the receipt file beside these
 * fields). `idempotency_key`: the form's one-time key; the same key twice records once.
 */
export const recordTransactionSchema = z.object({
  ...transactionFields,
  idempotency_key: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() || undefined : (v ?? undefined)),
    z
      .string()
      .regex(/^[A-Za-z0-9:_-]{8,120}$/, msg('payments.errors.key'))
      .optional(),
  ),
});
export type RecordTransactionInput = z.infer<typeof recordTransactionSchema>;

/** PATCH invoices/{invoice_id}/transactions: which transaction, and its new date, amount, method, note. */
export const editTransactionSchema = z.object({
  transaction_id: z
    .string({ required_error: msg('validation.required') })
    .trim()
    .min(1, msg('validation.required'))
    .max(40),
  ...transactionFields,
});
export type EditTransactionInput = z.infer<typeof editTransactionSchema>;

// ---------------------------------------------------------------- the pages' forms

/** Where a payment page goes back to after saving: a local address, else none (the invoice's page). */
export const backField = z.object({
  back: z
    .string()
    .max(500)
    .optional()
    .transform((v) => (v && isLocalPath(v) ? v : undefined)),
});

/** The form of the record-payment and record-refund pages: the transaction and where to go back to. */
export const recordPageSchema = recordTransactionSchema.merge(backField);

/** The form of the page that corrects a recorded payment or refund. */
export const editTransactionPageSchema = editTransactionSchema.merge(backField);

/** The form of the page that approves a bank transfer: the date the money arrived. */
export const approveBankTransferPageSchema = approveBankTransferSchema.merge(backField);
