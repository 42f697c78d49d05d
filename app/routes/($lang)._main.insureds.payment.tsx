/**
 * /insureds/payment: paying what an amendment charged (docs/decisions/after-the-sale.md, "Amendments"). Without
 * `?invoice=`, the supplementary invoices of amendments still to pay (in the user's view); with
 * `?invoice={id}`, that invoice and the two ways to pay it, through checkout's own payment paths: by card
 * (the checkout's payment step, which posts the signed form to the card provider's hosted page) or by bank
 * transfer (the bank transfer start page, with the reference to quote).
 */
import { json, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare';
import { useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { INVOICE_ACCESS, checkoutInvoice } from '~/lib/checkout.server';
import { unpaidSupplementaryInvoices } from '~/lib/amendments.server';
import { pageLoader } from '~/lib/loaders.server';
import { invoiceRefQuerySchema } from '~/lib/schemas.server';
import { pageTitle } from '~/lib/meta';
import { localePath } from '~/i18n/config';
import { formatMinor } from '~/lib/money';
import { britishDate } from '~/lib/dates';
import { Alert, Card, PageHeader } from '~/components/ui/card';
import { ButtonLink } from '~/components/ui/button';
import { EmptyState } from '~/components/ui/list-controls';
import { InvoiceFacts } from '~/components/checkout/checkout-bits';
import { InvoiceLink } from '~/components/invoices/invoice-link';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: INVOICE_ACCESS,
    query: invoiceRefQuerySchema,
    async load({ ctx, request, context, query }) {
      const title = pageTitle(context, request, 'amendments.payment.title');
      if (query.invoice)
        return json({ title, invoice: await checkoutInvoice(ctx, query.invoice), invoices: [] });
      return json({ title, invoice: null, invoices: await unpaidSupplementaryInvoices(ctx) });
    },
  })(args);

export default function InsuredsPayment() {
  const { t, i18n } = useTranslation();
  const { invoice, invoices } = useLoaderData<typeof loader>();
  const lp = (path: string) => localePath(i18n.language, path);
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <PageHeader title={t('amendments.payment.title')} description={t('amendments.payment.intro')} />
      {invoice ? (
        <>
          {invoice.status === 'paid' ? (
            <Alert tone="success">
              <InvoiceLink
                invoice={invoice}
                sentence={t('amendments.payment.paid', { number: invoice.number })}
              />
            </Alert>
          ) : null}
          <Card>
            <InvoiceFacts invoice={invoice} />
          </Card>
          {invoice.status !== 'paid' ? (
            <Card>
              <p className="mb-4 text-sm text-slate-700">
                {t('amendments.payment.choose', {
                  amount: formatMinor(invoice.total_minor - invoice.paid_minor, invoice.currency),
                })}
              </p>
              <div className="flex flex-wrap gap-3">
                <ButtonLink to={lp(`/cart/checkout?invoice=${invoice.id}&pay=card`)}>
                  {t('amendments.payment.card')}
                </ButtonLink>
                <ButtonLink
                  to={lp(`/payment/bank-transfer/pay-invoice/${invoice.id}/start`)}
                  variant="secondary"
                >
                  {t('amendments.payment.bank')}
                </ButtonLink>
              </div>
            </Card>
          ) : null}
        </>
      ) : invoices.length ? (
        <Card flush>
          <ul className="divide-y divide-slate-100">
            {invoices.map((i) => (
              <li key={i.id} className="flex flex-wrap items-center justify-between gap-3 px-6 py-4">
                <div>
                  <InvoiceLink number={i.number} clientId={i.client_id} invoiceId={i.id} variant="value" />
                  <div className="text-sm text-slate-600">
                    {t('amendments.payment.row', { client: i.client, due: britishDate(i.due_at) })}
                  </div>
                </div>
                <div className="flex items-center gap-3">
                  <span className="font-semibold">
                    {formatMinor(i.total_minor - i.paid_minor, i.currency)}
                  </span>
                  <ButtonLink to={lp(`/insureds/payment?invoice=${i.id}`)}>
                    {t('amendments.result.pay')}
                  </ButtonLink>
                </div>
              </li>
            ))}
          </ul>
        </Card>
      ) : (
        <EmptyState
          message={t('amendments.payment.none')}
          action={
            <ButtonLink to={lp('/insureds')} variant="secondary">
              {t('amendments.back_to_list')}
            </ButtonLink>
          }
        />
      )}
    </div>
  );
}
