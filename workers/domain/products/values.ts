/**
 * A product's value lists as plain values, free of zod, so pages read them without loading the schema
 * library (schema.ts re-exports them).
 */
import {
  DOCUMENT_VISIBILITIES,
  LANGUAGES,
  RECORD_STATUSES,
  REGION_CODES,
  TERRITORIAL_LIMITS,
} from '../../../drizzle/enums';

export const MIN_PURCHASE_DAYS = 6;
export { DOCUMENT_VISIBILITIES, REGION_CODES, TERRITORIAL_LIMITS };
export const PRODUCT_STATUSES = RECORD_STATUSES;
export const CURRENCIES = ['GBP', 'EUR', 'USD', 'CAD', 'AUD', 'NZD', 'CHF'] as const;
export const DOCUMENT_LANGUAGES = LANGUAGES;
