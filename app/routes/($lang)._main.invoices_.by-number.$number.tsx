/**
 * /invoices/by-number/{number}: an invoice or credit note named only by its number (an audit entry, a
 * statement's "Credits INV…") leads to its page under its client. An invoice the reader may not see is
 * the 404 page, as its own page would be (docs/decisions/billing.md, "Invoice numbers are links").
 */
import { redirect, type LoaderFunctionArgs } from '@remix-run/cloudflare';
import { invoicePath } from '~/components/invoices/invoice-link';
import { localePath } from '~/i18n/config';
import { INVOICE_ACCESS, invoiceByNumber } from '~/lib/invoices.server';
import { pageLoader } from '~/lib/loaders.server';
import { invoiceNumberParamsSchema } from '~/lib/schemas.server';

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: INVOICE_ACCESS,
    params: invoiceNumberParamsSchema,
    async load({ ctx, params, lang }) {
      const invoice = await invoiceByNumber(ctx, params.number);
      return redirect(localePath(lang, invoicePath(invoice.client_id, invoice.id)));
    },
  })(args);
