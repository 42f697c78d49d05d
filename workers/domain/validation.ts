/**
 * Shared validation pieces (spec 000 section 5, 001 section 5) as zod schemas. Pure: the browser uses
 * them for Conform validation and both doors use the very same objects.
 *
 * Messages are message keys (`validation.required`, optionally `key|{"length":8}` with parameters), not
 * text. The locale files hold the text; the English text is exactly the specification's. The API answers
 * in English (see formatMessage), pages translate them to the reader's language.
 */
import { z } from 'zod';
import { LANDING_PAGES } from '../../drizzle/enums';

import { msg } from './messages';

export { msg, parseMessage } from './messages';
import { looksLikeDay, readDay } from './formats';
export { britishDate, major, readDay, todayIso } from './formats';
export { isLocalPath } from './paths';

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
    // An empty address is missing, not also invalid: the format rules run only on a filled-in one.
    .pipe(
      z
        .string()
        .max(254, msg('validation.email_too_long'))
        .refine((v) => (v.split('@')[0] ?? '').length <= 64, msg('validation.email_too_long'))
        .refine(
          (v) =>
            /^[^\s@"(),:;<>[\\\]]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/i.test(
              v,
            ),
          msg('validation.email_invalid'),
        ),
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
    .pipe(z.string().regex(/^\d{6}$/, msg('validation.pin_digits'))),
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
    .pipe(
      z
        .string()
        .regex(/^\d*$/, msg('validation.digits'))
        .min(3, msg('validation.min', { length: 3 }))
        .max(18, msg('validation.max', { length: 18 })),
    ),
);

/** Phone country: two letters (ISO 3166-1 alpha-2). */
export const phoneCountry = z.preprocess(
  (v) => (typeof v === 'string' ? v.trim().toUpperCase() : (v ?? '')),
  z
    .string()
    .min(1, msg('validation.required'))
    .pipe(z.string().regex(/^[A-Z]{2}$/, msg('validation.phone_country'))),
);

export const LANDING_PAGE_OPTIONS = LANDING_PAGES;

// ---------------------------------------------------------------- shared field rules (spec 000 s.5, 001 s.5)

const optionalText = (schema: z.ZodTypeAny) =>
  z.preprocess(
    (v) =>
      typeof v === 'string'
        ? v.replace(/\s+/g, ' ').trim() === ''
          ? undefined
          : v.replace(/\s+/g, ' ').trim()
        : (v ?? undefined),
    schema.optional(),
  );

/** Wraps a rule so an empty value is allowed (undefined after trimming). */
export function optional<T extends z.ZodTypeAny>(schema: T) {
  return optionalText(schema) as unknown as z.ZodOptional<T>;
}

/** Name and campus name: 1 to 100 characters. */
export const entityName = required(100).pipe(
  z
    .string()
    .min(1, msg('validation.name_length'))
    .max(100, msg('validation.name_length'))
    .refine((v) => !/[<>{}]/.test(v), msg('validation.name_invalid')),
);

