/** GET /invoices/{invoiceId}/excel: the invoice as Excel, named by its number. */
import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { langOf, orNotFound, requirePermissions } from '~/lib/guards.server';

import { INVOICE_ACCESS, fileResponse, invoiceFile } from '~/lib/invoices.server';
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const ctx = requirePermissions(request, context, INVOICE_ACCESS);
  const lang = langOf(request);
  return fileResponse(await orNotFound(invoiceFile({ ...ctx, lang }, params.invoiceId ?? '', 'excel')));
}
