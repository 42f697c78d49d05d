/** GET /clients/{id}/invoices/export.xlsx: the client's invoices matching the tab's filters as an Excel file. */
import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { INVOICE_ACCESS, findClient, invoiceExportResponse } from '~/lib/invoices.server';
import { pageLoader } from '~/lib/loaders.server';
import { idSchema } from '~/lib/schemas.server';

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: INVOICE_ACCESS,
    params: idSchema,
    async load({ ctx, request, context, params }) {
      const client = await findClient(ctx, params.id, INVOICE_ACCESS);
      return invoiceExportResponse(ctx, request, context, `/clients/${params.id}/invoices`, {
        client_id: client.public_id,
      });
    },
  })(args);
