/**
 * Contracts (spec 001 s.3 Contract, s.5 contract dates): the inputs of the area as zod schemas, shared
 * by the pages (Conform) and the API. Pure: no server imports.
 *
 * Rules that need the clock or the product (dates not in the past, within the product's effective
 * dates) are in `contractDateErrors`, which the service calls with today's date and the product.
 */
import { z } from 'zod';
import { RECORD_STATUSES } from '../../../drizzle/enums';
import { itemsParam, listQuerySchema, pageParam } from '../list-query';
import { isoDate, money, msg, optional, poNumber, requiredAmount, wholeNumber } from '../validation';
import type { FieldError } from '../errors';

/** Minimum product purchase (spec 001 s.9): a contract's and an agreement row's min days. */
export const MIN_CONTRACT_DAYS = 6;
export const CONTRACT_STATUSES = RECORD_STATUSES;
export type ContractStatus = (typeof CONTRACT_STATUSES)[number];
/** Where a contract stands against today: started and not ended, not started yet, ended. */
export const CONTRACT_PERIODS = ['current', 'future', 'expired'] as const;
export type ContractPeriod = (typeof CONTRACT_PERIODS)[number];

const emptyToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);
const publicRef = z.preprocess(
  (v) => (typeof v === 'string' ? v.trim() : v),
  z
    .string({ required_error: msg('validation.required'), invalid_type_error: msg('validation.required') })
    .min(1, msg('validation.required'))
    .max(40, msg('validation.max', { length: 40 })),
);
/** A required date: one message when it is missing, another when it is not a valid date. */
export const requiredDate = z.preprocess(
  (v) => (typeof v === 'string' ? v.trim() : (v ?? '')),
  z
    .string({ invalid_type_error: msg('validation.date_invalid') })
    .min(1, msg('validation.required'))
    .pipe(isoDate),
);

/** A price in major units: required and numeric (spec 001 s.5 'Value must be numeric'). */
export const requiredPrice = requiredAmount(money);

/** Min days: required, a whole number, at least the minimum purchase (6). */
export const minDays = z.preprocess(
  (v) => (v === null || v === undefined || (typeof v === 'string' && v.trim() === '') ? '' : v),
  z
    .union([z.string(), z.number()])
    .refine((v) => v !== '', msg('validation.required'))
    .pipe(wholeNumber)
    .pipe(
      z
        .number()
        .min(MIN_CONTRACT_DAYS, msg('contracts.errors.min_days', { days: MIN_CONTRACT_DAYS }))
        .max(36500, msg('contracts.errors.min_days_too_many')),
    ),
);

/** Sale price not below the net price (both in minor units once parsed). */
export function saleNotBelowNet(
  d: { net_price?: number | null; sale_price?: number | null },
  ctx: z.RefinementCtx,
  path: (string | number)[] = ['sale_price'],
) {
  if (typeof d.net_price === 'number' && typeof d.sale_price === 'number' && d.sale_price < d.net_price)
    ctx.addIssue({ code: 'custom', path, message: msg('contracts.errors.sale_below_net') });
}

const contractFields = {
  campus_id: publicRef,
  product_id: publicRef,
  name: optional(z.string().max(150, msg('validation.max', { length: 150 }))),
  description: optional(z.string().max(1000, msg('validation.max', { length: 1000 }))),
  start_date: requiredDate,
  end_date: requiredDate,
  net_price: requiredPrice,
  sale_price: requiredPrice,
  custom_price: z.preprocess(emptyToUndefined, money.optional()),
  min_days: minDays,
  po_number: optional(poNumber),
  is_default: z
    .preprocess((v) => v === true || v === 'on' || v === 'true' || v === '1', z.boolean())
    .optional(),
};

/** contracts/add: a contract of a campus for a product, with its prices and dates. */
export const addContractSchema = z.object(contractFields).superRefine((d, ctx) => saleNotBelowNet(d, ctx));
export type AddContractInput = z.infer<typeof addContractSchema>;