/** City: 1 to 50 letters, spaces, commas, hyphens or periods. */
export const city = z.string().regex(/^[\p{L}\s,.'-]{1,50}$/u, msg('validation.city'));

/** Postal code: 1 to 10 letters, digits, spaces or hyphens. */
export const postalCode = z.string().regex(/^[A-Za-z0-9 -]{1,10}$/, msg('validation.postal_code'));

/** PO number: 1 to 100 characters. */
export const poNumber = z
  .string()
  .min(1, msg('validation.required'))
  .max(100, msg('validation.max', { length: 100 }));

/** Address department: 1 to 150 characters. */
export const addressDepartment = z
  .string()
  .min(1, msg('validation.required'))
  .max(150, msg('validation.max', { length: 150 }));

/** Contact job title and department: up to 100 characters. */
export const contactTitle = z.string().max(100, msg('validation.max', { length: 100 }));

/** Group name: 3 to 50 letters, digits, space, apostrophe, plus, hyphen, underscore. */
export const groupName = z.string().regex(/^[\p{L}\p{N} '+\-_]{3,50}$/u, msg('validation.group_name'));

/** Product code: 1 to 20 letters, digits or underscore. */
export const productCode = z.string().regex(/^[A-Za-z0-9_]{1,20}$/, msg('validation.product_code'));

/** URL (http or https). */
export const url = z
  .string()
  .max(2048, msg('validation.max', { length: 2048 }))
  .refine((v) => {
    try {
      const u = new URL(v);
      return u.protocol === 'http:' || u.protocol === 'https:';
    } catch {
      return false;
    }
  }, msg('validation.url'));

/** Passport number: letters and digits, 3 to 18. */
export const passportNumber = z.string().regex(/^[A-Za-z0-9]{3,18}$/, msg('validation.passport'));

/** Student number: letters and digits, up to 50. */
export const studentNumber = z.string().regex(/^[A-Za-z0-9]{1,50}$/, msg('validation.student_number'));

/**
 * A calendar day, stored and answered as YYYY-MM-DD (year 1900-3000), that exists. Text of another shape
 * says 'Date format is invalid'; a day of the right shape that does not exist (2027-02-31, or 31/02/2027
 * as typed in a form) 'Date is not valid' (spec 000 s.5). The forms read what a person types (DD/MM/YYYY)
 * into this form first (`readTypedDays`, typed-days.ts), the JSON API takes it as it is.
 */
export const isoDate = z
  .string({ required_error: msg('validation.required'), invalid_type_error: msg('validation.date_format') })
  .min(1, msg('validation.required'))
  .superRefine((v, ctx) => {
    const iso = /^\d{4}-\d{2}-\d{2}$/.test(v);
    if (iso && readDay(v)) return;
    // A typed day that exists reaches here only through the API, which reads YYYY-MM-DD alone.
    const invalid = iso || (looksLikeDay(v) && !readDay(v));
    const key = invalid ? 'validation.date_invalid' : 'validation.date_format';
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: msg(key) });
  });

/** Today's date (UTC) as YYYY-MM-DD. */
/** A form checkbox ('on') or a JSON boolean: on, true and 1 are true; anything else (an unticked box sends nothing) false. */
export const checkbox = z.preprocess(
  (value) => value === true || value === 'on' || value === 'true' || value === '1' || value === 1,
  z.boolean(),
);

/** Tax rate: a number greater than 0 and below 100 (percent, up to 2 decimals). */
export const taxRatePercent = z.coerce
  .number({ invalid_type_error: msg('validation.tax_rate') })
  .gt(0, msg('validation.tax_rate'))
  .lt(100, msg('validation.tax_rate'));

/** Money in major units as typed (e.g. "12.50"), to integer minor units. */
export const money = z.preprocess(
  (v) => (typeof v === 'string' ? v.replace(/[,\s]/g, '') : v),
  z.coerce
    .number({ invalid_type_error: msg('validation.numeric') })
    .finite(msg('validation.numeric'))
    .min(0, msg('validation.numeric'))
    .transform((n) => Math.round(n * 100)),
);

/**
 * A required amount: nothing typed (empty, spaces, absent) says 'This field is required' before the
 * amount's own rules (which would read nothing as 0, or as a number badly written). `amount` reads what
 * was typed: the shared `money` unless a field has rules of its own. Every required money field of the
 * forms and the API goes through this.
 */
export function requiredAmount<T extends z.ZodTypeAny>(amount: T) {
  return z.preprocess(
    (v) => (v === null || v === undefined || (typeof v === 'string' && v.trim() === '') ? '' : v),
    z
      .union([z.string(), z.number()], { invalid_type_error: msg('validation.numeric') })
      .refine((v) => v !== '', msg('validation.required'))
      .pipe(amount),
  );
}

/** A whole number of days or years. */
export const wholeNumber = z.coerce
  .number({ invalid_type_error: msg('validation.digits') })
  .int(msg('validation.digits'))
  .min(0, msg('validation.digits'));

/** Phone number and its country: each required when the other is present (spec 000 s.5). */
export function phonePair<T extends z.ZodRawShape>(shape: T) {
  return z.object(shape).superRefine((d: Record<string, unknown>, ctx) => {
    const country = d.phone_country as string | undefined;
    const number = d.phone_number as string | undefined;
    if (number && !country)
      ctx.addIssue({ code: 'custom', path: ['phone_country'], message: msg('validation.required') });
    if (country && !number)
      ctx.addIssue({ code: 'custom', path: ['phone_number'], message: msg('validation.required') });
  });
}
export const optionalPhoneFields = {
  phone_country: optional(z.string().regex(/^[A-Za-z]{2}$/, msg('validation.phone_country'))),
  phone_number: optional(z.string().regex(/^\d{3,18}$/, msg('validation.phone_number'))),
};

/** Date order rules with the spec's messages. */
export function endNotBeforeStart(
  data: { start?: string | null; end?: string | null },
  ctx: z.RefinementCtx,
  path = 'end_date',
) {
  if (data.start && data.end && data.end < data.start)
    ctx.addIssue({ code: 'custom', path: [path], message: msg('validation.end_after_start') });
}
