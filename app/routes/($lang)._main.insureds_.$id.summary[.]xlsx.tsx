/**
 * /insureds/{id}/summary.xlsx: the downloadable summary of an order (its policies and its invoice), an
 * .xlsx named by the invoice number (spec 000 s.3), in the reader's language.
 */
import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { INVOICE_ACCESS, invoiceSummaryWorkbook } from '~/lib/checkout.server';
import { XLSX_CONTENT_TYPE } from '@server/platform/xlsx';
import { orNotFound, requirePermissions } from '~/lib/guards.server';

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const ctx = requirePermissions(request, context, INVOICE_ACCESS);
  const { filename, body } = await orNotFound(invoiceSummaryWorkbook(ctx, params.id!));
  return new Response(body, {
    headers: {
      'content-type': XLSX_CONTENT_TYPE,
      'content-disposition': `attachment; filename="${filename}"`,
      'cache-control': 'no-store',
    },
  });
}
