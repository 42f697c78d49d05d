/**
 * /cart/checkout: the summary of the cart's open batches (applicants, fees, tax, totals per client and
 * currency), the payment choices the client's terms allow, "send welcome emails", and Confirm
 * (policy-batches/confirm-open with the checkout key rendered into the form). After confirming:
 * card → this page again with `?invoice=<id>`, the payment step, which posts the signed form to the card
 * provider (by itself with JavaScript, by its button without); bank transfer → the bank-transfer page;
 * invoiced → the confirmation. The invoice id lives in the address, so a reload keeps the step.
 */
import {
  json,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/cloudflare';
import { Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { getFormProps } from '@conform-to/react';
import { useTranslation } from 'react-i18next';
import { confirmOpenSchema, constraintsOf } from '~/lib/schemas.server';
import { formAction } from '~/lib/actions.server';
import { useSchemaForm } from '~/lib/schema-form';
import {
  CHECKOUT_PERMISSION,
  cartClearTime,
  checkoutInvoice,
  checkoutResult,
  confirmOpenBatches,
  newCheckoutKey,
  planCheckout,
  startBankTransfer,
  startCardPayment,
} from '~/lib/checkout.server';
import { dueDate, type PaymentChoice } from '@server/domain/checkout/terms';
import { taxLabel } from '@server/domain/invoices/tax-lines';
import { invoicedOn, isPeriodic } from '@server/domain/invoices/periodic';
import { Conflict } from '@server/domain/errors';
import { todayIso } from '@server/domain/formats';
import { pageTitle } from '~/lib/meta';
import { localePath } from '~/i18n/config';
import { AppForm, FormErrors } from '~/components/fields';
import { Alert, Card, PageHeader } from '~/components/ui/card';
import { Button, ButtonLink } from '~/components/ui/button';
import { HostedPaymentForm, InvoiceFacts } from '~/components/checkout/checkout-bits';
import { formatMinor } from '~/lib/money';
import { britishDate } from '~/lib/dates';
import { pageLoader } from '~/lib/loaders.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

const confirmationPath = (id: string) => `/insureds/${id}/confirmation`;

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: CHECKOUT_PERMISSION,
    async load({ ctx, request, context, lang }) {
      const url = new URL(request.url);
      const placed = url.searchParams.get('placed');
      if (placed) {
        // Issued on account (periodic terms): what was issued and when it will be invoiced.
        const result = await checkoutResult(ctx, placed);
        const batches = result && 'on_account' in result ? (result.on_account ?? []) : [];
        if (!batches.length) throw redirect(localePath(lang, '/cart'));
        return json({
          step: 'on_account' as const,
          batches,
          title: pageTitle(context, request, 'checkout.on_account.title'),
        });
      }
      const invoiceId = url.searchParams.get('invoice');
      if (invoiceId) {
        const invoice = await checkoutInvoice(ctx, invoiceId);
        // `pay=card`: paying by card an invoice that was to be paid another way (from its confirmation).
        const byCard = invoice.payment_method === 'credit_card' || url.searchParams.get('pay') === 'card';
        if (invoice.status === 'paid' || !byCard) {
          const next =
            invoice.status !== 'paid' && invoice.payment_method === 'bank_transfer'
              ? `/payment/bank-transfer/pay-invoice/${invoice.id}/start`
              : confirmationPath(invoice.id);
          throw redirect(localePath(lang, next));
        }
        const { form } = await startCardPayment({ ...ctx, lang }, invoice.id, { currency: invoice.currency });
        return json({
          step: 'pay' as const,
          invoice,
          form,
          title: pageTitle(context, request, 'checkout.pay.title'),
        });
      }

      const clientId = url.searchParams.get('client') || undefined;
      const plan = await planCheckout(ctx, { client_id: clientId });
      const staff = ctx.actor.user_type === 'company';
      const today = todayIso(ctx.now);
      return json({
        step: 'review' as const,
        constraint: constraintsOf(confirmOpenSchema),
        title: pageTitle(context, request, 'checkout.title'),
        checkoutKey: newCheckoutKey(),
        staff,
        // Staff ordering for a single client check out for that client (the page names it).
        clientId: clientId ?? (staff && plan.clients.length === 1 ? plan.clients[0]!.public_id : null),
        mustChooseClient: staff && !clientId && plan.clients.length > 1,
        clients: plan.clients,
        count: plan.count,
        withErrors: plan.with_errors,
        choices: plan.choices,
        clearing: await cartClearTime(ctx.db, ctx.now),
        groups: plan.groups.map((g) => ({
          key: g.key,
          client: g.client.name,
          currency: g.currency,
          count: g.count,
          premium_minor: g.premium_minor,
          tax_minor: g.tax_minor,
          stamp_duty_minor: g.stamp_duty_minor,
          total_minor: g.total_minor,
          // The tax is named by the region when every campus of the invoice is in one country.
          tax_label:
            new Set(g.batches.map((b) => taxLabel(b.country_code))).size === 1
              ? taxLabel(g.batches[0]!.country_code)
              : taxLabel(null),
          due_at: dueDate(g.payment_terms, today),
          // Periodic terms: the invoice choice issues on account, invoiced the day after the period ends.
          invoiced_on: isPeriodic(g.payment_terms) ? invoicedOn(g.payment_terms, today) : null,
          batches: g.batches.map((b) => ({
            id: b.public_id,
            campus: b.campus_name,
            product: b.product_name,
            count: b.count,
            with_errors: b.with_errors,
            premium_minor: b.premium_minor,
            tax_minor: b.tax_minor,
            stamp_duty_minor: b.stamp_duty_minor,
            total_minor: b.total_minor,
            send_welcome_email: b.send_welcome_email,
          })),
        })),
      });
    },
  })(args);

