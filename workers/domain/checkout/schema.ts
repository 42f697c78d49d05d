/**
 * Checkout inputs (spec 002 s.7 "Policy batches and enrollments": policy-batches/confirm-open). Pure:
 * the checkout page validates its form with the same schema.
 */
import { z } from 'zod';
import { checkbox, msg } from '../validation';
import { PAYMENT_CHOICES } from './terms';

/**
 * The idempotency key of one checkout: a random id the checkout page generates when it renders. The same
 * key confirms once; a repeated request answers the invoice of the first.
 */
export const checkoutKey = z
  .string({ required_error: msg('validation.required') })
  .regex(/^[A-Za-z0-9_-]{16,64}$/, msg('checkout.errors.checkout_key'));

export const confirmOpenSchema = z.object({
  checkout_key: checkoutKey,
  /** One of the choices the client's terms allow (terms.ts); the client's usual one when left out. */
  payment_method: z
    .enum(PAYMENT_CHOICES, { errorMap: () => ({ message: msg('checkout.errors.payment_method') }) })
    .optional(),
  send_welcome_email: checkbox.optional().default(false),
  /** Staff ordering on behalf of a client: that client's open batches only (public id). */
  client_id: z.preprocess((v) => (v === '' ? undefined : v), z.string().max(40).optional()),
});
export type ConfirmOpenInput = z.infer<typeof confirmOpenSchema>;

/** The cart clean-up time, HH:MM in GMT. */
export const clearTimeSchema = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, msg('checkout.errors.clear_time'));
