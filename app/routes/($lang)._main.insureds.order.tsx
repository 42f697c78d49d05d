/**
 * /insureds/order: choose the client (staff only; a school user's client is fixed), the campus and a
 * product available for it, then add applicants one by one (a draft batch and /insureds/new/add) or
 * upload a spreadsheet (/insureds/new/import). The campus chosen last is remembered in the
 * `order_campus` cookie, so a reload or a later visit starts from it. Orders left unfinished are
 * listed with a link to continue them.
 */
import {
  json,
  type ActionFunctionArgs,
  type AppLoadContext,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/cloudflare';
import { Form, Link, useActionData, useLoaderData, useNavigation, useSubmit } from '@remix-run/react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ORDER_PERMISSION, deleteBatch } from '@server/domain/enrollments/service';
import { orderDiscardSchema, orderStartSchema } from '~/lib/schemas.server';
import { orderChoices, startSingleOrder, unfinishedOrders } from '~/lib/enrollments.server';
import { ValidationFailed } from '@server/domain/errors';
import { intentAction, unreachable } from '~/lib/actions';
import { readCookie, serializeCookie } from '@server/web/cookies';
import { localePath } from '~/i18n/config';
import { AppForm, ErrorList, FormErrors, Label, inputClass } from '~/components/fields';
import { Button } from '~/components/ui/button';
import { Alert, Card, PageHeader } from '~/components/ui/card';
import { ImportStatusBadge, importHref } from '~/components/imports/import-bits';
import { ConfirmButton } from '~/components/ui/confirm';
import { britishDate, formatDateTime } from '~/lib/dates';
import { useMessage } from '~/lib/messages';
import { formatMinor } from '~/lib/money';
import { pageTitle } from '~/lib/meta';
import { pageLoader } from '~/lib/loaders.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: ORDER_PERMISSION,
    async load({ ctx, request, context }) {
      const url = new URL(request.url);
      const remembered = readCookie(request, context.env, 'order_campus');
      const campusParam = url.searchParams.get('campus');
      const [choices, unfinished] = await Promise.all([
        orderChoices(ctx, {
          client_id: url.searchParams.get('client') ?? undefined,
          campus_id: campusParam ?? remembered ?? undefined,
        }),
        unfinishedOrders(ctx),
      ]);
      const headers = new Headers();
      if (choices.campus && choices.campus.id !== remembered)
        headers.append('set-cookie', serializeCookie(context.env, 'order_campus', choices.campus.id));
      // "Add policy for this person" on an insured's page: the applicant form opens with their details.
      const prefill = url.searchParams.get('prefill');
      return json(
        { choices, unfinished, prefill, title: pageTitle(context, request, 'order.title') },
        { headers },
      );
    },
  })(args);

/** Discard an unfinished order, or start one: one by one (a draft batch) or from a spreadsheet. */
export const action = (args: ActionFunctionArgs) =>
  intentAction({
    intents: {
      discard: {
        schema: orderDiscardSchema,
        permission: ORDER_PERMISSION,
        confirm: { question: 'order.discard_confirm', button: 'order.discard' },
      },
      single: { schema: orderStartSchema, permission: ORDER_PERMISSION },
      import: { schema: orderStartSchema, permission: ORDER_PERMISSION },
    },
    async handle(input, { ctx, context, redirect }) {
      switch (input.intent) {
        case 'discard':
          await deleteBatch(ctx, input.batch_id);
          return redirect('/insureds/order', 'order.discarded');
        case 'single': {
          const { campus_id, contract_id, prefill } = input;
          const batch = await startSingleOrder(ctx, { campus_id, contract_id });
          const person = prefill ? `&prefill=${encodeURIComponent(prefill)}` : '';
          return redirect(`/insureds/new/add?batch=${batch.public_id}${person}`, undefined, {
            headers: remember(context, campus_id),
          });
        }
        case 'import': {
          const { campus_id, contract_id } = input;
          const choices = await orderChoices(ctx, { campus_id });
          if (!choices.products.some((p) => p.id === contract_id))
            throw ValidationFailed.field('contract_id', 'contracts.errors.not_found');
          const query = new URLSearchParams({ campus: campus_id, contract: contract_id });
          return redirect(`/insureds/new/import?${query}`, undefined, {
            headers: remember(context, campus_id),
          });
        }
        default:
          return unreachable(input);
      }
    },
  })(args);

