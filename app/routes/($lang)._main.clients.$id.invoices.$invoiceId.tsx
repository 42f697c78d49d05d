/**
 * /clients/{id}/invoices/{invoiceId}: an invoice under its client (spec 000 s.2). The invoice must be the
 * client's and the reader's to see. A school user reaches the invoices of their client here, also one of
 * a campus they may not open (one they checked out themselves).
 */
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare';
import { useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { INVOICE_ACCESS, invoicePageData } from '~/lib/invoices.server';
import { invoicePageAction } from '~/lib/invoice-actions.server';
import { InvoicePage } from '~/components/invoices/invoice-page';
import { ThreadLinks } from '~/components/messages/thread-links';
import { pageLoader } from '~/lib/loaders.server';
import { idsSchema } from '~/lib/schemas.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.invoice.number ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: INVOICE_ACCESS,
    params: idsSchema('id', 'invoiceId'),
    load({ ctx, request, params }) {
      return invoicePageData(ctx, request, { client: params.id }, params.invoiceId);
    },
  })(args);

export const action = (args: ActionFunctionArgs) =>
  invoicePageAction(args, `/clients/${args.params.id}/invoices/${args.params.invoiceId}`);

export default function ClientInvoice() {
  const { t } = useTranslation();
  const { invoice, threads, start } = useLoaderData<typeof loader>();
  return (
    <InvoicePage
      invoice={invoice}
      back={{ to: `/clients/${invoice.client.id}/invoices`, label: t('invoices.actions.back') }}
      creditNoteHref={(id) => `/clients/${invoice.client.id}/invoices/${id}`}
    >
      <ThreadLinks threads={threads} start={start} />
    </InvoicePage>
  );
}
