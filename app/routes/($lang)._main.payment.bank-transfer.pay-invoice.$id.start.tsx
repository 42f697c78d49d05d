/**
 * /payment/bank-transfer/pay-invoice/{id}/start: paying an invoice by bank transfer. Shows the invoice,
 * the company's bank details and the payment reference to quote. The pending transfer is recorded when
 * the checkout chose bank transfer, or here with "Pay by bank transfer" (payment/bank-transfer/
 * pay-invoice/{id}/start). Staff approve it later with the date the money arrived (on the confirmation).
 */
import {
  json,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/cloudflare';
import { useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { emptySchema, idSchema } from '~/lib/schemas.server';
import { formAction } from '~/lib/actions';
import { INVOICE_ACCESS, bankTransferView, startBankTransfer } from '~/lib/checkout.server';
import { pageTitle } from '~/lib/meta';
import { localePath } from '~/i18n/config';
import { useMessage } from '~/lib/messages';
import { AppForm } from '~/components/fields';
import { Alert, Card, PageHeader } from '~/components/ui/card';
import { Button, ButtonLink } from '~/components/ui/button';
import { BankDetails, InvoiceStatusBadge } from '~/components/checkout/checkout-bits';
import { InvoiceLink } from '~/components/invoices/invoice-link';
import { formatMinor } from '~/lib/money';
import { britishDate } from '~/lib/dates';
import { pageLoader } from '~/lib/loaders.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: INVOICE_ACCESS,
    params: idSchema,
    async load({ ctx, request, context, params }) {
      const view = await bankTransferView(ctx, params.id);
      return json({ ...view, title: pageTitle(context, request, 'checkout.bank.title') });
    },
  })(args);

/** "Pay by bank transfer": records the pending transfer; the page then shows it. */
export const action = (args: ActionFunctionArgs) =>
  formAction({
    params: idSchema,
    schema: emptySchema,
    permission: INVOICE_ACCESS,
    async handle(_input, { ctx, params }) {
      const view = await bankTransferView(ctx, params.id);
      await startBankTransfer(ctx, view.invoice.id, { currency: view.invoice.currency });
    },
  })(args);

export default function BankTransfer() {
  const { t, i18n } = useTranslation();
  const m = useMessage();
  const { invoice, bank_details, transaction } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const busy = useNavigation().state !== 'idle';
  const amount = formatMinor(invoice.total_minor - invoice.paid_minor, invoice.currency);
  const paid = invoice.status === 'paid';
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <PageHeader
        title={t('checkout.bank.title')}
        description={
          <InvoiceLink invoice={invoice} sentence={t('checkout.bank.intro', { number: invoice.number })} />
        }
        actions={
          <ButtonLink
            variant="secondary"
            to={localePath(i18n.language, `/insureds/${invoice.id}/confirmation`)}
          >
            {t('checkout.bank.view_order')}
          </ButtonLink>
        }
      />
      {answer?.error ? <Alert>{m(answer.error)}</Alert> : null}
      {paid ? (
        <Alert tone="success">{t('checkout.bank.paid', { date: britishDate(invoice.paid_at) })}</Alert>
      ) : transaction ? (
        <div data-testid="bank-transfer-pending">
          <Alert tone="info">{t('checkout.bank.pending', { due: britishDate(invoice.due_at) })}</Alert>
        </div>
      ) : null}
      <Card>
        <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
          <h2 className="text-base font-semibold text-slate-900">
            {t('checkout.bank.invoice', { number: invoice.number })}
          </h2>
          <InvoiceStatusBadge status={invoice.status} />
        </div>
        <BankDetails details={bank_details} reference={invoice.payment_reference} amount={amount} />
        <p className="mt-4 text-sm text-slate-600">{t('checkout.bank.quote_reference')}</p>
      </Card>
      {!paid && !transaction ? (
        <Card>
          <p className="mb-4 text-sm text-slate-700">{t('checkout.bank.start_intro')}</p>
          <AppForm method="post">
            <Button type="submit" disabled={busy}>
              {t('checkout.bank.start')}
            </Button>
          </AppForm>
        </Card>
      ) : null}
    </div>
  );
}