/** The campus an order was started for, remembered for the next visit. */
function remember(context: AppLoadContext, campusId: string) {
  return { 'set-cookie': serializeCookie(context.env, 'order_campus', campusId) };
}

export default function OrderPage() {
  const { t, i18n } = useTranslation();
  const m = useMessage();
  const { choices, unfinished, prefill } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const errors = result?.submission?.error ?? {};
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle';
  const submit = useSubmit();
  const [js, setJs] = useState(false);
  useEffect(() => setJs(true), []);
  const lp = (path: string) => localePath(i18n.language, path);

  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <PageHeader title={t('order.title')} description={t('order.description')} />
      <FormErrors errors={errors['']} />

      {unfinished.drafts.length || unfinished.imports.length ? (
        <Card flush className="overflow-hidden">
          <div className="border-b border-slate-200 px-6 py-4">
            <h2 className="text-base font-semibold">{t('order.unfinished')}</h2>
            <p className="mt-0.5 text-sm text-slate-600">{t('order.unfinished_hint')}</p>
          </div>
          <ul className="divide-y divide-slate-100" data-testid="unfinished-orders">
            {unfinished.drafts.map((d) => (
              <li key={d.id} className="flex flex-wrap items-center justify-between gap-3 px-6 py-3 text-sm">
                <div className="min-w-0">
                  <p className="font-medium text-slate-900">
                    {d.campus_name} · {d.product_name}
                  </p>
                  <p className="text-slate-600">
                    {t(`order.sources.${d.source}`)} · {t('order.columns.applicants')}: {d.count}
                    {d.with_errors ? ` · ${t('order.with_errors', { count: d.with_errors })}` : ''} ·{' '}
                    {formatDateTime(d.updated_at)}
                  </p>
                </div>
                <div className="flex items-center gap-3">
                  <Link
                    className="font-semibold text-primary-800 hover:underline"
                    to={lp(
                      d.source === 'import' && d.import_id
                        ? `/insureds/review-applicants?import=${d.import_id}`
                        : `/insureds/new/add?batch=${d.id}`,
                    )}
                  >
                    {t('order.continue')}
                  </Link>
                  <AppForm method="post">
                    <input type="hidden" name="intent" value="discard" />
                    <input type="hidden" name="batch_id" value={d.id} />
                    <ConfirmButton
                      className="font-semibold text-red-700 hover:underline"
                      question={t('order.discard_confirm')}
                    >
                      {t('order.discard')}
                    </ConfirmButton>
                  </AppForm>
                </div>
              </li>
            ))}
            {unfinished.imports.map((i) => (
              <li key={i.id} className="flex flex-wrap items-center justify-between gap-3 px-6 py-3 text-sm">
                <div className="min-w-0">
                  <p className="break-all font-medium text-slate-900">{i.file_name}</p>
                  <p className="text-slate-600">
                    {i.campus.name} · {formatDateTime(i.created_at)}
                  </p>
                </div>
                <div className="flex items-center gap-3">
                  <ImportStatusBadge status={i.status} />
                  <Link className="font-semibold text-primary-800 hover:underline" to={lp(importHref(i))}>
                    {t('order.continue')}
                  </Link>
                </div>
              </li>
            ))}
          </ul>
        </Card>
      ) : null}

      <Card>
        <h2 className="mb-4 text-base font-semibold">{t('order.new_order')}</h2>
        <Form method="get" className="grid items-end gap-4 sm:grid-cols-2 lg:grid-cols-3" replace>
          {prefill ? <input type="hidden" name="prefill" value={prefill} /> : null}
          {choices.staff ? (
            <div>
              <Label htmlFor="order-client">{t('order.client')}</Label>
              <select
                id="order-client"
                name="client"
                className={inputClass}
                defaultValue={choices.client?.id ?? ''}
                key={`client-${choices.client?.id ?? ''}`}
                onChange={(e) => submit(e.currentTarget.form, { replace: true, preventScrollReset: true })}
              >
                <option value="">{t('order.choose_client')}</option>
                {choices.clients.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name}
                  </option>
                ))}
              </select>
            </div>
          ) : (
            <div>
              <p className="mb-1.5 block text-sm font-medium text-slate-700">{t('order.client')}</p>
              <p className="rounded-lg bg-slate-50 px-3 py-2.5 text-sm text-slate-900 ring-1 ring-inset ring-slate-200">
                {choices.client?.name ?? '—'}
              </p>
            </div>
          )}
          <div>
            <Label htmlFor="order-campus">{t('order.campus')}</Label>
            <select
              id="order-campus"
              name="campus"
              className={inputClass}
              defaultValue={choices.campus?.id ?? ''}
              key={`campus-${choices.client?.id ?? ''}-${choices.campus?.id ?? ''}`}
              disabled={!choices.client}
              onChange={(e) => submit(e.currentTarget.form, { replace: true, preventScrollReset: true })}
            >
              <option value="">{t('order.choose_campus')}</option>
              {choices.campuses.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </div>
          {!js ? (
            <div>
              <Button type="submit" variant="secondary">
                {t('order.show_products')}
              </Button>
            </div>
          ) : null}
        </Form>

        {choices.client && !choices.campuses.length ? (
          <div className="mt-4">
            <Alert tone="info">{t('order.no_campuses')}</Alert>
          </div>
        ) : null}
        {choices.campus && choices.no_contract ? (
          <div className="mt-6">
            <Alert>{m(choices.no_contract)}</Alert>
          </div>
        ) : null}

        {choices.campus && choices.products.length ? (
          <AppForm method="post" className="mt-6 space-y-5" key={choices.campus.id}>
            <input type="hidden" name="campus_id" value={choices.campus.id} />
            {prefill ? <input type="hidden" name="prefill" value={prefill} /> : null}
            <fieldset>
              <legend className="mb-2 text-sm font-medium text-slate-700">
                {t('order.products_for', { campus: choices.campus.name })}
              </legend>
              <div className="grid gap-3 sm:grid-cols-2">
                {choices.products.map((p, i) => (
                  <label
                    key={p.id}
                    className="flex cursor-pointer gap-3 rounded-lg p-4 ring-1 ring-slate-300 has-[:checked]:bg-primary-50 has-[:checked]:ring-2 has-[:checked]:ring-primary-600"
                  >
                    <input
                      type="radio"
                      name="contract_id"
                      value={p.id}
                      defaultChecked={i === 0}
                      className="mt-1 h-4 w-4 text-primary-700"
                    />
                    <span className="min-w-0">
                      <span className="block font-semibold text-slate-900">
                        {p.product_name}{' '}
                        <span className="font-normal text-slate-500">({p.product_code})</span>
                      </span>
                      <span className="block text-sm text-slate-700">
                        {p.end_date
                          ? t('order.price_until', {
                              price: formatMinor(Math.round(p.price * 100), p.currency),
                              start: britishDate(p.start_date),
                              end: britishDate(p.end_date),
                            })
                          : t('order.price_per', {
                              price: formatMinor(Math.round(p.price * 100), p.currency),
                              start: britishDate(p.start_date),
                            })}
                      </span>
                      <span className="block text-xs text-slate-500">
                        {t('order.min_days', { days: p.min_days })}
                        {p.in_cart ? ` · ${t('order.in_cart')}` : ''}
                      </span>
                    </span>
                  </label>
                ))}
              </div>
              <ErrorList errors={errors.contract_id} />
            </fieldset>
            <div className="grid gap-3 sm:grid-cols-2">
              <button
                type="submit"
                name="intent"
                value="single"
                disabled={busy}
                className="rounded-lg bg-primary-800 px-4 py-3 text-left text-white shadow-sm hover:bg-primary-700 disabled:opacity-60"
              >
                <span className="block font-semibold">{t('order.one_by_one')}</span>
                <span className="block text-sm text-white/80">{t('order.one_by_one_hint')}</span>
              </button>
              <button
                type="submit"
                name="intent"
                value="import"
                disabled={busy}
                className="rounded-lg bg-white px-4 py-3 text-left text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 hover:bg-slate-50 disabled:opacity-60"
              >
                <span className="block font-semibold">{t('order.spreadsheet')}</span>
                <span className="block text-sm text-slate-600">{t('order.spreadsheet_hint')}</span>
              </button>
            </div>
          </AppForm>
        ) : null}
      </Card>
    </div>
  );
}
