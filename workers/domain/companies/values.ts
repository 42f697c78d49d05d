/**
 * A company's value lists as plain values, free of zod, so pages read them without loading the schema
 * library (schema.ts re-exports them).
 */
import { LANGUAGES, RECORD_STATUSES } from '../../../drizzle/enums';

export const COMPANY_STATUSES = RECORD_STATUSES;
export const PAYMENT_GATEWAYS = ['barclaycard_epdq', 'none'] as const;
export const COMPANY_LANGUAGES = LANGUAGES;
export const COMPANY_CURRENCIES = [
  'GBP',
  'EUR',
  'USD',
  'CAD',
  'AUD',
  'NZD',
  'CHF',
  'CNY',
  'HKD',
  'JPY',
  'SGD',
  'AED',
] as const;
/** The currency a new company of a region starts with: the region's own (the UK's pound, Ireland's euro). */
export const REGION_CURRENCY = { uk: 'GBP', ie: 'EUR' } as const satisfies Record<
  'uk' | 'ie',
  (typeof COMPANY_CURRENCIES)[number]
>;
/** The statuses an order (its invoice) can be given: the default on creation and the one after a failed payment. */
export const ORDER_STATUSES = ['pending', 'open', 'due', 'unpaid', 'paid', 'overdue'] as const;
/** The contact types a company has (spec 001 s.3): owner, secondary and accounting. */
export const COMPANY_CONTACT_TYPES = ['owner', 'secondary', 'accounting'] as const;
