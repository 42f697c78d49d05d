/**
 * A client's receivables tab: what the client owes per currency (aging on today), its invoices with a
 * balance (due state, days overdue) and its credit on the account, and the link to its statement.
 */
import { json, type LoaderFunctionArgs, type SerializeFrom } from '@remix-run/cloudflare';
import { Link, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { clientReceivables } from '@server/domain/billing/statement';
import { requireClientTab } from '~/lib/clients.server';
import { localePath } from '~/i18n/config';
import { formatDate } from '~/lib/dates';
import { formatMinor } from '~/lib/money';
import { buttonClass } from '~/components/ui/button';
import { DataTable, type Column } from '~/components/ui/data-table';
import { agingColumns } from '~/components/billing/statement-view';
import { useClient } from '~/components/clients/client-page';
import { InvoiceLink } from '~/components/invoices/invoice-link';
import { pageLoader } from '~/lib/loaders.server';
import { idSchema } from '~/lib/schemas.server';

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_client',
    params: idSchema,
    async load({ ctx, params }) {
      requireClientTab(ctx, 'receivables');
      return json({ receivables: await clientReceivables(ctx, params.id) });
    },
  })(args);

const STATE_TONE = {
  open: 'bg-slate-100 text-slate-800',
  due: 'bg-amber-100 text-amber-900',
  overdue: 'bg-red-100 text-red-800',
  credit: 'bg-green-100 text-green-800',
};

type Receivable = SerializeFrom<typeof loader>['receivables']['items'][number];
type Totals = SerializeFrom<typeof loader>['receivables']['totals'][number];

export default function ClientReceivablesTab() {
  const { t, i18n } = useTranslation();
  const { client } = useClient();
  const { receivables } = useLoaderData<typeof loader>();
  const to = (path: string) => localePath(i18n.language, path);
  const amount = 'text-right tabular-nums whitespace-nowrap';
  const columns: Column<Receivable>[] = [
    {
      key: 'number',
      header: t('billing.receivables.number'),
      card: 'title',
      render: (i) => <InvoiceLink number={i.number} clientId={client.id} invoiceId={i.id} />,
    },
    {
      key: 'campus',
      header: t('billing.statement.campus'),
      card: 'hidden',
      render: (i) => i.campus ?? '—',
    },
    {
      key: 'date',
      header: t('billing.statement.columns.date'),
      card: 'hidden',
      className: 'whitespace-nowrap',
      render: (i) => formatDate(i.date),
    },
    {
      key: 'due_at',
      header: t('billing.receivables.due_at'),
      card: 'figure',
      className: 'whitespace-nowrap',
      render: (i) => (i.type === 'credit_note' ? '—' : formatDate(i.due_at)),
    },
    {
      key: 'state',
      header: t('billing.receivables.state'),
      card: 'status',
      render: (i) => {
        const state = i.type === 'credit_note' || i.balance_minor < 0 ? 'credit' : (i.due_state ?? 'open');
        return (
          <>
            <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${STATE_TONE[state]}`}>
              {t(`billing.receivables.states.${state}`)}
            </span>
            {i.days_overdue ? (
              <span className="mt-1 block whitespace-nowrap text-xs text-slate-600">
                {t('billing.receivables.days_overdue', { count: i.days_overdue })}
              </span>
            ) : null}
          </>
        );
      },
    },
    {
      key: 'total',
      header: t('billing.receivables.total'),
      card: 'figure',
      className: amount,
      render: (i) => formatMinor(i.total_minor, i.currency),
    },
    {
      key: 'balance',
      header: t('billing.receivables.balance'),
      card: 'figure',
      className: `${amount} font-semibold`,
      render: (i) => formatMinor(i.balance_minor, i.currency),
    },
  ];
  const totalsColumns = agingColumns(t, (row: Totals) => row);
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-lg font-semibold text-slate-900">{t('billing.receivables.title')}</h2>
        <Link to={to(`/clients/${client.id}/statement`)} className={buttonClass('secondary')}>
          {t('billing.statement.link')}
        </Link>
      </div>
      {receivables.totals.map((totals) => (
        <section key={totals.currency} className="space-y-2">
          <h3 className="text-sm font-semibold text-slate-900">
            {t('billing.receivables.totals', { currency: totals.currency })}
          </h3>
          <DataTable
            rows={[totals]}
            columns={totalsColumns}
            rowId={(r) => r.currency}
            caption={t('billing.receivables.totals', { currency: totals.currency })}
          />
        </section>
      ))}
      <DataTable
        rows={receivables.items}
        columns={columns}
        rowId={(i) => i.id}
        caption={t('billing.receivables.title')}
        empty={t('billing.receivables.empty')}
      />
    </div>
  );
}
