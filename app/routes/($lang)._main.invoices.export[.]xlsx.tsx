/** GET /invoices/export.xlsx?{the list's filters}: every invoice matching them as an Excel file. */
import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { INVOICE_ACCESS, invoiceExportResponse } from '~/lib/invoices.server';
import { pageLoader } from '~/lib/loaders.server';

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: INVOICE_ACCESS,
    load({ ctx, request, context }) {
      return invoiceExportResponse(ctx, request, context, '/invoices');
    },
  })(args);
