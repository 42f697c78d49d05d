/** GET /invoices/{invoiceId}/excel: the invoice as Excel, named by its number. */
import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { INVOICE_ACCESS } from '@server/domain/invoices/queries';
import { fileResponse, invoiceFile } from '@server/domain/invoices/files';
import { langOf, orNotFound, requirePermissions } from '~/lib/guards.server';

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const ctx = requirePermissions(request, context, INVOICE_ACCESS);
  const lang = langOf(request);
  return fileResponse(await orNotFound(invoiceFile({ ...ctx, lang }, params.invoiceId ?? '', 'excel')));
}
