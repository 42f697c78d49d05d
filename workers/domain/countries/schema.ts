/** Inputs of the countries and tax-rates calls (spec 001 s.3 Country, s.5, s.9). Pure: pages and the API share them. */
import { z } from 'zod';
import { RECORD_STATUSES, REGION_CODES } from '../../../drizzle/enums';
import { listQuerySchema } from '../list-query';
import { endNotBeforeStart, entityName, isoDate, msg, optional, taxRatePercent } from '../validation';

export { REGION_CODES };
export const COUNTRY_STATUSES = RECORD_STATUSES;

const upper = (v: unknown) => (typeof v === 'string' ? v.trim().toUpperCase() : v);

const alpha2 = z.preprocess(
  upper,
  z
    .string({ required_error: msg('validation.required') })
    .min(1, msg('validation.required'))
    .regex(/^[A-Z]{2}$/, msg('countries.errors.abbreviation')),
);
const alpha3 = z.preprocess(
  upper,
  z
    .string({ required_error: msg('validation.required') })
    .min(1, msg('validation.required'))
    .regex(/^[A-Z]{3}$/, msg('countries.errors.code')),
);
const currencyCode = z.preprocess(
  upper,
  z.string().regex(/^[A-Z]{3}$/, msg('countries.errors.currency_code')),
);
const shortText = (max: number) => z.string().max(max, msg('validation.max', { length: max }));
const age = z.coerce
  .number({ invalid_type_error: msg('validation.digits') })
  .int(msg('validation.digits'))
  .min(0, msg('validation.digits'))
  .max(150, msg('countries.errors.age_range'));

/** A checkbox or a JSON boolean (an unchecked box sends nothing). */
const flag = z.preprocess(
  (v) =>
    v === 'on' || v === 'true' || v === '1' ? true : v === 'false' || v === '0' || v === '' ? false : v,
  z.boolean().optional().default(false),
);

const countryShape = {
  name: entityName,
  abbreviation: alpha2,
  code: alpha3,
  dial_code: optional(z.string().regex(/^\d{1,6}$/, msg('countries.errors.dial_code'))),
  capital: optional(shortText(100)),
  region_code: z.enum(REGION_CODES, { errorMap: () => ({ message: msg('countries.errors.region') }) }),
  currency_code: optional(currencyCode),
  currency_name: optional(shortText(100)),
  currency_symbol: optional(shortText(10)),
  language: optional(z.string().regex(/^[a-z]{2}$/i, msg('countries.errors.language'))),
  age_min: optional(age),
  age_max: optional(age),
  /** At least 5 characters when given (spec 001 s.5 "notes at least 5 characters"). */
  travel_restriction_notes: optional(
    z
      .string()
      .min(5, msg('validation.min', { length: 5 }))
      .max(2000, msg('validation.max', { length: 2000 })),
  ),
  stamp_duty_applicable: flag,
  requires_passport_number: flag,
};

function ageOrder(d: { age_min?: number; age_max?: number }, ctx: z.RefinementCtx) {
  if (d.age_min !== undefined && d.age_max !== undefined && d.age_max < d.age_min)
    ctx.addIssue({ code: 'custom', path: ['age_max'], message: msg('countries.errors.age_order') });
}

/** countries/add and countries/{id}/update: the whole country. */
export const countrySchema = z.object(countryShape).superRefine(ageOrder);
export type CountryInput = z.infer<typeof countrySchema>;

export const countryStatusSchema = z.object({
  status: z.enum(COUNTRY_STATUSES, { errorMap: () => ({ message: msg('validation.required') }) }),
});

/** A tax rate in percent (> 0 and < 100) or a flat tax amount (> 0), for a period. */
const taxRateShape = {
  tax_rate: optional(taxRatePercent),
  tax_amount: optional(
    z.preprocess(
      (v) => (typeof v === 'string' ? v.replace(/[,\s]/g, '') : v),
      z.coerce
        .number({ invalid_type_error: msg('validation.tax_amount') })
        .finite(msg('validation.tax_amount'))
        .gt(0, msg('validation.tax_amount')),
    ),
  ),
  currency: optional(currencyCode),
  start_date: isoDate,
  end_date: optional(isoDate),
};

function rateOrAmount(
  d: { tax_rate?: number; tax_amount?: number; start_date?: string; end_date?: string },
  ctx: z.RefinementCtx,
) {
  if (d.tax_rate === undefined && d.tax_amount === undefined)
    ctx.addIssue({ code: 'custom', path: ['tax_rate'], message: msg('countries.errors.rate_or_amount') });
  if (d.tax_rate !== undefined && d.tax_amount !== undefined)
    ctx.addIssue({ code: 'custom', path: ['tax_amount'], message: msg('countries.errors.rate_and_amount') });
  endNotBeforeStart({ start: d.start_date, end: d.end_date }, ctx);
}

/** countries/tax-rates/add. */
export const addTaxRateSchema = z
  .object({
    country_id: z.coerce
      .number({ invalid_type_error: msg('validation.required') })
      .int()
      .positive(),
    ...taxRateShape,
  })
  .superRefine(rateOrAmount);
export type AddTaxRateInput = z.infer<typeof addTaxRateSchema>;

/** countries/tax-rates/{id}/update. */
export const updateTaxRateSchema = z.object(taxRateShape).superRefine(rateOrAmount);
export type UpdateTaxRateInput = z.infer<typeof updateTaxRateSchema>;

/** The countries list: search, status and region filters, sorting and paging. */
export const countryListSchema = listQuerySchema.extend({
  status: z
    .enum([...COUNTRY_STATUSES, 'all'])
    .catch('all')
    .optional(),
  region_code: z.enum(REGION_CODES).optional().catch(undefined),
});
export type CountryListQuery = z.infer<typeof countryListSchema>;

export const COUNTRY_SORTS = [
  'name',
  'abbreviation',
  'code',
  'region_code',
  'currency_code',
  'status',
] as const;

/** A tax rate of a country, by its row number. */
export const taxRateIdSchema = z.object({ rate_id: z.coerce.number().int().positive() });
