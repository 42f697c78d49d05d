/**
 * /billing (Accounting > Billing): the billing summary. Per currency what is outstanding, overdue and paid
 * this month; the chart of the last twelve months' invoiced and collected amounts (SVG in the HTML); and
 * the aging of every client's balance, largest first, 25 a page, each linking to the client's receivables. A school
 * user's billing page is their own statement of account.
 */
import {
  json,
  redirect,
  type LoaderFunctionArgs,
  type MetaFunction,
  type SerializeFrom,
} from '@remix-run/cloudflare';
import { Link, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { agingPage, billingSummary, SUMMARY_PERMISSION } from '@server/domain/billing/summary';
import { pageTitle } from '~/lib/meta';
import { localePath } from '~/i18n/config';
import { formatMinor } from '~/lib/money';
import { Card, PageHeader } from '~/components/ui/card';
import { SummaryTiles } from '~/components/ui/summary-tiles';
import { DataTable, type Column } from '~/components/ui/data-table';
import { InvoicedCollectedChart } from '~/components/billing/chart';
import { agingColumns } from '~/components/billing/statement-view';
import { pageLoader } from '~/lib/loaders.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: SUMMARY_PERMISSION,
    async load({ ctx, request, context, lang }) {
      if (ctx.actor.user_type === 'school') throw redirect(localePath(lang, '/billing/statement'));
      const { aging, ...summary } = await billingSummary(ctx);
      const page = Number(new URL(request.url).searchParams.get('page') ?? 1);
      return json({
        title: pageTitle(context, request, 'billing.title'),
        summary,
        aging: agingPage(aging, page),
      });
    },
  })(args);

type AgingRow = SerializeFrom<typeof loader>['aging']['items'][number];

export default function BillingSummaryPage() {
  const { t, i18n } = useTranslation();
  const { summary, aging } = useLoaderData<typeof loader>();
  const to = (path: string) => localePath(i18n.language, path);
  const agingTable: Column<AgingRow>[] = [
    {
      key: 'client',
      header: t('billing.aging.client'),
      card: 'title',
      render: (a) => (
        <Link
          to={to(`/clients/${a.client.id}/receivables`)}
          className="font-medium text-primary-800 underline-offset-2 hover:underline"
        >
          {a.client.name}
        </Link>
      ),
    },
    { key: 'currency', header: t('billing.aging.currency'), card: 'status', render: (a) => a.currency },
    ...agingColumns(t, (a: AgingRow) => ({
      currency: a.currency,
      aging: {
        current: a.current_minor,
        d1_30: a.d1_30_minor,
        d31_60: a.d31_60_minor,
        d61_90: a.d61_90_minor,
        over_90: a.over_90_minor,
        credit: a.unapplied_credit_minor,
        total: a.total_minor,
      },
    })),
  ];
  return (
    <div>
      <PageHeader title={t('billing.title')} />
      {!summary.currencies.length ? (
        <Card>
          <p className="text-slate-700">{t('billing.empty')}</p>
        </Card>
      ) : null}
      {summary.currencies.map((c) => (
        <section key={c.currency} aria-label={c.currency} className="mb-8">
          <SummaryTiles
            tiles={[
              {
                label: t('billing.tiles.outstanding', { currency: c.currency }),
                value: formatMinor(c.outstanding_minor, c.currency),
              },
              {
                label: t('billing.tiles.overdue', { currency: c.currency }),
                value: formatMinor(c.overdue_minor, c.currency),
              },
              {
                label: t('billing.tiles.paid_this_month', { currency: c.currency }),
                value: formatMinor(c.paid_this_month_minor, c.currency),
              },
              {
                label: t('billing.tiles.unapplied_credit', { currency: c.currency }),
                value: formatMinor(c.unapplied_credit_minor, c.currency),
              },
            ]}
          />
          <Card>
            <h2 className="mb-4 text-base font-semibold text-slate-900">
              {t('billing.chart.title', { currency: c.currency })}
            </h2>
            <InvoicedCollectedChart
              currency={c.currency}
              months={summary.months.filter((m) => m.currency === c.currency)}
            />
          </Card>
        </section>
      ))}
      {summary.currencies.length ? (
        <section className="space-y-3">
          <h2 className="text-base font-semibold text-slate-900">{t('billing.aging.title')}</h2>
          <DataTable
            rows={aging.items}
            columns={agingTable}
            rowId={(a) => `${a.client.id}-${a.currency}`}
            meta={aging.meta}
            caption={t('billing.aging.caption')}
            empty={t('billing.aging.empty')}
          />
        </section>
      ) : null}
    </div>
  );
}
