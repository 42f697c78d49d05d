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
import { PRICE_PERIODS, PRODUCT_CLAIM_KEYS, PRODUCT_DETAIL_KEYS, PRODUCT_REQUIRED_KEYS } from './values';

export {
  PRODUCT_CLAIM_KEYS,
  PRODUCT_DETAIL_KEYS,
  PRODUCT_REQUIRED_KEYS,
  PRODUCT_TABS,
  withCleared,
  type ProductTab,
} from './values';

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
/** The pricing tab's address: which prices it lists (all when absent or not a period). */
export const pricePeriodQuerySchema = z.object({ period: z.enum(PRICE_PERIODS).optional() });
export const priceAddSchema = priceObject.superRefine(priceCrossRules);
export const priceUpdateSchema = priceObject.extend({ price_id: idField }).superRefine(priceCrossRules);
export const documentIdSchema = z.object({ document_id: idField });
/** The uploaded file rides along unparsed: the documents service checks its kind and size. */
const fileField = { file: z.unknown().optional() };
export const documentAddSchema = documentObject.extend(fileField).superRefine(documentCrossRules);
export const documentUpdateSchema = documentObject
  .extend({ ...fileField, document_id: idField })
  .superRefine(documentCrossRules);
