/** generate-invoices (spec 002 s.7: clients/{id}/generate-invoices, campuses/{id}/generate-invoices). Pure. */
import { z } from 'zod';
import { isoDate } from '../validation';

/** The period (both days included) of the policies on account to invoice, and optionally one group. */
export const generateInvoicesSchema = z.object({
  from: isoDate,
  to: isoDate,
  group: z
    .string()
    .trim()
    .max(100)
    .optional()
    .transform((v) => v || undefined),
});
export type GenerateInvoicesInput = z.infer<typeof generateInvoicesSchema>;
