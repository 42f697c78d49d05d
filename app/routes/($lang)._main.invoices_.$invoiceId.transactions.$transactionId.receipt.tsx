import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { INVOICE_ACCESS } from '@server/domain/invoices/queries';
import { receiptResponse } from '@server/domain/payments/record';
import { idsSchema } from '~/lib/schemas.server';
import { pageLoader } from '~/lib/loaders.server';

/** GET /invoices/{invoiceId}/transactions/{transactionId}/receipt: a transaction's receipt from R2, for who may read the invoice. */
export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: INVOICE_ACCESS,
    params: idsSchema('invoiceId', 'transactionId'),
    load({ ctx, params }) {
      return receiptResponse(ctx, params.invoiceId, params.transactionId);
    },
  })(args);
