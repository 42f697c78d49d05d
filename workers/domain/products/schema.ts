/**
 * Products, their prices and documents, and product groups (spec 001 s.3 and s.5): the inputs of the
 * area as zod schemas, shared by the pages (Conform) and the API. Pure: no server imports.
 *
 * Rules that need the clock or the database (dates not in the past, unique code, the insurer of the
 * product's company, overlapping price bands, minimum days against the product) are checked by the
 * service; the rules here are about one input on its own.
 */
import { z } from 'zod';
import { listQuerySchema } from '../list-query';
import {
  checkbox,
  email,
  entityName,
  isoDate,
  msg,
  money,
  productCode,
  requiredAmount,
  wholeNumber,
} from '../validation';

import {
  CURRENCIES,
  DOCUMENT_LANGUAGES,
  DOCUMENT_TYPES,
  DOCUMENT_VISIBILITIES,
  MIN_PURCHASE_DAYS,
  PRODUCT_STATUSES,
  REGION_CODES,
  TERRITORIAL_LIMITS,
} from './values';

export {
  CURRENCIES,
  DOCUMENT_LANGUAGES,
  DOCUMENT_VISIBILITIES,
  MIN_PURCHASE_DAYS,
  PRODUCT_STATUSES,
  REGION_CODES,
  TERRITORIAL_LIMITS,
} from './values';
import { GROUP_DESCRIPTION_MAX } from './values';
export { GROUP_DESCRIPTION_MAX };
/** Kinds a product document may be (checked by content, see workers/platform/storage.ts). */
export const DOCUMENT_FILE_KINDS = ['pdf', 'png', 'jpg', 'docx', 'xlsx'] as const;
export const DOCUMENT_MAX_MB = 10;
export { PRICE_PERIODS, type PricePeriod } from './values';

const squash = (v: unknown) => (typeof v === 'string' ? v.replace(/\s+/g, ' ').trim() : v);

/**
 * An optional field that can also be cleared: absent (undefined) keeps the stored value on update,
 * null or an empty text clears it.
 */
export function clearable<T extends z.ZodTypeAny>(schema: T) {
  return z
    .preprocess((v) => {
      if (v === null) return null;
      const s = squash(v);
      return s === '' ? null : s;
    }, schema.nullable())
    .optional();
}

const text = (max: number) => z.string().max(max, msg('validation.max', { length: max }));
/** A phone number as people write it (+44 20 7946 0000): 3 to 18 digits, an optional leading +. */
const contactPhone = z
  .string()
  .transform((v) => v.replace(/[\s().-]/g, ''))
  .pipe(z.string().regex(/^\+?\d{3,18}$/, msg('validation.phone_number')));
const requiredMoney = requiredAmount(money);
const days = wholeNumber.pipe(z.number().max(36500, msg('products.errors.days_too_many')));

// ---------------------------------------------------------------- products

export const coverageLimitSchema = z.object({
  benefit: z.preprocess(
    squash,
    z
      .string({ required_error: msg('validation.required') })
      .min(1, msg('validation.required'))
      .max(200, msg('validation.max', { length: 200 })),
  ),
  limit: z.preprocess(
    squash,
    z
      .string({ required_error: msg('validation.required') })
      .min(1, msg('validation.required'))
      .max(100, msg('validation.max', { length: 100 })),
  ),
  excess: clearable(text(100)),
});
export type CoverageLimit = { benefit: string; limit: string; excess?: string | null };

