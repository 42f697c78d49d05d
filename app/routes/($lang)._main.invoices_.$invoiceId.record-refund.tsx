/**
 * /invoices/{invoiceId}/record-refund: finance records money paid back on an invoice (part or all of what
 * was paid and not yet refunded), with its date, how it went, a note and the receipt. Back to the invoice's
 * page (or the `back` address) with a toast.
 */
import {
  json,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/cloudflare';
import { useActionData, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { recordTransactionSchema } from '@server/domain/payments/schema';
import { RECORD_PERMISSION, recordTransaction, transactionFormView } from '@server/domain/payments/record';
import { todayIso } from '@server/domain/validation';
import { formAction } from '~/lib/actions';
import { orNotFound, requirePermissions } from '~/lib/guards.server';
import { pageTitle } from '~/lib/meta';
import { useMessage } from '~/lib/messages';
import { backField, backOf, invoicePagePath } from '~/lib/payments';
import { localePath } from '~/i18n/config';
import { Alert, Card, PageHeader } from '~/components/ui/card';
import { InvoiceMoneyFacts, TransactionForm } from '~/components/payments/transaction-form';

const schema = recordTransactionSchema.merge(backField);

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const ctx = requirePermissions(request, context, RECORD_PERMISSION);
  const view = await orNotFound(transactionFormView(ctx, params.invoiceId ?? '', 'refund'));
  return json({
    ...view,
    today: todayIso(ctx.now),
    back: backOf(request),
    title: pageTitle(context, request, 'payments.record.refund_title'),
  });
}

export const action = (args: ActionFunctionArgs) =>
  formAction({
    schema,
    permission: RECORD_PERMISSION,
    async handle(input, { ctx, params, formData, redirect }) {
      const { back, ...fields } = input;
      const result = await recordTransaction(
        ctx,
        params.invoiceId ?? '',
        'refund',
        fields,
        formData.get('receipt'),
      );
      return redirect(
        back ?? invoicePagePath(result.invoice),
        result.duplicate ? 'payments.toasts.already_recorded' : 'payments.toasts.refund_recorded',
      );
    },
  })(args);

export default function RecordRefund() {
  const { t, i18n } = useTranslation();
  const m = useMessage();
  const { invoice, money, blocked, form_key, today, back } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const cancelTo = localePath(i18n.language, back ?? invoicePagePath(invoice));
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <PageHeader
        title={t('payments.record.refund_title')}
        description={t('payments.record.refund_intro', { number: invoice.number })}
      />
      <Card>
        <InvoiceMoneyFacts
          number={invoice.number}
          client={invoice.client.name}
          currency={invoice.currency}
          money={money}
        />
      </Card>
      {blocked ? (
        <Alert tone="info">{m(blocked)}</Alert>
      ) : (
        <Card>
          <TransactionForm
            id="record-refund"
            schema={schema}
            lastResult={answer?.submission}
            currency={invoice.currency}
            defaults={{
              amount: (money.refundable / 100).toFixed(2),
              paid_on: today,
              method: 'bank_transfer',
            }}
            submitLabel={t('payments.record.refund_submit')}
            cancelTo={cancelTo}
            hidden={{ idempotency_key: form_key, ...(back ? { back } : {}) }}
          />
        </Card>
      )}
    </div>
  );
}
