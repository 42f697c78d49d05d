/**
 * A product's page is split in tabs (spec 001 s.2): which tabs there are, which product fields each
 * editing tab owns, which of them a saved product must keep, and the schemas of the tabs' forms. Pure,
 * so the pages validate with the same schemas in the browser.
 */
import { z } from 'zod';
import {
  coverageLimitSchema,
  documentCrossRules,
  documentObject,
  priceCrossRules,
  priceObject,
  productCrossRules,
  updateProductObject,
} from './schema';

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

const pick = <K extends readonly string[]>(keys: K) =>
  Object.fromEntries(keys.map((k) => [k, true])) as { [P in K[number]]: true };

export const productDetailsSchema = updateProductObject
  .pick(pick(PRODUCT_DETAIL_KEYS))
  .required(pick(PRODUCT_REQUIRED_KEYS))
  .superRefine(productCrossRules);

export const productClaimSchema = updateProductObject.pick(pick(PRODUCT_CLAIM_KEYS));

export const coverageLimitsSchema = z.object({
  coverage_limits: z.array(coverageLimitSchema).max(50, 'products.errors.too_many_limits').default([]),
});

const idField = z.coerce.number().int().positive();
export const priceIdSchema = z.object({ price_id: idField });
export const priceAddSchema = priceObject.superRefine(priceCrossRules);
export const priceUpdateSchema = priceObject.extend({ price_id: idField }).superRefine(priceCrossRules);
export const documentIdSchema = z.object({ document_id: idField });
/** The uploaded file rides along unparsed: the documents service checks its kind and size. */
const fileField = { file: z.unknown().optional() };
export const documentAddSchema = documentObject.extend(fileField).superRefine(documentCrossRules);
export const documentUpdateSchema = documentObject
  .extend({ ...fileField, document_id: idField })
  .superRefine(documentCrossRules);

/**
 * A tab's form leaves out the optional fields the user emptied: those are cleared (null) in the
 * update, not kept as they were.
 */
export function withCleared<T extends Record<string, unknown>>(value: T, keys: readonly string[]): T {
  const out: Record<string, unknown> = { ...value };
  for (const k of keys) if (out[k] === undefined) out[k] = null;
  return out as T;
}
