/** Inputs of the company calls (spec 001 s.3 Company; catalogue: Companies). Pure: pages and the API share them. */
import { z } from 'zod';
import { addressSchemas, contactsSchema } from '../contacts/schema';
import { listQuerySchema } from '../list-query';
import { entityName, msg, optional, wholeNumber } from '../validation';

export {
  COMPANY_CONTACT_TYPES,
  COMPANY_CURRENCIES,
  COMPANY_LANGUAGES,
  COMPANY_STATUSES,
  ORDER_STATUSES,
  PAYMENT_GATEWAYS,
} from './values';
import {
  COMPANY_CURRENCIES,
  COMPANY_LANGUAGES,
  COMPANY_STATUSES,
  ORDER_STATUSES,
  PAYMENT_GATEWAYS,
} from './values';

const text = (max: number) => z.string().max(max, msg('validation.max', { length: max }));
const compact = (v: unknown) => (typeof v === 'string' ? v.replace(/\s+/g, '').toUpperCase() : v);

/** IBAN: country, check digits and account, with a valid ISO 13616 (mod 97) checksum. */
export function ibanIsValid(value: string): boolean {
  const iban = value.replace(/\s+/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const ch of rearranged) {
    const digits = /[A-Z]/.test(ch) ? String(ch.charCodeAt(0) - 55) : ch;
    for (const d of digits) remainder = (remainder * 10 + Number(d)) % 97;
  }
  return remainder === 1;
}

const iban = z.preprocess(compact, z.string().refine(ibanIsValid, msg('companies.errors.iban')));
const bic = z.preprocess(
  compact,
  z.string().regex(/^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/, msg('companies.errors.bic')),
);
const choice = <T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { errorMap: () => ({ message: msg('validation.required') }) });

/**
 * Overdue reminders: the days after an invoice's due date on which its client's accounting
 * contact is emailed, as a list or as typed ("1, 7, 14"); sorted, without repeats, at most 10, 1 to 365.
 * Empty or left out: no reminders (the update call replaces every field, as for the others).
 */
const overdueReminderDays = z.preprocess(
  (v) =>
    v === undefined || v === null
      ? []
      : typeof v === 'string'
        ? v
            .split(',')
            .map((s) => s.trim())
            .filter((s) => s !== '')
        : v,
  z
    .array(
      z.coerce
        .number({ invalid_type_error: msg('overdue.settings.invalid') })
        .int(msg('overdue.settings.invalid'))
        .min(1, msg('overdue.settings.invalid'))
        .max(365, msg('overdue.settings.invalid')),
      { invalid_type_error: msg('overdue.settings.invalid') },
    )
    .max(10, msg('overdue.settings.invalid'))
    .transform((days) => [...new Set(days)].sort((a, b) => a - b)),
);

const companyShape = {
  name: entityName,
  country_id: optional(
    z.coerce
      .number({ invalid_type_error: msg('validation.required') })
      .int()
      .positive(),
  ),
  registration_number: optional(text(50)),
  preferred_lang: choice(COMPANY_LANGUAGES).default('en'),
  currency: choice(COMPANY_CURRENCIES).default('GBP'),
  bank_name: optional(text(100)),
  bic: optional(bic),
  iban: optional(iban),
  branch_code: optional(z.string().regex(/^[A-Za-z0-9 -]{1,20}$/, msg('companies.errors.branch_code'))),
  account_number: optional(z.string().regex(/^[A-Za-z0-9 -]{1,34}$/, msg('companies.errors.account_number'))),
  payment_gateway: choice(PAYMENT_GATEWAYS).default('none'),
  order_status_default: optional(choice(ORDER_STATUSES)),
  failed_order_status: optional(choice(ORDER_STATUSES)),
  change_status_after: optional(wholeNumber.pipe(z.number().max(3650, msg('companies.errors.days')))),
  cookie_policy: optional(text(50_000)),
  footer_information: optional(text(2_000)),
  terms: optional(text(50_000)),
  quickbooks_company_id: optional(text(50)),
  overdue_reminder_days: overdueReminderDays,
  contacts: contactsSchema
    .pick({ owner: true, secondary: true, accounting: true })
    .optional()
    .default({ secondary: [] }),
  billing_address: addressSchemas.billing,
  mailing_address: addressSchemas.mailing,
};

/** companies/add and companies/{id}/update: every field of the company with its contacts and addresses. */
export const companySchema = z.object(companyShape);
export type CompanyInput = z.infer<typeof companySchema>;

export const companyStatusSchema = z.object({ status: choice(COMPANY_STATUSES) });

export const companyListSchema = listQuerySchema.extend({
  status: z
    .enum([...COMPANY_STATUSES, 'all'])
    .catch('all')
    .optional(),
  currency: z.enum(COMPANY_CURRENCIES).optional().catch(undefined),
});
export type CompanyListQuery = z.infer<typeof companyListSchema>;

/** companies/{company}/users/finance: a search term over name and email. */
export const financeUsersQuerySchema = z.object({ search: z.string().trim().max(200).optional() });
