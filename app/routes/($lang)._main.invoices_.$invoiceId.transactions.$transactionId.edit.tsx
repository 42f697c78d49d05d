/**
 * /invoices/{invoiceId}/transactions/{transactionId}/edit: finance corrects a recorded payment or refund
 * (date, amount, method, note, a new receipt) with the rules of recording it; logged before and after.
 * Card answers are the card provider's record and are not edited.
 */
import {
  json,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/cloudflare';
import { useActionData, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { RECORD_PERMISSION, editTransaction, transactionForEdit } from '@server/domain/payments/record';
import { formAction } from '~/lib/actions';
import { pageTitle } from '~/lib/meta';
import { backOf, invoicePagePath } from '~/lib/payments';
import { constraintsOf, editTransactionPageSchema, idsSchema } from '~/lib/schemas.server';
import { localePath } from '~/i18n/config';
import { Alert, Card, PageHeader } from '~/components/ui/card';
import { TransactionForm } from '~/components/payments/transaction-form';
import { pageLoader } from '~/lib/loaders.server';
import { InvoiceLink } from '~/components/invoices/invoice-link';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: RECORD_PERMISSION,
    params: idsSchema('invoiceId', 'transactionId'),
    async load({ ctx, request, context, params }) {
      const view = await transactionForEdit(ctx, params.invoiceId, params.transactionId);
      return json({
        ...view,
        back: backOf(request),
        constraint: constraintsOf(editTransactionPageSchema),
        title: pageTitle(context, request, 'payments.edit.title'),
      });
    },
  })(args);

export const action = (args: ActionFunctionArgs) =>
  formAction({
    params: idsSchema('invoiceId'),
    schema: editTransactionPageSchema,
    permission: RECORD_PERMISSION,
    async handle(input, { ctx, params, formData, redirect }) {
      const { back, ...fields } = input;
      const result = await editTransaction(ctx, params.invoiceId, fields, formData.get('receipt'));
      return redirect(back ?? invoicePagePath(result.invoice), 'payments.toasts.edited');
    },
  })(args);

export default function EditTransaction() {
  const { t, i18n } = useTranslation();
  const { invoice, transaction, editable, back, constraint } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const cancelTo = localePath(i18n.language, back ?? invoicePagePath(invoice));
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <PageHeader
        title={t(transaction.kind === 'refund' ? 'payments.edit.refund_title' : 'payments.edit.title')}
        description={
          <InvoiceLink
            number={invoice.number}
            href={invoicePagePath(invoice)}
            sentence={t('payments.edit.intro', { number: invoice.number })}
          />
        }
      />
      {editable ? (
        <Card>
          <TransactionForm
            id="edit-transaction"
            schema={() => import('@server/domain/payments/schema').then((m) => m.editTransactionPageSchema)}
            constraint={constraint}
            lastResult={answer?.submission}
            currency={invoice.currency}
            defaults={{
              amount: (transaction.amount_minor / 100).toFixed(2),
              paid_on: transaction.paid_on ?? '',
              method: transaction.method ?? 'bank_transfer',
              note: transaction.note ?? '',
            }}
            submitLabel={t('payments.edit.submit')}
            cancelTo={cancelTo}
            hidden={{ transaction_id: transaction.id, ...(back ? { back } : {}) }}
            currentReceipt={transaction.receipt?.name ?? null}
          />
        </Card>
      ) : (
        <Alert tone="info">{t('payments.errors.not_editable')}</Alert>
      )}
    </div>
  );
}
