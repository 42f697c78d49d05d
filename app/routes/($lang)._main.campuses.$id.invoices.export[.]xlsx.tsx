/** GET /campuses/{id}/invoices/export.xlsx: the campus's invoices matching the filters as an Excel file. */
import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { INVOICE_ACCESS, findCampus, invoiceExportResponse } from '~/lib/invoices.server';
import { pageLoader } from '~/lib/loaders.server';
import { idSchema } from '~/lib/schemas.server';

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: INVOICE_ACCESS,
    params: idSchema,
    async load({ ctx, request, context, params }) {
      const { campus } = await findCampus(ctx, params.id, INVOICE_ACCESS);
      return invoiceExportResponse(ctx, request, context, `/campuses/${params.id}/invoices`, {
        campus_id: campus.public_id,
      });
    },
  })(args);
