/**
 * /insureds/new/fees?batch={id}: what each applicant of the order costs (premium, tax, total, in the
 * contract's currency: the fee stored with each enrollment, see workers/domain/enrollments/fees.ts) and
 * the total, before anything is bought.
 */
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare';
import { useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { batchStepPage } from '~/lib/enrollments.server';
import { pageLoader } from '~/lib/loaders.server';
import { pageQuerySchema } from '~/lib/schemas.server';
import { ORDER_PERMISSION } from '@server/domain/enrollments/batches';
import { localePath } from '~/i18n/config';
import { ButtonLink } from '~/components/ui/button';
import { Alert, Card, PageHeader } from '~/components/ui/card';
import { Pagination } from '~/components/ui/data-table';
import { OrderSteps } from '~/components/enrollments/order-bits';
import { PhoneLabel } from '~/components/enrollments/applicants-table';
import { tripDays } from '@server/domain/enrollments/values';
import { formatMinor } from '~/lib/money';
import { britishDate } from '~/lib/dates';
import { pageTitle } from '~/lib/meta';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: ORDER_PERMISSION,
    query: pageQuerySchema,
    async load(kit) {
      const page = await batchStepPage(kit, 'fees');
      return { ...page, title: pageTitle(kit.context, kit.request, 'order.fees.title') };
    },
  })(args);

export default function Fees() {
  const { t, i18n } = useTranslation();
  const data = useLoaderData<typeof loader>();
  const { batch, list, overview } = data;
  const lp = (path: string) => localePath(i18n.language, path);
  const currency = overview.fees.currency;
  // Cells stack into a card per applicant on phones (money side by side) and are table cells from `sm` up.
  const stack = 'block px-4 py-1 sm:table-cell sm:py-3';
  const cell = 'inline-block whitespace-nowrap px-4 py-1 tabular-nums sm:table-cell sm:py-3 sm:text-right';
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <PageHeader
        title={t('order.fees.title')}
        description={`${batch.campus.name} · ${batch.product.name}`}
      />
      <OrderSteps current="fees" batchId={batch.id} />
      <p className="text-sm text-slate-600">{t('order.fees.description')}</p>
      {overview.with_errors ? (
        <Alert>{t('order.fees.has_errors', { count: overview.with_errors })}</Alert>
      ) : null}
      <Card flush className="overflow-hidden">
        <div className="sm:overflow-x-auto">
          <table
            className="block min-w-full text-sm sm:table sm:divide-y sm:divide-slate-200"
            data-testid="fees-table"
          >
            <caption className="sr-only">{t('order.fees.title')}</caption>
            <thead className="hidden bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600 sm:table-header-group">
              <tr>
                <th scope="col" className="px-4 py-3">
                  {t('order.table.name')}
                </th>
                <th scope="col" className="px-4 py-3">
                  {t('order.table.trip')}
                </th>
                <th scope="col" className="px-4 py-3 text-right">
                  {t('order.fees.premium')}
                </th>
                <th scope="col" className="px-4 py-3 text-right">
                  {t('order.fees.tax')}
                </th>
                <th scope="col" className="px-4 py-3 text-right">
                  {t('order.fees.total')}
                </th>
                <th scope="col" className="px-4 py-3">
                  {t('order.fees.currency')}
                </th>
              </tr>
            </thead>
            <tbody className="block divide-y divide-slate-100 sm:table-row-group">
              {list.items.map((r) => (
                <tr key={r.id} data-testid="fee-row" className="block py-2 sm:table-row sm:py-0">
                  <td className={stack}>
                    <div className="font-medium text-slate-900">{r.full_name ?? '—'}</div>
                    <div className="text-xs text-slate-500">{t(`order.types.${r.type}`)}</div>
                  </td>
                  <td className={`${stack} whitespace-nowrap text-slate-700`}>
                    {britishDate(r.start_date)} – {britishDate(r.end_date)}
                    {r.start_date && r.end_date && r.end_date >= r.start_date ? (
                      <div className="text-xs text-slate-500">
                        {t('order.table.days', { count: tripDays(r.start_date, r.end_date) })}
                      </div>
                    ) : null}
                  </td>
                  {r.fee ? (
                    <>
                      <td className={cell}>
                        <PhoneLabel>{t('order.fees.premium')}</PhoneLabel>
                        {formatMinor(r.fee.premium_minor, r.fee.currency)}
                      </td>
                      <td className={cell}>
                        <PhoneLabel>{t('order.fees.tax')}</PhoneLabel>
                        {formatMinor(r.fee.tax_minor, r.fee.currency)}
                      </td>
                      <td className={`${cell} font-semibold text-slate-900`}>
                        <PhoneLabel>{t('order.fees.total')}</PhoneLabel>
                        {formatMinor(r.fee.total_minor, r.fee.currency)}
                      </td>
                    </>
                  ) : (
                    <td colSpan={3} className={`${stack} text-red-700 sm:text-right`}>
                      {t('order.fees.no_fee')}
                    </td>
                  )}
                  <td className="hidden px-4 py-3 text-slate-700 sm:table-cell">
                    {r.fee?.currency ?? currency}
                  </td>
                </tr>
              ))}
            </tbody>
            <tfoot className="block bg-slate-50 font-semibold text-slate-900 sm:table-footer-group">
              <tr data-testid="fees-total" className="block py-2 sm:table-row sm:py-0">
                <th scope="row" colSpan={2} className={`${stack} text-left`}>
                  {t('order.fees.sum', { count: overview.total })}
                </th>
                <td className={cell}>
                  <PhoneLabel>{t('order.fees.premium')}</PhoneLabel>
                  {formatMinor(overview.fees.premium_minor, currency)}
                </td>
                <td className={cell}>
                  <PhoneLabel>{t('order.fees.tax')}</PhoneLabel>
                  {formatMinor(overview.fees.tax_minor, currency)}
                </td>
                <td className={cell}>
                  <PhoneLabel>{t('order.fees.total')}</PhoneLabel>
                  {formatMinor(overview.fees.total_minor, currency)}
                </td>
                <td className="hidden px-4 py-3 sm:table-cell">{currency}</td>
              </tr>
            </tfoot>
          </table>
        </div>
        {list.meta.last_page > 1 ? <Pagination meta={list.meta} /> : null}
      </Card>
      <div className="flex flex-wrap justify-between gap-3">
        <ButtonLink to={lp(`/insureds/new/add?batch=${batch.id}`)} variant="secondary">
          {t('order.fees.back')}
        </ButtonLink>
        <ButtonLink to={lp(`/insureds/new/group-leader?batch=${batch.id}`)}>
          {t('order.fees.continue')}
        </ButtonLink>
      </div>
    </div>
  );
}