/** Every product field a person edits (all optional here; createProductSchema makes some required). */
export const productFields = {
  insurer_id: clearable(z.string().max(40)),
  unit_id: clearable(
    z.coerce
      .number({ invalid_type_error: msg('validation.required') })
      .int()
      .positive(),
  ),
  code: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim().toUpperCase() : v),
    z
      .string({ required_error: msg('validation.required') })
      .min(1, msg('validation.required'))
      .pipe(productCode),
  ),
  name: entityName,
  description: clearable(text(2000)),
  effective_start_date: z.preprocess((v) => (v === null ? undefined : squash(v)), isoDate),
  effective_end_date: clearable(isoDate),
  type: clearable(text(100)),
  policy_type: clearable(text(100)),
  scheme: clearable(text(100)),
  cover_type: clearable(text(100)),
  territorial_limit: clearable(z.enum(TERRITORIAL_LIMITS, { message: msg('validation.required') })),
  currency: z.enum(CURRENCIES, { message: msg('validation.required') }),
  max_coverage_amount: clearable(money),
  max_enrolment_period_days: clearable(days),
  max_term_days: clearable(days),
  min_purchase_days: days.pipe(
    z.number().min(MIN_PURCHASE_DAYS, msg('products.errors.min_purchase', { days: MIN_PURCHASE_DAYS })),
  ),
  insured_age_min: clearable(wholeNumber.pipe(z.number().max(120, msg('products.errors.age_range')))),
  insured_age_max: clearable(wholeNumber.pipe(z.number().max(120, msg('products.errors.age_range')))),
  master_certificate_number: clearable(text(100)),
  claim_email: clearable(email),
  claim_phone: clearable(contactPhone),
  claim_details: clearable(text(5000)),
  medical_assistance_email: clearable(email),
  medical_assistance_phone: clearable(contactPhone),
  coverage_limits: z.array(coverageLimitSchema).max(50, msg('products.errors.too_many_limits')).optional(),
};

type ProductRuleInput = {
  effective_start_date?: string | null;
  effective_end_date?: string | null;
  insured_age_min?: number | null;
  insured_age_max?: number | null;
};

/** The rules between a product's fields: end not before start, max age above min age. */
export function productCrossRules(d: ProductRuleInput, ctx: z.RefinementCtx) {
  if (d.effective_start_date && d.effective_end_date && d.effective_end_date < d.effective_start_date)
    ctx.addIssue({
      code: 'custom',
      path: ['effective_end_date'],
      message: msg('validation.end_after_start'),
    });
  if (d.insured_age_min != null && d.insured_age_max != null && d.insured_age_max <= d.insured_age_min)
    ctx.addIssue({ code: 'custom', path: ['insured_age_max'], message: msg('products.errors.age_max') });
}

export const productObject = z.object({
  /** The company of a new product (its public id); the company chosen in the top bar when left out. */
  company_id: clearable(z.string().max(40)),
  ...productFields,
  currency: productFields.currency.optional(),
  min_purchase_days: z.preprocess(
    (v) => (v === '' || v == null ? MIN_PURCHASE_DAYS : v),
    productFields.min_purchase_days,
  ),
  status: z.enum(PRODUCT_STATUSES).optional(),
});
export const createProductSchema = productObject.superRefine(productCrossRules);
export type CreateProductInput = z.infer<typeof createProductSchema>;

/** An update names only the fields it changes; null (or an empty text) clears an optional field. */
export const updateProductObject = z.object(productFields).partial();
export const updateProductSchema = updateProductObject.superRefine(productCrossRules);
export type UpdateProductInput = z.infer<typeof updateProductSchema>;

const emptyToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);

export const productListQuerySchema = listQuerySchema.extend({
  status: z.preprocess(emptyToUndefined, z.enum(PRODUCT_STATUSES).optional()),
  insurer: z.preprocess(emptyToUndefined, z.string().max(40).optional()),
  territorial_limit: z.preprocess(emptyToUndefined, z.enum(TERRITORIAL_LIMITS).optional()),
  /** Products whose effective period starts on or after this date. */
  effective_from: z.preprocess(emptyToUndefined, isoDate.optional()),
  /** Products whose effective period ends on or before this date. */
  effective_to: z.preprocess(emptyToUndefined, isoDate.optional()),
  /** Active products whose end date falls within the next 30 days. */
  expiring: z.preprocess(emptyToUndefined, z.enum(['1', 'true']).optional()),
});
export type ProductListQuery = z.infer<typeof productListQuerySchema>;

export const setStatusSchema = z.object({ status: z.enum(PRODUCT_STATUSES) });

// ---------------------------------------------------------------- prices

const requiredDays = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
  z
    .union([z.string(), z.number()], {
      required_error: msg('validation.required'),
      invalid_type_error: msg('validation.digits'),
    })
    .pipe(days)
    .pipe(z.number().min(1, msg('products.errors.min_days_positive'))),
);

