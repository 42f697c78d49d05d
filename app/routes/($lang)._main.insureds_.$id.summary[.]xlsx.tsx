/**
 * /insureds/{id}/summary.xlsx: the downloadable summary of an order (its policies and its invoice), an
 * .xlsx named by the invoice number (spec 000 s.3), in the reader's language.
 */
import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { INVOICE_ACCESS, invoiceSummaryWorkbook } from '~/lib/checkout.server';
import { XLSX_CONTENT_TYPE } from '@server/platform/xlsx';
import { pageLoader } from '~/lib/loaders.server';
import { idSchema } from '~/lib/schemas.server';

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: INVOICE_ACCESS,
    params: idSchema,
    async load({ ctx, params }) {
      const { filename, body } = await invoiceSummaryWorkbook(ctx, params.id);
      return new Response(body, {
        headers: {
          'content-type': XLSX_CONTENT_TYPE,
          'content-disposition': `attachment; filename="${filename}"`,
          'cache-control': 'no-store',
        },
      });
    },
  })(args);
