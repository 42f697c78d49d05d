/** GET /invoices/{invoiceId}/excel: the invoice as Excel, named by its number. */
import type { LoaderFunctionArgs } from '@remix-run/cloudflare';

import { INVOICE_ACCESS, fileResponse, invoiceFile } from '~/lib/invoices.server';
import { pageLoader } from '~/lib/loaders.server';
import { idsSchema } from '~/lib/schemas.server';
export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: INVOICE_ACCESS,
    params: idsSchema('invoiceId'),
    async load({ ctx, params, lang }) {
      return fileResponse(await invoiceFile({ ...ctx, lang }, params.invoiceId, 'excel'));
    },
  })(args);