const priceFields = {
  min_days: requiredDays,
  max_days: requiredDays,
  net: requiredMoney,
  sale: requiredMoney,
  custom: clearable(money),
  flat: checkbox.optional(),
  from_date: clearable(isoDate),
  to_date: clearable(isoDate),
  region_code: clearable(z.enum(REGION_CODES, { message: msg('products.errors.region_code') })),
  destination_country_ids: z
    .preprocess(
      (v) =>
        v === '' || v === null || v === undefined ? [] : Array.isArray(v) ? v.filter((x) => x !== '') : [v],
      z.array(z.coerce.number().int().positive()).max(300, msg('products.errors.too_many_countries')),
    )
    .optional(),
};

type PriceRuleInput = {
  min_days?: number;
  max_days?: number;
  net?: number;
  sale?: number;
  from_date?: string | null;
  to_date?: string | null;
  region_code?: string | null;
  destination_country_ids?: number[];
};

/** max days not below min days, sale not below net, to date not before from date, region or countries. */
export function priceCrossRules(d: PriceRuleInput, ctx: z.RefinementCtx) {
  if (d.min_days != null && d.max_days != null && d.max_days < d.min_days)
    ctx.addIssue({ code: 'custom', path: ['max_days'], message: msg('products.errors.max_days_below_min') });
  if (d.net != null && d.sale != null && d.sale < d.net)
    ctx.addIssue({ code: 'custom', path: ['sale'], message: msg('products.errors.sale_below_net') });
  if (d.from_date && d.to_date && d.to_date < d.from_date)
    ctx.addIssue({ code: 'custom', path: ['to_date'], message: msg('validation.to_after_from') });
  if (d.region_code && d.destination_country_ids?.length)
    ctx.addIssue({
      code: 'custom',
      path: ['destination_country_ids'],
      message: msg('products.errors.region_or_countries'),
    });
}

export const priceObject = z.object(priceFields);
export const priceSchema = priceObject.superRefine(priceCrossRules);
export type PriceInput = z.infer<typeof priceSchema>;

// ---------------------------------------------------------------- documents

const documentFields = {
  type: z.enum(DOCUMENT_TYPES, { message: msg('validation.required') }),
  language: z.enum(DOCUMENT_LANGUAGES, { message: msg('validation.required') }),
  title: z.preprocess(
    squash,
    z
      .string({ required_error: msg('validation.required') })
      .min(1, msg('validation.required'))
      .max(150, msg('validation.max', { length: 150 })),
  ),
  description: clearable(text(1000)),
  visibility: z.enum(DOCUMENT_VISIBILITIES, { message: msg('validation.required') }),
  valid_from: clearable(isoDate),
  valid_to: clearable(isoDate),
};

export function documentCrossRules(
  d: { valid_from?: string | null; valid_to?: string | null },
  ctx: z.RefinementCtx,
) {
  if (d.valid_from && d.valid_to && d.valid_to < d.valid_from)
    ctx.addIssue({ code: 'custom', path: ['valid_to'], message: msg('validation.to_after_from') });
}

/** A document's details; the file travels beside them (multipart `file`) and is checked by content. */
export const documentObject = z.object(documentFields);
export const documentSchema = documentObject.superRefine(documentCrossRules);
export type DocumentInput = z.infer<typeof documentSchema>;

// ---------------------------------------------------------------- product groups

export const productGroupObject = z.object({
  company_id: clearable(z.string().max(40)),
  name: entityName,
  scheme: clearable(text(100)),
  type: clearable(text(100)),
  description: clearable(text(GROUP_DESCRIPTION_MAX)),
  product_ids: z
    .preprocess(
      (v) =>
        v === '' || v === null || v === undefined ? [] : Array.isArray(v) ? v.filter((x) => x !== '') : [v],
      z.array(z.string().min(1).max(40)).max(500),
    )
    .optional(),
});
export const productGroupSchema = productGroupObject;
export type ProductGroupInput = z.infer<typeof productGroupSchema>;

export const productGroupListQuerySchema = listQuerySchema;
