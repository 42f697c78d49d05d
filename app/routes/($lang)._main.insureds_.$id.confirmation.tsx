/**
 * /insureds/{id}/confirmation (id = the invoice's public id): what was bought. The policies with their
 * numbers, names, dates and fees (25 a page), the invoice's number, totals and status, its payments, a
 * downloadable summary (.xlsx named by the invoice number), and what can still be done: pay by card or
 * bank transfer while it is unpaid, send the welcome emails, and (staff who may update invoices) approve a
 * bank transfer with the date the money arrived.
 */
import {
  json,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/cloudflare';
import { Link, useActionData, useLoaderData, useNavigation, useSearchParams } from '@remix-run/react';
import { getFormProps } from '@conform-to/react';
import { Field, fieldOf } from '~/components/forms';
import { useTranslation } from 'react-i18next';
import { can } from '@server/domain/access/actor';
import {
  approveBankTransferSchema,
  batchIdSchema,
  constraintsOf,
  invoiceItemsQuerySchema,
  idSchema,
} from '~/lib/schemas.server';
import { useSchemaForm } from '~/lib/schema-form';
import {
  APPROVE_PERMISSION,
  INVOICE_ACCESS,
  WELCOME_PERMISSION,
  approveBankTransfer,
  getInvoice,
  invoiceBatches,
  invoiceTransactions,
  sendWelcomeEmails,
  siblingInvoices,
} from '~/lib/checkout.server';
import { canAny } from '@server/domain/access/actor';
import { intentAction, unreachable } from '~/lib/actions';
import { pageTitle } from '~/lib/meta';
import { localePath } from '~/i18n/config';
import { useMessage } from '~/lib/messages';
import { formatDateTime } from '~/lib/dates';
import { AppForm, FormErrors } from '~/components/fields';
import { Alert, Card, PageHeader } from '~/components/ui/card';
import { Button, ButtonLink, buttonClass } from '~/components/ui/button';
import { StatusBadge } from '~/components/ui/status-badge';
import { InvoiceFacts, PaymentOutcome, PoliciesTable } from '~/components/checkout/checkout-bits';
import { formatMinor } from '~/lib/money';
import { pageLoader } from '~/lib/loaders.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: INVOICE_ACCESS,
    params: idSchema,
    async load({ ctx, request, context, params }) {
      const url = new URL(request.url);
      const q = invoiceItemsQuerySchema.parse({ page: url.searchParams.get('page') ?? undefined, items: 25 });
      const invoice = await getInvoice(ctx, params.id, q);
      const [siblings, transactions, batches] = await Promise.all([
        siblingInvoices(ctx, invoice.id),
        invoiceTransactions(ctx, invoice.id),
        invoiceBatches(ctx, invoice.id),
      ]);
      const unpaid = invoice.status === 'unpaid' || invoice.status === 'pending';
      return json({
        invoice,
        siblings,
        transactions,
        batches,
        can: {
          approve: unpaid && can(ctx.actor, APPROVE_PERMISSION),
          pay: unpaid && can(ctx.actor, 'create_policy'),
          welcome: canAny(ctx.actor, WELCOME_PERMISSION),
        },
        constraint: constraintsOf(approveBankTransferSchema),
        title: pageTitle(context, request, 'checkout.confirmation.title'),
      });
    },
  })(args);

type Done =
  { done: 'approved' } | { done: 'welcome_sent'; sent: Awaited<ReturnType<typeof sendWelcomeEmails>> };

/** Staff approve a bank transfer with the date the money arrived; the welcome emails of an order. */
export const action = (args: ActionFunctionArgs) =>
  intentAction<
    {
      approve_bank_transfer: { schema: typeof approveBankTransferSchema; permission: string };
      send_welcome_email: { schema: typeof batchIdSchema; permission: string };
    },
    Done,
    'user',
    typeof idSchema
  >({
    params: idSchema,
    intents: {
      approve_bank_transfer: { schema: approveBankTransferSchema, permission: INVOICE_ACCESS },
      send_welcome_email: { schema: batchIdSchema, permission: INVOICE_ACCESS },
    },
    async handle(input, { ctx, params }) {
      switch (input.intent) {
        case 'approve_bank_transfer':
          await approveBankTransfer(ctx, params.id, { date: input.date });
          return { data: { done: 'approved' } };
        case 'send_welcome_email':
          return { data: { done: 'welcome_sent', sent: await sendWelcomeEmails(ctx, input.batch_id) } };
        default:
          return unreachable(input);
      }
    },
  })(args);

