/** Invoice list and detail queries (spec 002 s.7: GET invoices, GET invoices/{id}). Pure. */
import { z } from 'zod';
import { INVOICE_STATUSES } from '../../../drizzle/enums';
import { listQuerySchema } from '../list-query';

export const invoiceListQuerySchema = listQuerySchema.extend({
  status: z.enum([...INVOICE_STATUSES, 'all']).optional(),
  client_id: z.string().max(40).optional(),
  campus_id: z.string().max(40).optional(),
  date_from: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
  date_to: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
});
export type InvoiceListQuery = z.infer<typeof invoiceListQuerySchema>;

/** Invoice policy paging: 25 per page (spec 001 s.9). */
export const INVOICE_POLICIES_PER_PAGE = 25;

export const invoiceItemsQuerySchema = z.object({
  page: z.coerce.number().int().min(1).catch(1).default(1),
  items: z.coerce
    .number()
    .int()
    .min(1)
    .max(500)
    .catch(INVOICE_POLICIES_PER_PAGE)
    .default(INVOICE_POLICIES_PER_PAGE),
});
export type InvoiceItemsQuery = z.infer<typeof invoiceItemsQuerySchema>;
