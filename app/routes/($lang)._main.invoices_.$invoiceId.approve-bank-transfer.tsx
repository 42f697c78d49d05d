/**
 * /invoices/{invoiceId}/approve-bank-transfer: finance approves a bank transfer with the date the money
 * arrived ('Payment date is required', 'Payment date cannot be in future'): the transfer pays the balance.
 * Back to the invoice's page (or the `back` address) with a toast.
 */
import {
  json,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/cloudflare';
import { useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { getFormProps } from '@conform-to/react';
import { useTranslation } from 'react-i18next';
import { APPROVE_PERMISSION, approveBankTransfer } from '@server/domain/payments/service';
import { transactionFormView } from '@server/domain/payments/record';
import { todayIso } from '@server/domain/formats';
import { formAction } from '~/lib/actions';
import { pageTitle } from '~/lib/meta';
import { useMessage } from '~/lib/messages';
import { backOf, invoicePagePath } from '~/lib/payments';
import { approveBankTransferPageSchema, constraintsOf, idsSchema } from '~/lib/schemas.server';
import { useSchemaForm } from '~/lib/schema-form';
import { localePath } from '~/i18n/config';
import { AppForm, Field, FormErrors } from '~/components/forms';
import { Button, ButtonLink } from '~/components/ui/button';
import { Alert, Card, PageHeader } from '~/components/ui/card';
import { InvoiceMoneyFacts } from '~/components/payments/transaction-form';
import { pageLoader } from '~/lib/loaders.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: APPROVE_PERMISSION,
    params: idsSchema('invoiceId'),
    async load({ ctx, request, context, params }) {
      const view = await transactionFormView(ctx, params.invoiceId, 'payment');
      return json({
        ...view,
        today: todayIso(ctx.now),
        back: backOf(request),
        constraint: constraintsOf(approveBankTransferPageSchema),
        title: pageTitle(context, request, 'payments.approve.title'),
      });
    },
  })(args);

export const action = (args: ActionFunctionArgs) =>
  formAction({
    params: idsSchema('invoiceId'),
    schema: approveBankTransferPageSchema,
    permission: APPROVE_PERMISSION,
    async handle(input, { ctx, params, redirect }) {
      const result = await approveBankTransfer(ctx, params.invoiceId, { date: input.date });
      return redirect(input.back ?? invoicePagePath(result.invoice), 'payments.toasts.approved');
    },
  })(args);

export default function ApproveBankTransfer() {
  const { t, i18n } = useTranslation();
  const m = useMessage();
  const { invoice, money, blocked, today, back, constraint } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>()?.submission;
  const busy = useNavigation().state === 'submitting';
  const [form, fields] = useSchemaForm({
    id: 'approve-bank-transfer',
    schema: () => import('@server/domain/payments/schema').then((m) => m.approveBankTransferPageSchema),
    lastResult,
    defaultValue: { date: today },
    constraint,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <PageHeader
        title={t('payments.approve.title')}
        description={t('payments.approve.intro', {
          number: invoice.number,
          reference: invoice.payment_reference,
        })}
      />
      <Card>
        <InvoiceMoneyFacts invoice={invoice} money={money} />
      </Card>
      {blocked ? (
        <Alert tone="info">{m(blocked)}</Alert>
      ) : (
        <Card>
          <AppForm method="post" {...getFormProps(form)} className="space-y-5">
            <FormErrors errors={form.errors} />
            {back ? <input type="hidden" name="back" value={back} /> : null}
            <div className="max-w-xs">
              <Field label={t('payments.approve.date')} field={fields.date} type="date" />
            </div>
            <div className="flex flex-wrap gap-3">
              <Button type="submit" disabled={busy}>
                {t('payments.approve.submit')}
              </Button>
              <ButtonLink
                to={localePath(i18n.language, back ?? invoicePagePath(invoice))}
                variant="secondary"
              >
                {t('common.cancel')}
              </ButtonLink>
            </div>
          </AppForm>
        </Card>
      )}
    </div>
  );
}
