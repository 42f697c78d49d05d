/** GET /clients/{id}/invoices/export.xlsx: the client's invoices matching the tab's filters as an Excel file. */
import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { orNotFound, requirePermissions } from '~/lib/guards.server';
import { INVOICE_ACCESS, findClient, invoiceExportResponse } from '~/lib/invoices.server';

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const ctx = requirePermissions(request, context, INVOICE_ACCESS);
  const client = await orNotFound(findClient(ctx, params.id ?? '', INVOICE_ACCESS));
  return invoiceExportResponse(ctx, request, context, `/clients/${params.id}/invoices`, {
    client_id: client.public_id,
  });
}
