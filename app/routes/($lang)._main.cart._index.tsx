/**
 * /cart: the orders (open policy batches) the user put in the cart, per campus and product, with a
 * summary (applicants, totals per currency), their applicants 500 a page (server-side paging to the
 * end), deleting selected applicants (an order left empty goes too) or a whole order, when the cart is
 * cleared (the GMT time of the `cart_clear_time_gmt` setting), and Checkout.
 */
import { type LoaderFunctionArgs, type MetaFunction, type ActionFunctionArgs } from '@remix-run/cloudflare';
import { Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { canAny } from '@server/domain/access/actor';
import {
  CART_PERMISSION,
  cartEnrollments,
  cartOverview,
  deleteCartEnrollments,
} from '@server/domain/enrollments/cart';
import { ORDER_PERMISSION, deleteBatch } from '@server/domain/enrollments/service';
import { msg } from '@server/domain/messages';
import { cartBatchSchema, cartDeleteSchema, pageQuerySchema } from '~/lib/schemas.server';
import { ignoreRefusal } from '~/lib/actions.server';
import { answerOf, intentAction, unreachable } from '~/lib/actions';
import { localePath } from '~/i18n/config';
import { AppForm, Checkbox, ErrorList } from '~/components/fields';
import { ButtonLink, buttonClass } from '~/components/ui/button';
import { Alert, Card, PageHeader } from '~/components/ui/card';
import { Pagination } from '~/components/ui/data-table';
import { SummaryTiles } from '~/components/ui/summary-tiles';
import { StatusBadge } from '~/components/ui/status-badge';
import { EnrollmentErrors, PhoneLabel } from '~/components/enrollments/applicants-table';
import { ConfirmButton } from '~/components/ui/confirm';
import { formatMinor } from '~/lib/money';
import { britishDate } from '~/lib/dates';
import { pageTitle } from '~/lib/meta';
import { pageLoader } from '~/lib/loaders.server';

/** Cells stack into a card per applicant on phones and are table cells from `sm` up. */
const cell = 'block px-4 py-1 sm:table-cell sm:py-3';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: CART_PERMISSION,
    query: pageQuerySchema,
    async load({ ctx, request, context, query }) {
      const title = pageTitle(context, request, 'cart.title');
      const page = query.page;
      const canOrder = canAny(ctx.actor, ORDER_PERMISSION);
      try {
        const [overview, list] = await Promise.all([cartOverview(ctx), cartEnrollments(ctx, { page })]);
        const next = overview.clearing.next_clear_at.slice(0, 10);
        return {
          ok: true as const,
          overview,
          list,
          clearing: {
            time: overview.clearing.time,
            when: `${britishDate(next)} ${overview.clearing.time} GMT`,
          },
          canOrder,
          title,
        };
      } catch (e) {
        // The spec's cart message instead of the error page: a refresh usually helps.
        console.error('Cart failed to load', e);
        return { ok: false as const, canOrder, title };
      }
    },
  })(args);

/** Remove a whole order, or the selected applicants (an order left empty goes too). */
export const action = (args: ActionFunctionArgs) =>
  intentAction({
    intents: {
      delete_batch: {
        schema: cartBatchSchema,
        permission: ORDER_PERMISSION,
        confirm: { question: 'cart.batches.remove_confirm', button: 'cart.batches.remove' },
      },
      delete: {
        schema: cartDeleteSchema,
        permission: ORDER_PERMISSION,
        confirm: { question: 'cart.enrollments.delete_confirm', button: 'cart.enrollments.delete' },
      },
    },
    async handle(input, { ctx, redirect }) {
      // Spec 001 s.8: a failed cart deletion is passed over; the cart shows what is left.
      switch (input.intent) {
        case 'delete_batch': {
          const done = await ignoreRefusal(deleteBatch(ctx, input.batch_id));
          return redirect('/cart', done ? 'cart.batch_deleted' : undefined);
        }
        case 'delete': {
          let deleted = 0;
          const done = await ignoreRefusal(
            deleteCartEnrollments(ctx, input.ids ?? []).then((r) => (deleted = r.deleted)),
          );
          return redirect('/cart', done ? msg('cart.deleted', { count: deleted }) : undefined);
        }
        default:
          return unreachable(input);
      }
    },
  })(args);