/** Confirm: issues the cart's open batches, then the payment step the chosen method needs. */
export const action = (args: ActionFunctionArgs) =>
  formAction({
    schema: confirmOpenSchema,
    permission: CHECKOUT_PERMISSION,
    async handle(input, { ctx, redirect }) {
      const placed = await confirmOpenBatches(ctx, input);
      if (!('invoice' in placed)) {
        const first = placed.invoices[0];
        // Issued on account only (periodic terms): this page says so and when they will be invoiced.
        if (!first) return redirect(`/cart/checkout?placed=${input.checkout_key}`);
        return redirect(`${confirmationPath(first.id)}?placed=1`);
      }
      const invoice = placed.invoice;
      if (invoice.status !== 'paid' && invoice.payment_method === 'credit_card')
        return redirect(`/cart/checkout?invoice=${invoice.id}`);
      if (invoice.status !== 'paid' && invoice.payment_method === 'bank_transfer') {
        try {
          await startBankTransfer(ctx, invoice.id, { currency: invoice.currency });
        } catch (e) {
          if (!(e instanceof Conflict)) throw e;
        }
        return redirect(`/payment/bank-transfer/pay-invoice/${invoice.id}/start`);
      }
      return redirect(`${confirmationPath(invoice.id)}?placed=1`);
    },
  })(args);

export default function Checkout() {
  const data = useLoaderData<typeof loader>();
  return data.step === 'pay' ? <PayStep /> : data.step === 'on_account' ? <OnAccountStep /> : <ReviewStep />;
}

function OnAccountStep() {
  const { t, i18n } = useTranslation();
  const data = useLoaderData<typeof loader>();
  if (data.step !== 'on_account') return null;
  const link = (path: string) => localePath(i18n.language, path);
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <PageHeader title={t('checkout.on_account.title')} description={t('checkout.on_account.intro')} />
      <Card flush>
        <ul className="divide-y divide-slate-100" data-testid="on-account-batches">
          {data.batches.map((b) => (
            <li key={b.id} className="px-6 py-4 text-sm">
              <p className="font-semibold text-slate-900">
                {b.client.name} · {b.campus.name}
              </p>
              <p className="text-slate-700">
                {t('checkout.on_account.batch', {
                  count: b.policies,
                  date: b.invoiced_on ? britishDate(b.invoiced_on) : '',
                  terms: t(`checkout.on_account.terms.${b.payment_terms}`),
                })}
              </p>
            </li>
          ))}
        </ul>
      </Card>
      <div className="flex flex-wrap gap-3">
        <ButtonLink to={link('/insureds')}>{t('checkout.on_account.insureds')}</ButtonLink>
        <ButtonLink variant="secondary" to={link('/insureds/order')}>
          {t('checkout.order_more')}
        </ButtonLink>
      </div>
    </div>
  );
}

