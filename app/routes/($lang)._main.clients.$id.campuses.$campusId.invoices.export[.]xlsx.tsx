/** GET /clients/{id}/campuses/{campusId}/invoices/export.xlsx: the campus tab's invoices as an Excel file. */
import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { INVOICE_ACCESS, findCampus, invoiceExportResponse } from '~/lib/invoices.server';
import { pageLoader } from '~/lib/loaders.server';
import { idsSchema } from '~/lib/schemas.server';

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: INVOICE_ACCESS,
    params: idsSchema('id', 'campusId'),
    async load({ ctx, request, context, params }) {
      const { campus } = await findCampus(ctx, params.campusId, INVOICE_ACCESS);
      return invoiceExportResponse(
        ctx,
        request,
        context,
        `/clients/${params.id}/campuses/${params.campusId}/invoices`,
        {
          campus_id: campus.public_id,
        },
      );
    },
  })(args);
