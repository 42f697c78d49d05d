import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { INVOICE_ACCESS } from '@server/domain/invoices/queries';
import { receiptResponse } from '@server/domain/payments/record';
import { orNotFound, requirePermissions } from '~/lib/guards.server';

/** GET /invoices/{invoiceId}/transactions/{transactionId}/receipt: a transaction's receipt from R2, for who may read the invoice. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const ctx = requirePermissions(request, context, INVOICE_ACCESS);
  return orNotFound(receiptResponse(ctx, params.invoiceId ?? '', params.transactionId ?? ''));
}
