/**
 * Service agreements (spec 001 s.3 Service agreement, s.4, s.5; spec 002 s.7 Service agreements): the
 * inputs of the area as zod schemas, shared by the pages (Conform) and the API. Pure: no server imports.
 *
 * Product row rules (spec 001 s.5): product required; campus required; net price required and numeric;
 * min days required and integer; sale price required and numeric; start date required. Also: sale price
 * not below net price, min days at least 6 (the minimum purchase), end date after start date. Rules that
 * need the database or the clock (campus of this client, product of its company, product dates, start
 * not in the past) are checked by the service.
 */
import { z } from 'zod';
import { isBlank } from '../contacts/schema';
import { minDays, requiredDate, requiredPrice, saleNotBelowNet } from '../contracts/schema';
import { listQuerySchema } from '../list-query';
import { isoDate, msg, optional, poNumber } from '../validation';
import { AGREEMENT_DOCUMENT_KINDS, AGREEMENT_DOCUMENT_MAX_MB, MAX_AGREEMENT_ROWS } from './values';
export { AGREEMENT_DOCUMENT_KINDS, AGREEMENT_DOCUMENT_MAX_MB, MAX_AGREEMENT_ROWS };

export const SERVICE_AGREEMENT_STATUSES = ['pending', 'active', 'inactive'] as const;
export type ServiceAgreementStatus = (typeof SERVICE_AGREEMENT_STATUSES)[number];
export const MAX_AGREEMENT_DOCUMENTS = 20;

const emptyToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);
const ref = z.preprocess(
  (v) => (typeof v === 'string' ? v.trim() : (v ?? '')),
  z
    .string({ invalid_type_error: msg('validation.required') })
    .min(1, msg('validation.required'))
    .max(40, msg('validation.max', { length: 40 })),
);
const optionalDate = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v === null ? undefined : v),
  isoDate.optional(),
);

function endAfterStart(d: { start_date?: string | null; end_date?: string | null }, ctx: z.RefinementCtx) {
  if (d.start_date && d.end_date && d.end_date <= d.start_date)
    ctx.addIssue({ code: 'custom', path: ['end_date'], message: msg('validation.end_after_start') });
}

/** One product row of an agreement. `id` names a row already saved (kept, so its contract is updated). */
export const agreementRowSchema = z
  .object({
    id: z.preprocess(emptyToUndefined, z.coerce.number().int().positive().optional()),
    product_id: ref,
    campus_id: ref,
    net_price: requiredPrice,
    min_days: minDays,
    sale_price: requiredPrice,
    start_date: requiredDate,
    end_date: optionalDate,
    po_number: optional(poNumber),
  })
  .superRefine((d, ctx) => {
    saleNotBelowNet(d, ctx);
    endAfterStart(d, ctx);
  });
export type AgreementRowInput = z.infer<typeof agreementRowSchema>;

/**
 * The rows of a form: a row left entirely blank is no row (a form without JavaScript always shows some
 * blank rows); blank rows keep their index while validating, so errors stay on the right row.
 */
export const agreementRowsSchema = z
  .array(
    z.preprocess(
      (v) => (isBlank(typeof v === 'object' && v ? { ...v, id: undefined } : v) ? undefined : v),
      agreementRowSchema.optional(),
    ),
  )
  .max(MAX_AGREEMENT_ROWS, msg('service_agreements.errors.too_many_rows', { max: MAX_AGREEMENT_ROWS }))
  .optional()
  .default([])
  .transform((rows) => rows.filter((r): r is AgreementRowInput => !!r));

const agreementFields = {
  name: z.preprocess(
    (v) => (typeof v === 'string' ? v.replace(/\s+/g, ' ').trim() : (v ?? '')),
    z
      .string({ invalid_type_error: msg('validation.required') })
      .min(1, msg('validation.required'))
      .max(150, msg('validation.max', { length: 150 })),
  ),
  insurer_id: ref,
  start_date: requiredDate,
  end_date: optionalDate,
  default_product_id: z.preprocess(emptyToUndefined, z.string().max(40).optional()),
  rows: agreementRowsSchema,
};

/** What happens on saving: `save` keeps a new agreement pending, `approve` makes it active (contracts). */
export const SAVE_ACTIONS = ['save', 'approve'] as const;
export type SaveAction = (typeof SAVE_ACTIONS)[number];
const saveAction = z.preprocess(
  (v) => (v === true || v === 'true' ? 'approve' : v === false || v === undefined || v === '' ? 'save' : v),
  z.enum(SAVE_ACTIONS),
);

/** service-agreements/add (save, or save and approve). */
export const createAgreementSchema = z
  .object({ client_id: ref, ...agreementFields, approve: saveAction.optional() })
  .superRefine(endAfterStart);
export type CreateAgreementInput = z.infer<typeof createAgreementSchema>;

/** service-agreements/{id}/update (update, or update and approve/activate). */
export const updateAgreementSchema = z
  .object({ ...agreementFields, approve: saveAction.optional() })
  .superRefine(endAfterStart);
export type UpdateAgreementInput = z.infer<typeof updateAgreementSchema>;

/** service-agreements/{id}/default-product. */
export const defaultProductSchema = z.object({
  product_id: z.preprocess(emptyToUndefined, ref.nullable().optional()),
});

/** service-agreements/{id}/contracts/add: one more product row (a contract when the agreement is active). */
export const addAgreementContractSchema = agreementRowSchema;

/** service-agreements/{id}/status/update: activate (contracts made or reactivated) or deactivate. */
export const agreementStatusSchema = z.object({
  status: z.enum(['active', 'inactive'], { message: msg('validation.required') }),
});

/** service-agreements/{id}/documents/download and remove: the document's index in the list (0-based). */
export const documentIndexSchema = z.object({
  index: z.coerce
    .number({ invalid_type_error: msg('validation.digits') })
    .int()
    .min(0, msg('validation.digits')),
});

export const agreementListQuerySchema = listQuerySchema.extend({
  client_id: z.preprocess(emptyToUndefined, z.string().max(40).optional()),
  status: z.preprocess(emptyToUndefined, z.enum(SERVICE_AGREEMENT_STATUSES).optional()),
});
export type AgreementListQuery = z.infer<typeof agreementListQuerySchema>;

/** A valid agreement is one whose start_date falls in the current calendar year (spec 002 s.7). */
export function isValidAgreement(startDate: string, today: string): boolean {
  return startDate.slice(0, 4) === today.slice(0, 4);
}

/** A document of an agreement, by its position in the list (its removal). */
export const agreementDocumentIndexSchema = z.object({ index: z.coerce.number().int().min(0) });
