/** /invoices/downloads/{job}/zip: the finished invoices ZIP of a job the user started, streamed from R2. */
import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { INVOICE_ACCESS, downloadInvoicesZip } from '~/lib/invoices.server';
import { orNotFound, requirePermissions } from '~/lib/guards.server';

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const ctx = requirePermissions(request, context, INVOICE_ACCESS);
  return orNotFound(downloadInvoicesZip(ctx, params.jobId!));
}
