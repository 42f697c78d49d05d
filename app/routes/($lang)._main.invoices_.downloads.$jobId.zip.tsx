/** /invoices/downloads/{job}/zip: the finished invoices ZIP of a job the user started, streamed from R2. */
import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { INVOICE_ACCESS, downloadInvoicesZip } from '~/lib/invoices.server';
import { pageLoader } from '~/lib/loaders.server';
import { idsSchema } from '~/lib/schemas.server';

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: INVOICE_ACCESS,
    params: idsSchema('jobId'),
    load({ ctx, params }) {
      return downloadInvoicesZip(ctx, params.jobId);
    },
  })(args);
