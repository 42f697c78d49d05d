/** Where the payment pages go back to: a local `back` address, else the invoice's page under its client. */
import { z } from 'zod';
import { recordTransactionSchema } from '@server/domain/payments/schema';
import { isLocalPath } from '@server/domain/validation';

export const backField = z.object({
  back: z
    .string()
    .max(500)
    .optional()
    .transform((v) => (v && isLocalPath(v) ? v : undefined)),
});

export function invoicePagePath(invoice: { id: string; client: { id: string } }): string {
  return `/clients/${invoice.client.id}/invoices/${invoice.id}`;
}

/** The `back` query parameter of a page's address, when it is a local path. */
export function backOf(request: Request): string | null {
  const back = new URL(request.url).searchParams.get('back');
  return back && isLocalPath(back) && back.length <= 500 ? back : null;
}

/** The form of the record-payment and record-refund pages: the transaction and where to go back to. */
export const recordPageSchema = recordTransactionSchema.merge(backField);
