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
export const DOCUMENT_TYPES = [
  'policy_wording',
  'certificate',
  'ipid',
  'summary_of_cover',
  'claim_form',
  'brochure',
  'terms',
  'other',
] as const;

/** The tabs of a product page, in order; the first is the page's own address. */
export const PRODUCT_TABS = [
  'details',
  'claim',
  'limits',
  'company',
  'pricing',
  'documents',
  'logs',
] as const;
export type ProductTab = (typeof PRODUCT_TABS)[number];

/** The fields the product details tab edits. */
export const PRODUCT_DETAIL_KEYS = [
  'code',
  'name',
  'description',
  'insurer_id',
  'type',
  'policy_type',
  'scheme',
  'cover_type',
  'territorial_limit',
  'master_certificate_number',
  'effective_start_date',
  'effective_end_date',
  'min_purchase_days',
  'max_enrolment_period_days',
  'max_term_days',
  'unit_id',
  'insured_age_min',
  'insured_age_max',
  'currency',
  'max_coverage_amount',
] as const;

/** The details a saved product cannot lose: the details form refuses them empty. */
export const PRODUCT_REQUIRED_KEYS = [
  'code',
  'name',
  'effective_start_date',
  'min_purchase_days',
  'currency',
] as const;

/** The fields the claim details tab edits. */
export const PRODUCT_CLAIM_KEYS = [
  'claim_email',
  'claim_phone',
  'medical_assistance_email',
  'medical_assistance_phone',
  'claim_details',
] as const;

/**
 * A tab's form leaves out the optional fields the user emptied: those are cleared (null) in the
 * update, not kept as they were.
 */
export function withCleared<T extends Record<string, unknown>>(value: T, keys: readonly string[]): T {
  const out: Record<string, unknown> = { ...value };
  for (const k of keys) if (out[k] === undefined) out[k] = null;
  return out as T;
}

export const GROUP_DESCRIPTION_MAX = 1000;

/** Where a price band stands against today (the pricing tab's filter). */
export const PRICE_PERIODS = ['expired', 'current', 'future', 'default'] as const;
export type PricePeriod = (typeof PRICE_PERIODS)[number];
