/** GET /campuses/{id}/invoices/export.xlsx: the campus's invoices matching the filters as an Excel file. */
import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { orNotFound, requirePermissions } from '~/lib/guards.server';
import { INVOICE_ACCESS, findCampus, invoiceExportResponse } from '~/lib/invoices.server';

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const ctx = requirePermissions(request, context, INVOICE_ACCESS);
  const { campus } = await orNotFound(findCampus(ctx, params.id ?? '', INVOICE_ACCESS));
  return invoiceExportResponse(ctx, request, context, `/campuses/${params.id}/invoices`, {
    campus_id: campus.public_id,
  });
}