export default function Cart() {
  const { t, i18n } = useTranslation();
  const data = useLoaderData<typeof loader>();
  const answer = answerOf(useActionData());
  const selectError = answer?.submission?.error?.ids;
  const busy = useNavigation().state === 'submitting';
  const [selected, setSelected] = useState<string[]>([]);
  const lp = (path: string) => localePath(i18n.language, path);
  const orderLink = data.canOrder ? (
    <ButtonLink to={lp('/insureds/order')} variant="secondary">
      {t('cart.order_more')}
    </ButtonLink>
  ) : null;

  if (!data.ok)
    return (
      <div className="mx-auto max-w-6xl space-y-6">
        <PageHeader title={t('cart.title')} />
        <Alert>{t('cart.errors.load_failed')}</Alert>
      </div>
    );
  const { overview, list, clearing } = data;
  const pageIds = list.items.map((e) => e.id);
  const allOnPage = pageIds.length > 0 && pageIds.every((id) => selected.includes(id));
  const toggle = (id: string) =>
    setSelected((s) => (s.includes(id) ? s.filter((x) => x !== id) : [...s, id]));

  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <PageHeader
        title={t('cart.title')}
        description={t('cart.description')}
        actions={
          overview.summary.count ? (
            <>
              {orderLink}
              {data.canOrder ? <ButtonLink to={lp('/cart/checkout')}>{t('cart.checkout')}</ButtonLink> : null}
            </>
          ) : undefined
        }
      />
      <Alert tone="info">{t('cart.clearing', clearing)}</Alert>
      {!overview.summary.count ? (
        <Card>
          <div className="flex flex-col items-center gap-4 py-6 text-center">
            <p className="text-slate-600">{t('cart.empty')}</p>
            {data.canOrder ? <ButtonLink to={lp('/insureds/order')}>{t('cart.order')}</ButtonLink> : null}
          </div>
        </Card>
      ) : (
        <>
          <SummaryTiles
            tiles={[
              { label: t('cart.summary.applicants'), value: overview.summary.count },
              { label: t('cart.summary.orders'), value: overview.summary.batches },
              ...overview.summary.totals.map((total) => ({
                label: t('cart.summary.total', { currency: total.currency }),
                value: formatMinor(total.total_minor, total.currency),
              })),
            ]}
          />
          <Card flush className="overflow-hidden">
            <div className="border-b border-slate-200 px-6 py-4">
              <h2 className="text-base font-semibold">{t('cart.batches.title')}</h2>
            </div>
            <ul className="divide-y divide-slate-100" data-testid="cart-batches">
              {overview.batches.map((b) => (
                <li
                  key={b.id}
                  className="flex flex-wrap items-center justify-between gap-3 px-6 py-3 text-sm"
                >
                  <div className="min-w-0">
                    <p className="font-medium text-slate-900">
                      {b.campus.name} · {b.product.name}
                    </p>
                    <p className="text-slate-600">
                      {t('cart.batches.applicants')}: {b.count} · {t('cart.batches.total')}:{' '}
                      {formatMinor(b.fees.total_minor, b.fees.currency)}
                      {b.fees.stamp_duty_minor ? (
                        <>
                          {' '}
                          ({t('taxes.lines.stamp_duty')}:{' '}
                          {formatMinor(b.fees.stamp_duty_minor, b.fees.currency)})
                        </>
                      ) : null}{' '}
                      · {t('cart.batches.welcome')}:{' '}
                      {b.send_welcome_email ? t('cart.batches.sent') : t('cart.batches.not_sent')}
                    </p>
                  </div>
                  {data.canOrder ? (
                    <div className="flex items-center gap-3">
                      <Link
                        className="font-semibold text-primary-800 hover:underline"
                        to={lp(`/insureds/new/review?batch=${b.id}`)}
                      >
                        {t('order.table.edit')}
                      </Link>
                      <AppForm method="post">
                        <input type="hidden" name="intent" value="delete_batch" />
                        <input type="hidden" name="batch_id" value={b.id} />
                        <ConfirmButton
                          className="font-semibold text-red-700 hover:underline"
                          question={t('cart.batches.remove_confirm')}
                        >
                          {t('cart.batches.remove')}
                        </ConfirmButton>
                      </AppForm>
                    </div>
                  ) : null}
                </li>
              ))}
            </ul>
          </Card>
          <Card flush className="overflow-hidden">
            <AppForm method="post">
              <input type="hidden" name="intent" value="delete" />
              <div className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-200 px-6 py-4">
                <h2 className="text-base font-semibold">{t('cart.enrollments.title')}</h2>
                {data.canOrder ? (
                  <ConfirmButton
                    className={buttonClass('danger')}
                    disabled={busy}
                    question={t('cart.enrollments.delete_confirm')}
                  >
                    {t('cart.enrollments.delete')}
                  </ConfirmButton>
                ) : null}
              </div>
              {selectError ? (
                <div className="px-6 pt-3">
                  <ErrorList errors={selectError} />
                </div>
              ) : null}
              <div className="sm:overflow-x-auto">
                <table
                  className="block min-w-full text-sm sm:table sm:divide-y sm:divide-slate-200"
                  data-testid="cart-enrollments"
                >
                  <caption className="sr-only">{t('cart.enrollments.title')}</caption>
                  <thead className="hidden bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600 sm:table-header-group">
                    <tr>
                      {data.canOrder ? (
                        <th scope="col" className="w-10 px-4 py-3">
                          <Checkbox
                            checked={allOnPage}
                            onChange={() => setSelected(allOnPage ? [] : pageIds)}
                            aria-label={t('cart.enrollments.select_page')}
                          />
                        </th>
                      ) : null}
                      <th scope="col" className="px-4 py-3">
                        {t('order.table.name')}
                      </th>
                      <th scope="col" className="px-4 py-3">
                        {t('cart.batches.campus')}
                      </th>
                      <th scope="col" className="whitespace-nowrap px-4 py-3">
                        {t('order.table.date_of_birth')}
                      </th>
                      <th scope="col" className="px-4 py-3">
                        {t('order.table.trip')}
                      </th>
                      <th scope="col" className="px-4 py-3">
                        {t('order.table.destination')}
                      </th>
                      <th scope="col" className="px-4 py-3 text-right">
                        {t('order.table.total')}
                      </th>
                    </tr>
                  </thead>
                  <tbody className="block divide-y divide-slate-100 sm:table-row-group">
                    {list.items.map((r) => (
                      <tr
                        key={r.id}
                        data-testid="cart-row"
                        className={`relative block py-2 align-top sm:table-row sm:py-0 ${data.canOrder ? 'pl-8 sm:pl-0' : ''} ${selected.includes(r.id) ? 'bg-primary-50/50' : ''}`}
                      >
                        {data.canOrder ? (
                          <td className="absolute left-4 top-3.5 sm:static sm:table-cell sm:px-4 sm:py-3">
                            <Checkbox
                              name="ids"
                              value={r.id}
                              checked={selected.includes(r.id)}
                              onChange={() => toggle(r.id)}
                              aria-label={t('cart.enrollments.select', { name: r.full_name ?? '' })}
                            />
                          </td>
                        ) : null}
                        <td className={cell}>
                          <div className="font-medium text-slate-900">{r.full_name ?? '—'}</div>
                          <div className="text-xs text-slate-500">{t(`order.types.${r.type}`)}</div>
                          {r.error_count ? (
                            <>
                              <StatusBadge tone="red">
                                {t('order.table.error_count', { count: r.error_count })}
                              </StatusBadge>
                              <EnrollmentErrors errors={r.errors} />
                            </>
                          ) : null}
                        </td>
                        <td className={`${cell} text-slate-700`}>
                          <PhoneLabel>{t('cart.batches.campus')}</PhoneLabel>
                          {r.campus.name}
                        </td>
                        <td className={`${cell} whitespace-nowrap text-slate-700`}>
                          <PhoneLabel>{t('order.table.date_of_birth')}</PhoneLabel>
                          {britishDate(r.date_of_birth)}
                        </td>
                        <td className={`${cell} whitespace-nowrap text-slate-700`}>
                          <PhoneLabel>{t('order.table.trip')}</PhoneLabel>
                          {britishDate(r.start_date)} – {britishDate(r.end_date)}
                        </td>
                        <td className={`${cell} text-slate-700`}>
                          <PhoneLabel>{t('order.table.destination')}</PhoneLabel>
                          {r.destination_country ?? '—'}
                        </td>
                        <td className={`${cell} whitespace-nowrap tabular-nums text-slate-900 sm:text-right`}>
                          <PhoneLabel>{t('order.table.total')}</PhoneLabel>
                          {r.fee ? formatMinor(r.fee.total_minor, r.fee.currency) : '—'}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </AppForm>
            <Pagination meta={list.meta} />
          </Card>
          <div className="flex flex-wrap justify-end gap-3">
            {orderLink}
            {data.canOrder ? <ButtonLink to={lp('/cart/checkout')}>{t('cart.checkout')}</ButtonLink> : null}
          </div>
        </>
      )}
    </div>
  );
}