/** contracts/{id}/clone: a copy, optionally for another campus of the same client and other dates. */
export const cloneContractSchema = z.object({
  campus_id: z.preprocess(emptyToUndefined, publicRef.optional()),
  name: optional(z.string().max(150, msg('validation.max', { length: 150 }))),
  start_date: z.preprocess(emptyToUndefined, requiredDate.optional()),
  end_date: z.preprocess(emptyToUndefined, requiredDate.optional()),
});
export type CloneContractInput = z.infer<typeof cloneContractSchema>;

/** contracts/{id}/status/update. */
export const contractStatusSchema = z.object({
  status: z.enum(CONTRACT_STATUSES, { message: msg('validation.required') }),
});
export type ContractStatusInput = z.infer<typeof contractStatusSchema>;

export const contractListQuerySchema = listQuerySchema.extend({
  status: z.preprocess(emptyToUndefined, z.enum([...CONTRACT_STATUSES, 'all']).optional()),
  period: z.preprocess(emptyToUndefined, z.enum(CONTRACT_PERIODS).optional()),
  client_id: z.preprocess(emptyToUndefined, z.string().max(40).optional()),
  campus_id: z.preprocess(emptyToUndefined, z.string().max(40).optional()),
  product_id: z.preprocess(emptyToUndefined, z.string().max(40).optional()),
  service_agreement_id: z.preprocess(emptyToUndefined, z.string().max(40).optional()),
});
export type ContractListQuery = z.infer<typeof contractListQuerySchema>;

/** contracts/{id}/activities paging. */
export const activityQuerySchema = z.object({
  page: pageParam,
  items: itemsParam(25, 100),
});

/**
 * The contract date rules of spec 001 s.5: start and end required, not in the past, end after start,
 * within the product's effective start and end dates. `keys` names the fields the errors land on.
 */
export function contractDateErrors(
  d: { start_date?: string | null; end_date?: string | null },
  opts: {
    today: string;
    product?: { effective_start_date: string; effective_end_date: string | null } | null;
    /** Agreement rows may leave the end open (the contract then has no end date). */
    endRequired?: boolean;
    /** Agreement rows already in force keep their past start date. */
    allowPastStart?: boolean;
    keys?: { start: string; end: string };
  },
): FieldError[] {
  const keys = opts.keys ?? { start: 'start_date', end: 'end_date' };
  const errors: FieldError[] = [];
  const start = d.start_date || null;
  const end = d.end_date || null;
  if (!start) errors.push({ key: keys.start, message: msg('validation.required') });
  if (!end && opts.endRequired !== false) errors.push({ key: keys.end, message: msg('validation.required') });
  if (start && !opts.allowPastStart && start < opts.today)
    errors.push({ key: keys.start, message: msg('validation.start_not_past') });
  if (end && end < opts.today) errors.push({ key: keys.end, message: msg('contracts.errors.end_not_past') });
  if (start && end && end <= start)
    errors.push({ key: keys.end, message: msg('validation.end_after_start') });
  const p = opts.product;
  if (p && start && start < p.effective_start_date)
    errors.push({
      key: keys.start,
      message: msg('contracts.errors.before_product_start', { date: p.effective_start_date }),
    });
  if (p && p.effective_end_date) {
    if (end && end > p.effective_end_date)
      errors.push({
        key: keys.end,
        message: msg('contracts.errors.after_product_end', { date: p.effective_end_date }),
      });
    if (!end)
      errors.push({
        key: keys.end,
        message: msg('contracts.errors.after_product_end', { date: p.effective_end_date }),
      });
  }
  // One message per field is enough for a person; keep the first.
  const seen = new Set<string>();
  return errors.filter((e) => (seen.has(e.key) ? false : (seen.add(e.key), true)));
}

/** The period of a contract against today. */
export function contractPeriod(
  c: { start_date: string; end_date: string | null },
  today: string,
): ContractPeriod {
  if (c.start_date > today) return 'future';
  if (c.end_date && c.end_date < today) return 'expired';
  return 'current';
}

// ---------------------------------------------------------------- a campus's contracts tab

/** A contract the tab acts on, by its public id. */
export const contractIdSchema = z.object({ contract_id: z.string().min(1).max(40) });

/** Archive or activate a contract from its detail. */
export const contractStatusFormSchema = contractStatusSchema.merge(contractIdSchema);

/** Clone a contract (new dates, optionally another campus). */
export const cloneContractFormSchema = cloneContractSchema.merge(contractIdSchema);
