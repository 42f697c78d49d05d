/**
 * Shared validation pieces (spec 000 section 5, 001 section 5) as zod schemas. Pure: the browser uses
 * them for Conform validation and both doors use the very same objects.
 *
 * Messages are message keys (`validation.required`, optionally `key|{"length":8}` with parameters), not
 * text. The locale files hold the text; the English text is exactly the specification's. The API answers
 * in English (see formatMessage), pages translate them to the reader's language.
 */
import { z } from 'zod';

export function msg(key: string, params?: Record<string, string | number>): string {
  return params ? `${key}|${JSON.stringify(params)}` : key;
}

/** Splits a message produced by `msg` into its key and parameters. Plain text passes through as a key. */
export function parseMessage(message: string): { key: string; params: Record<string, string | number> } {
  const bar = message.indexOf('|');
  if (bar < 0) return { key: message, params: {} };
  try {
    return { key: message.slice(0, bar), params: JSON.parse(message.slice(bar + 1)) };
  } catch {
    return { key: message, params: {} };
  }
}

const trimmed = z.preprocess((v) => (typeof v === 'string' ? v.replace(/\s+/g, ' ').trim() : v), z.string());
const required = (max?: number) => {
  let s = z.string({
    required_error: msg('validation.required'),
    invalid_type_error: msg('validation.required'),
  });
  s = s.min(1, msg('validation.required'));
  if (max) s = s.max(max, msg('validation.max', { length: max }));
  return z.preprocess((v) => (typeof v === 'string' ? v.replace(/\s+/g, ' ').trim() : (v ?? '')), s);
};

export const requiredText = required;
export { trimmed };

/** Email: local part up to 64 characters, a valid address. */
export const email = z.preprocess(
  (v) => (typeof v === 'string' ? v.trim().toLowerCase() : (v ?? '')),
  z
    .string({ required_error: msg('validation.email_required') })
    .min(1, msg('validation.email_required'))
    .max(254, msg('validation.email_too_long'))
    .refine((v) => (v.split('@')[0] ?? '').length <= 64, msg('validation.email_too_long'))
    .refine(
      (v) =>
        /^[^\s@"(),:;<>[\\\]]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/i.test(
          v,
        ),
      msg('validation.email_invalid'),
    ),
);

export const PASSWORD_MIN_LENGTH = 8;

/** Password rules, each with its own message. */
export const password = z
  .string({ required_error: msg('validation.required') })
  .min(1, msg('validation.required'))
  .superRefine((v, ctx) => {
    if (v.length === 0) return;
    const add = (key: string, params?: Record<string, number>) =>
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: msg(key, params) });
    if (v.length < PASSWORD_MIN_LENGTH) add('validation.password_min', { length: PASSWORD_MIN_LENGTH });
    if (v.length > 128) add('validation.max', { length: 128 });
    if (!/[a-z]/.test(v)) add('validation.password_lowercase');
    if (!/[A-Z]/.test(v)) add('validation.password_uppercase');
    if (!/[0-9]/.test(v)) add('validation.password_digit');
    if (!/[^A-Za-z0-9]/.test(v)) add('validation.password_special');
  });

/** A new password with its confirmation. */
export const newPasswordFields = {
  password,
  password_confirmation: z
    .string({ required_error: msg('validation.required') })
    .min(1, msg('validation.required')),
};

/** The refinement behind every "new password + confirmation" form. */
export function checkPasswordConfirmation(
  data: { password?: unknown; password_confirmation?: unknown },
  ctx: z.RefinementCtx,
) {
  if (data.password !== data.password_confirmation) {
    ctx.addIssue({
      code: z.ZodIssueCode.custom,
      message: msg('validation.password_confirmation'),
      path: ['password_confirmation'],
    });
  }
}

/** An object schema with a new password and its confirmation, which must match. */
export function withNewPassword<T extends z.ZodRawShape>(shape: T) {
  return z.object({ ...shape, ...newPasswordFields }).superRefine(checkPasswordConfirmation);
}

/** The 6-digit one time PIN. */
export const pin = z.preprocess(
  (v) => (typeof v === 'string' ? v.replace(/\s+/g, '') : (v ?? '')),
  z
    .string({ required_error: msg('validation.pin_required') })
    .min(1, msg('validation.pin_required'))
    .regex(/^\d{6}$/, msg('validation.pin_digits')),
);

/** First and last names: required, at most 100 characters, no digits. */
export const personName = required(100).pipe(
  z
    .string()
    .max(100, msg('validation.name_length'))
    .refine((v) => !/\d/.test(v), msg('validation.name_invalid')),
);

/** Phone number: digits only, 3 to 18. */
export const phoneNumber = z.preprocess(
  (v) => (typeof v === 'string' ? v.replace(/[\s()-]/g, '') : (v ?? '')),
  z
    .string()
    .min(1, msg('validation.required'))
    .regex(/^\d*$/, msg('validation.digits'))
    .min(3, msg('validation.min', { length: 3 }))
    .max(18, msg('validation.max', { length: 18 })),
);

/** Phone country: two letters (ISO 3166-1 alpha-2). */
export const phoneCountry = z.preprocess(
  (v) => (typeof v === 'string' ? v.trim().toUpperCase() : (v ?? '')),
  z
    .string()
    .min(1, msg('validation.required'))
    .regex(/^[A-Z]{2}$/, msg('validation.phone_country')),
);

export const LANDING_PAGE_OPTIONS = ['dashboard', 'insureds', 'clients', 'products'] as const;