export default function Confirmation() {
  const { t, i18n } = useTranslation();
  const m = useMessage();
  const {
    invoice,
    siblings,
    transactions,
    batches,
    can: allowed,
    constraint,
  } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const busy = useNavigation().state !== 'idle';
  const [params] = useSearchParams();
  const link = (path: string) => localePath(i18n.language, path);
  const [form, fields] = useSchemaForm({
    id: 'approve-bank-transfer',
    schema: () => import('@server/domain/payments/schema').then((m) => m.approveBankTransferSchema),
    lastResult: answer?.intent === 'approve_bank_transfer' ? answer.submission : undefined,
    constraint,
    shouldValidate: 'onSubmit',
  });
  const dateField = fieldOf(fields, 'date');
  const outcome = params.get('payment');
  const otherErrors = answer?.submission?.error
    ? Object.entries(answer.submission.error)
        .filter(([key]) => key !== 'date')
        .flatMap(([, messages]) => messages ?? [])
    : [];
  const placed = params.get('placed') === '1';
  const done = answer?.ok ? answer.data : null;
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <PageHeader
        title={t('checkout.confirmation.title')}
        description={t('checkout.confirmation.intro', {
          number: invoice.number,
          count: invoice.policy_count,
        })}
        actions={
          <a
            href={link(`/insureds/${invoice.id}/summary.xlsx`)}
            className={buttonClass('secondary')}
            download={`${invoice.number}.xlsx`}
          >
            {t('checkout.confirmation.download')}
          </a>
        }
      />
      <PaymentOutcome outcome={outcome} />
      {otherErrors.map((e) => (
        <Alert key={e}>{m(e)}</Alert>
      ))}
      {placed && !outcome ? (
        <Alert tone="success">{t('checkout.confirmation.placed', { count: invoice.policy_count })}</Alert>
      ) : null}
      {done?.done === 'approved' ? <Alert tone="success">{t('checkout.confirmation.approved')}</Alert> : null}
      {done?.done === 'welcome_sent' ? (
        <Alert tone="success">
          {t('checkout.confirmation.welcome_sent', { count: done.sent.sent })}
          {done.sent.without_email
            ? ` ${t('checkout.confirmation.without_email', { count: done.sent.without_email })}`
            : ''}
        </Alert>
      ) : null}
      {siblings.length ? (
        <Alert tone="info">
          {t('checkout.confirmation.siblings')}{' '}
          {siblings.map((s, i) => (
            <span key={s.id}>
              {i ? ', ' : ''}
              <Link to={link(`/insureds/${s.id}/confirmation`)} className="font-semibold underline">
                {s.number} ({s.client.name})
              </Link>
            </span>
          ))}
        </Alert>
      ) : null}

      <Card>
        <InvoiceFacts invoice={invoice} />
        {allowed.pay ? (
          <div className="mt-6 flex flex-wrap gap-3 border-t border-slate-100 pt-4">
            <ButtonLink to={link(`/cart/checkout?invoice=${invoice.id}&pay=card`)}>
              {t('checkout.confirmation.pay_card')}
            </ButtonLink>
            <ButtonLink
              variant="secondary"
              to={link(`/payment/bank-transfer/pay-invoice/${invoice.id}/start`)}
            >
              {t('checkout.confirmation.pay_bank')}
            </ButtonLink>
          </div>
        ) : null}
      </Card>

      <section aria-labelledby="policies-heading" className="space-y-3">
        <h2 id="policies-heading" className="text-lg font-semibold text-slate-900">
          {t('checkout.confirmation.policies')}
        </h2>
        <PoliciesTable items={invoice.items} meta={invoice.meta} currency={invoice.currency} />
      </section>

      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <h2 className="mb-3 text-base font-semibold text-slate-900">
            {t('checkout.confirmation.batches')}
          </h2>
          <ul className="divide-y divide-slate-100 text-sm">
            {batches.map((b) => (
              <li key={b.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                <div>
                  <p className="font-medium text-slate-900">{b.campus}</p>
                  <p className="text-slate-600">
                    {b.product} · {t('checkout.applicants', { count: b.policies })}
                  </p>
                  {b.send_welcome_email ? (
                    <StatusBadge tone="green">{t('checkout.confirmation.welcome_chosen')}</StatusBadge>
                  ) : null}
                </div>
                {allowed.welcome ? (
                  <AppForm method="post">
                    <input type="hidden" name="intent" value="send_welcome_email" />
                    <input type="hidden" name="batch_id" value={b.id} />
                    <Button type="submit" variant="secondary" disabled={busy}>
                      {t('checkout.confirmation.send_welcome')}
                    </Button>
                  </AppForm>
                ) : null}
              </li>
            ))}
          </ul>
        </Card>

        <Card>
          <h2 className="mb-3 text-base font-semibold text-slate-900">
            {t('checkout.confirmation.payments')}
          </h2>
          {transactions.length ? (
            <ul className="divide-y divide-slate-100 text-sm" data-testid="transactions">
              {transactions.map((tx) => (
                <li key={tx.id} className="flex flex-wrap items-center justify-between gap-2 py-3">
                  <div>
                    <p className="font-medium text-slate-900">
                      {t(`checkout.gateways.${tx.gateway}`)} · {formatMinor(tx.amount_minor, tx.currency)}
                    </p>
                    <p className="text-xs text-slate-500">
                      {formatDateTime(tx.created_at)}
                      {tx.identifier ? ` · ${tx.identifier}` : ''}
                      {tx.user ? ` · ${tx.user.name}` : ''}
                    </p>
                  </div>
                  <StatusBadge
                    tone={tx.status === 'succeeded' ? 'green' : tx.status === 'pending' ? 'blue' : 'red'}
                  >
                    {t(`checkout.transaction_status.${tx.status}`)}
                  </StatusBadge>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-slate-600">{t('checkout.confirmation.no_payments')}</p>
          )}

          {allowed.approve ? (
            <AppForm
              method="post"
              {...getFormProps(form)}
              className="mt-6 space-y-3 border-t border-slate-100 pt-4"
            >
              <h3 className="text-sm font-semibold text-slate-900">
                {t('checkout.confirmation.approve_title')}
              </h3>
              <p className="text-xs text-slate-600">{t('checkout.confirmation.approve_hint')}</p>
              <input type="hidden" name="intent" value="approve_bank_transfer" />
              <FormErrors errors={form.errors} />
              <Field label={t('checkout.confirmation.payment_date')} field={dateField} type="date" />
              <Button type="submit" disabled={busy}>
                {t('checkout.confirmation.approve')}
              </Button>
            </AppForm>
          ) : null}
        </Card>
      </div>
    </div>
  );
}
