/** GET /clients/{id}/campuses/{campusId}/invoices/export.xlsx: the campus tab's invoices as an Excel file. */
import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { orNotFound, requirePermissions } from '~/lib/guards.server';
import { INVOICE_ACCESS, findCampus, invoiceExportResponse } from '~/lib/invoices.server';

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const ctx = requirePermissions(request, context, INVOICE_ACCESS);
  const { campus } = await orNotFound(findCampus(ctx, params.campusId ?? '', INVOICE_ACCESS));
  return invoiceExportResponse(
    ctx,
    request,
    context,
    `/clients/${params.id}/campuses/${params.campusId}/invoices`,
    {
      campus_id: campus.public_id,
    },
  );
}
