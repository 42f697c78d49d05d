/** /campuses/{id}/invoices/{invoiceId}: an invoice under its campus (spec 000 s.2), the same page. */
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare';
import { useLoaderData, useParams } from '@remix-run/react';
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
      return invoicePageData(ctx, request, { campus: params.id }, params.invoiceId);
    },
  })(args);

export const action = (args: ActionFunctionArgs) =>
  invoicePageAction(args, `/campuses/${args.params.id}/invoices/${args.params.invoiceId}`);

export default function CampusInvoice() {
  const { t } = useTranslation();
  const { invoice, threads, start } = useLoaderData<typeof loader>();
  const { id } = useParams();
  return (
    <InvoicePage
      invoice={invoice}
      back={{ to: `/campuses/${id}/invoices`, label: t('invoices.actions.back') }}
      creditNoteHref={(note) => `/campuses/${id}/invoices/${note}`}
    >
      <ThreadLinks threads={threads} start={start} />
    </InvoicePage>
  );
}
