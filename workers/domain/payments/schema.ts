/**
 * Payment inputs (spec 002 s.7 "Invoices and payments"; spec 000 s.5 payment date). Pure: the pages
 * validate their forms with the same schemas.
 */
import { z } from 'zod';
import { isoDate, msg } from '../validation';

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