function PayStep() {
  const { t, i18n } = useTranslation();
  const data = useLoaderData<typeof loader>();
  if (data.step !== 'pay') return null;
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <PageHeader title={t('checkout.pay.title')} description={t('checkout.pay.intro')} />
      <Card>
        <InvoiceFacts invoice={data.invoice} />
      </Card>
      <Card>
        <p className="mb-4 text-sm text-slate-700">{t('checkout.pay.redirecting')}</p>
        <div className="flex flex-wrap items-center gap-3">
          <HostedPaymentForm action={data.form.action} fields={data.form.fields} />
          <ButtonLink variant="secondary" to={localePath(i18n.language, confirmationPath(data.invoice.id))}>
            {t('checkout.pay.later')}
          </ButtonLink>
        </div>
      </Card>
    </div>
  );
}

function ReviewStep() {
  const { t, i18n } = useTranslation();
  const data = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const busy = useNavigation().state !== 'idle';
  const [form, fields] = useSchemaForm({
    id: 'checkout',
    schema: () => import('@server/domain/checkout/schema').then((m) => m.confirmOpenSchema),
    lastResult: answer?.submission,
    constraint: data.step === 'review' ? data.constraint : undefined,
    shouldValidate: 'onSubmit',
  });
  if (data.step !== 'review') return null;
  const link = (path: string) => localePath(i18n.language, path);
  const errors = [
    ...(form.errors ?? []),
    ...(form.allErrors.checkout ?? []),
    ...(fields.checkout_key.errors ?? []),
  ];

  if (data.mustChooseClient)
    return (
      <div className="mx-auto max-w-3xl">
        <PageHeader title={t('checkout.title')} description={t('checkout.choose_client')} />
        <Card flush>
          <ul className="divide-y divide-slate-100">
            {data.clients.map((c) => (
              <li key={c.public_id}>
                <Link
                  to={`?client=${c.public_id}`}
                  className="flex items-center justify-between px-6 py-4 font-medium text-primary-800 hover:bg-slate-50"
                >
                  {c.name}
                  <span aria-hidden="true">→</span>
                </Link>
              </li>
            ))}
          </ul>
        </Card>
      </div>
    );

  if (!data.groups.length)
    return (
      <div className="mx-auto max-w-3xl">
        <PageHeader title={t('checkout.title')} />
        <Card>
          <p className="text-slate-700">{t('checkout.errors.empty')}</p>
          <div className="mt-4 flex flex-wrap gap-3">
            <ButtonLink to={link('/insureds/order')}>{t('checkout.order_more')}</ButtonLink>
            <ButtonLink variant="secondary" to={link('/cart')}>
              {t('checkout.back_to_cart')}
            </ButtonLink>
          </div>
        </Card>
      </div>
    );

  const single = data.groups.length === 1 ? data.groups[0] : null;
  const welcomeDefault = data.groups.every((g) => g.batches.every((b) => b.send_welcome_email));
  const chosenClient = data.clientId ? data.clients.find((c) => c.public_id === data.clientId) : null;
  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <PageHeader
        title={t('checkout.title')}
        description={
          chosenClient ? t('checkout.for_client', { client: chosenClient.name }) : t('checkout.intro')
        }
        actions={
          <ButtonLink variant="secondary" to={link('/cart')}>
            {t('checkout.back_to_cart')}
          </ButtonLink>
        }
      />
      {data.withErrors ? (
        <Alert>
          {t('checkout.errors.has_errors', { count: data.withErrors })}{' '}
          <Link to={link('/cart')} className="font-semibold underline">
            {t('checkout.fix_in_cart')}
          </Link>
        </Alert>
      ) : null}

      {data.groups.map((g) => (
        <Card key={g.key} flush>
          <div className="flex flex-wrap items-baseline justify-between gap-2 border-b border-slate-100 px-6 py-4">
            <h2 className="text-base font-semibold text-slate-900">{g.client}</h2>
            <p className="text-sm text-slate-600">
              {t('checkout.applicants', { count: g.count })} · {g.currency}
            </p>
          </div>
          <div className="overflow-x-auto">
            <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid="checkout-summary">
              <caption className="sr-only">{t('checkout.summary_caption', { client: g.client })}</caption>
              <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
                <tr>
                  <th scope="col" className="px-6 py-3">
                    {t('checkout.columns.campus')}
                  </th>
                  <th scope="col" className="hidden px-4 py-3 sm:table-cell">
                    {t('checkout.columns.product')}
                  </th>
                  <th scope="col" className="px-4 py-3 text-right">
                    {t('checkout.columns.applicants')}
                  </th>
                  <th scope="col" className="hidden px-4 py-3 text-right sm:table-cell">
                    {t('checkout.columns.premium')}
                  </th>
                  <th scope="col" className="hidden px-4 py-3 text-right sm:table-cell">
                    {t(g.tax_label)}
                  </th>
                  {g.stamp_duty_minor ? (
                    <th scope="col" className="hidden px-4 py-3 text-right sm:table-cell">
                      {t('taxes.lines.stamp_duty')}
                    </th>
                  ) : null}
                  <th scope="col" className="px-6 py-3 text-right">
                    {t('checkout.columns.total')}
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {g.batches.map((b) => (
                  <tr key={b.id}>
                    <td className="px-6 py-3 font-medium text-slate-900">
                      {b.campus}
                      <span className="block font-normal text-slate-600 sm:hidden">{b.product}</span>
                    </td>
                    <td className="hidden px-4 py-3 sm:table-cell">{b.product}</td>
                    <td className="px-4 py-3 text-right tabular-nums">
                      {b.count}
                      {b.with_errors ? (
                        <span className="ml-1 text-xs text-red-700">
                          ({t('checkout.with_errors', { count: b.with_errors })})
                        </span>
                      ) : null}
                    </td>
                    <td className="hidden px-4 py-3 text-right tabular-nums sm:table-cell">
                      {formatMinor(b.premium_minor, g.currency)}
                    </td>
                    <td className="hidden px-4 py-3 text-right tabular-nums sm:table-cell">
                      {formatMinor(b.tax_minor, g.currency)}
                    </td>
                    {g.stamp_duty_minor ? (
                      <td className="hidden px-4 py-3 text-right tabular-nums sm:table-cell">
                        {formatMinor(b.stamp_duty_minor, g.currency)}
                      </td>
                    ) : null}
                    <td className="px-6 py-3 text-right tabular-nums">
                      {formatMinor(b.total_minor, g.currency)}
                    </td>
                  </tr>
                ))}
              </tbody>
              <tfoot className="bg-slate-50 font-semibold text-slate-900">
                <tr>
                  <th scope="row" className="px-6 py-3 text-left">
                    {t('checkout.columns.total')}
                  </th>
                  <td className="hidden sm:table-cell" />
                  <td className="px-4 py-3 text-right tabular-nums">{g.count}</td>
                  <td className="hidden px-4 py-3 text-right tabular-nums sm:table-cell">
                    {formatMinor(g.premium_minor, g.currency)}
                  </td>
                  <td className="hidden px-4 py-3 text-right tabular-nums sm:table-cell">
                    {formatMinor(g.tax_minor, g.currency)}
                  </td>
                  {g.stamp_duty_minor ? (
                    <td
                      className="hidden px-4 py-3 text-right tabular-nums sm:table-cell"
                      data-testid="checkout-stamp-duty"
                    >
                      {formatMinor(g.stamp_duty_minor, g.currency)}
                    </td>
                  ) : null}
                  <td className="px-6 py-3 text-right tabular-nums" data-testid="checkout-total">
                    {formatMinor(g.total_minor, g.currency)}
                  </td>
                </tr>
              </tfoot>
            </table>
          </div>
        </Card>
      ))}

      <Card>
        <AppForm method="post" {...getFormProps(form)} className="space-y-6">
          <input type="hidden" name="checkout_key" value={data.checkoutKey} />
          {data.clientId ? <input type="hidden" name="client_id" value={data.clientId} /> : null}
          <FormErrors errors={errors} />
          <fieldset>
            <legend className="text-base font-semibold text-slate-900">{t('checkout.payment.legend')}</legend>
            <div className="mt-3 grid gap-3 sm:grid-cols-2">
              {data.choices.map((choice, index) => (
                <PaymentOption
                  key={choice}
                  choice={choice}
                  defaultChecked={index === 0}
                  due={single ? britishDate(single.due_at) : null}
                  invoicedOn={single?.invoiced_on ? britishDate(single.invoiced_on) : null}
                />
              ))}
            </div>
            {fields.payment_method.errors?.length ? (
              <p className="mt-2 text-sm text-red-700">{t('checkout.errors.payment_method')}</p>
            ) : null}
          </fieldset>
          <div className="flex items-start gap-3">
            <input
              id="send_welcome_email"
              name="send_welcome_email"
              type="checkbox"
              defaultChecked={welcomeDefault}
              className="mt-0.5 h-4 w-4 rounded border-slate-300 text-primary-700 focus:ring-primary-600"
            />
            <div>
              <label htmlFor="send_welcome_email" className="text-sm font-medium text-slate-800">
                {t('checkout.welcome_label')}
              </label>
              <p className="text-xs text-slate-500">{t('checkout.welcome_hint')}</p>
            </div>
          </div>
          <div className="flex flex-wrap items-center justify-between gap-4 border-t border-slate-100 pt-4">
            <div>
              {single ? (
                <p className="text-lg font-bold text-slate-900">
                  {t('checkout.to_pay', { amount: formatMinor(single.total_minor, single.currency) })}
                </p>
              ) : null}
              <p className="text-xs text-slate-500">{t('checkout.clearing', { time: data.clearing.time })}</p>
            </div>
            <Button type="submit" disabled={busy || data.withErrors > 0}>
              {busy ? t('checkout.confirming') : t('checkout.confirm')}
            </Button>
          </div>
        </AppForm>
      </Card>
    </div>
  );
}

