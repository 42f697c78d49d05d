/** Invoice list and detail queries (spec 002 s.7: GET invoices, GET invoices/{id}) and the invoice forms. Pure. */
import { z } from 'zod';
import { INVOICE_PAYMENT_METHODS } from '../../../drizzle/schema/ordering-enums';
import { INVOICE_LIST_STATUSES } from './values';
import { INVOICE_TYPES } from '../../../drizzle/schema/policy-enums';
import { itemsParam, listQuerySchema, pageParam } from '../list-query';
import { msg } from '../messages';
import { isoDate } from '../validation';

const isoDay = isoDate.optional();

export { INVOICE_LIST_STATUSES, type InvoiceListStatus } from './values';

export const invoiceListQuerySchema = listQuerySchema.extend({
  status: z.enum([...INVOICE_LIST_STATUSES, 'all']).optional(),
  /** The invoice (or credit note) number, or a part of it. */
  number: z.string().trim().max(40).optional(),
  client_id: z.string().max(40).optional(),
  campus_id: z.string().max(40).optional(),
  type: z.enum(INVOICE_TYPES).optional(),
  currency: z
    .string()
    .regex(/^[A-Za-z]{3}$/)
    .optional(),
  payment_method: z.enum(INVOICE_PAYMENT_METHODS).optional(),
  date_from: isoDay,
  date_to: isoDay,
  due_from: isoDay,
  due_to: isoDay,
});
export type InvoiceListQuery = z.infer<typeof invoiceListQuerySchema>;

/** Invoice policy paging: 25 per page (spec 001 s.9). */
export const INVOICE_POLICIES_PER_PAGE = 25;

export const invoiceItemsQuerySchema = z.object({
  page: pageParam,
  items: itemsParam(INVOICE_POLICIES_PER_PAGE),
});
export type InvoiceItemsQuery = z.infer<typeof invoiceItemsQuerySchema>;

/** Most invoices one download (ZIP) made in the request holds; more go through a queued job. */
export const MAX_DOWNLOAD_INVOICES = 200;
/** Most invoices one ZIP job (invoices/zip-job.ts) takes. */
export const MAX_ZIP_INVOICES = 5000;
export const INVOICE_FORMATS = ['pdf', 'excel'] as const;
export type InvoiceFormat = (typeof INVOICE_FORMATS)[number];

/**
 * POST invoices/download: the invoices (public ids) and the format; the answer is one ZIP up to
 * MAX_DOWNLOAD_INVOICES, a queued job above (invoices/zip-job.ts), at most MAX_ZIP_INVOICES.
 */
export const invoiceDownloadSchema = z.object({
  ids: z
    .array(z.string().min(1).max(40))
    .min(1)
    .max(MAX_ZIP_INVOICES, msg('invoices.errors.too_many', { max: MAX_ZIP_INVOICES })),
  format: z.enum(INVOICE_FORMATS),
});
export type InvoiceDownloadInput = z.infer<typeof invoiceDownloadSchema>;

const reason = z
  .string({ required_error: msg('invoices.errors.reason_required') })
  .trim()
  .min(1, msg('invoices.errors.reason_required'))
  .max(500, msg('validation.max', { length: 500 }));

/** POST invoices/{id}/void. */
export const voidInvoiceSchema = z.object({ reason });
export type VoidInvoiceInput = z.infer<typeof voidInvoiceSchema>;

/** POST invoices/{id}/credit-note: the whole invoice (no items) or the chosen lines, with a reason. */
export const creditNoteSchema = z.object({
  reason,
  items: z.preprocess(
    (v) => (v === undefined || v === '' ? [] : Array.isArray(v) ? v : [v]),
    z.array(z.coerce.number().int().positive()).max(10_000),
  ),
});
export type CreditNoteInput = z.infer<typeof creditNoteSchema>;
