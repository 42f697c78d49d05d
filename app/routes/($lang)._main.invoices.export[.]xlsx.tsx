/** GET /invoices/export.xlsx?{the list's filters}: every invoice matching them as an Excel file. */
import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { requirePermissions } from '~/lib/guards.server';
import { INVOICE_ACCESS, invoiceExportResponse } from '~/lib/invoices.server';

export async function loader({ request, context }: LoaderFunctionArgs) {
  const ctx = requirePermissions(request, context, INVOICE_ACCESS);
  return invoiceExportResponse(ctx, request, context, '/invoices');
}