function PaymentOption({
  choice,
  defaultChecked,
  due,
  invoicedOn,
}: {
  choice: PaymentChoice;
  defaultChecked: boolean;
  due: string | null;
  /** Periodic terms: the invoice choice issues on account, invoiced on this date. */
  invoicedOn?: string | null;
}) {
  const { t } = useTranslation();
  const id = `payment_method_${choice}`;
  return (
    <label
      htmlFor={id}
      className="flex cursor-pointer gap-3 rounded-lg p-4 ring-1 ring-slate-300 has-[:checked]:bg-primary-50 has-[:checked]:ring-2 has-[:checked]:ring-primary-600"
    >
      <input
        id={id}
        type="radio"
        name="payment_method"
        value={choice}
        defaultChecked={defaultChecked}
        className="mt-0.5 h-4 w-4 border-slate-300 text-primary-700 focus:ring-primary-600"
      />
      <span>
        <span className="block text-sm font-semibold text-slate-900">{t(`checkout.methods.${choice}`)}</span>
        <span className="block text-xs text-slate-600">
          {choice === 'invoiced_directly' && invoicedOn
            ? t('checkout.payment.on_account', { date: invoicedOn })
            : t(`checkout.payment.${choice}`, { due: due ?? '' })}
        </span>
      </span>
    </label>
  );
}
