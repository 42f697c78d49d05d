/**
 * /clients/{id}/invoices/{invoiceId}: an invoice under its client (spec 000 s.2). The invoice must be the
 * client's and the reader's to see. A school user reaches the invoices of their client here, also one of
 * a campus they may not open (one they checked out themselves).
 */
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare';
import { useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { requirePermissions } from '~/lib/guards.server';
import { INVOICE_ACCESS, invoicePageData } from '~/lib/invoices.server';
import { invoicePageAction } from '~/lib/invoice-actions.server';
import { InvoicePage } from '~/components/invoices/invoice-page';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.invoice.number ?? '' }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const ctx = requirePermissions(request, context, INVOICE_ACCESS);
  return invoicePageData(ctx, request, { client: params.id ?? '' }, params.invoiceId ?? '');
}

export const action = (args: ActionFunctionArgs) =>
  invoicePageAction(args, `/clients/${args.params.id}/invoices/${args.params.invoiceId}`);

export default function ClientInvoice() {
  const { t } = useTranslation();
  const { invoice } = useLoaderData<typeof loader>();
  return (
    <InvoicePage
      invoice={invoice}
      back={{ to: `/clients/${invoice.client.id}/invoices`, label: t('invoices.actions.back') }}
      creditNoteHref={(id) => `/clients/${invoice.client.id}/invoices/${id}`}
    />
  );
}
