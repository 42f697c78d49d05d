/**
 * A client's receivables tab: what the client owes per currency (aging on today), its invoices with a
 * balance (due state, days overdue) and its credit on the account, and the link to its statement.
 */
import { json, type LoaderFunctionArgs } from '@remix-run/cloudflare';
import { Link, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { clientReceivables } from '@server/domain/billing/statement';
import { requireClientTab } from '~/lib/clients.server';
import { localePath } from '~/i18n/config';
import { formatDate } from '~/lib/dates';
import { formatMinor } from '~/lib/money';
import { buttonClass } from '~/components/ui/button';
import { ScrollBox } from '~/components/ui/data-table';
import { AgingCells, AgingHeaders } from '~/components/billing/statement-view';
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

const th = 'px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-600';
const td = 'px-3 py-2 text-sm text-slate-800 whitespace-nowrap';
const STATE_TONE = {
  open: 'bg-slate-100 text-slate-800',
  due: 'bg-amber-100 text-amber-900',
  overdue: 'bg-red-100 text-red-800',
  credit: 'bg-green-100 text-green-800',
};

export default function ClientReceivablesTab() {
  const { t, i18n } = useTranslation();
  const { client } = useClient();
  const { receivables } = useLoaderData<typeof loader>();
  const to = (path: string) => localePath(i18n.language, path);
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-lg font-semibold text-slate-900">{t('billing.receivables.title')}</h2>
        <Link to={to(`/clients/${client.id}/statement`)} className={buttonClass('secondary')}>
          {t('billing.statement.link')}
        </Link>
      </div>
      {receivables.totals.map(({ currency, aging }) => (
        <div key={currency} className="overflow-hidden rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
          <ScrollBox label={t('billing.receivables.totals', { currency })}>
            <table className="min-w-full divide-y divide-slate-200">
              <caption className="px-3 pt-3 text-left text-sm font-semibold text-slate-900">
                {t('billing.receivables.totals', { currency })}
              </caption>
              <thead className="bg-slate-50">
                <AgingHeaders />
              </thead>
              <tbody>
                <tr>
                  <AgingCells aging={aging} currency={currency} />
                </tr>
              </tbody>
            </table>
          </ScrollBox>
        </div>
      ))}
      <div className="overflow-hidden rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
        <ScrollBox label={t('billing.receivables.title')}>
          <table className="min-w-full divide-y divide-slate-200">
            <caption className="sr-only">{t('billing.receivables.title')}</caption>
            <thead className="bg-slate-50">
              <tr>
                <th scope="col" className={th}>
                  {t('billing.receivables.number')}
                </th>
                <th scope="col" className={th}>
                  {t('billing.statement.campus')}
                </th>
                <th scope="col" className={th}>
                  {t('billing.statement.columns.date')}
                </th>
                <th scope="col" className={th}>
                  {t('billing.receivables.due_at')}
                </th>
                <th scope="col" className={th}>
                  {t('billing.receivables.state')}
                </th>
                <th scope="col" className={`${th} text-right`}>
                  {t('billing.receivables.total')}
                </th>
                <th scope="col" className={`${th} text-right`}>
                  {t('billing.receivables.balance')}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {receivables.items.length ? (
                receivables.items.map((i) => {
                  const state =
                    i.type === 'credit_note' || i.balance_minor < 0 ? 'credit' : (i.due_state ?? 'open');
                  return (
                    <tr key={i.id}>
                      <th scope="row" className={`${td} text-left font-medium`}>
                        <InvoiceLink number={i.number} clientId={client.id} invoiceId={i.id} />
                      </th>
                      <td className={td}>{i.campus ?? '—'}</td>
                      <td className={td}>{formatDate(i.date)}</td>
                      <td className={td}>{i.type === 'credit_note' ? '—' : formatDate(i.due_at)}</td>
                      <td className={td}>
                        <span
                          className={`rounded-full px-2 py-0.5 text-xs font-semibold ${STATE_TONE[state]}`}
                        >
                          {t(`billing.receivables.states.${state}`)}
                        </span>
                        {i.days_overdue ? (
                          <span className="mt-1 block whitespace-nowrap text-xs text-slate-600">
                            {t('billing.receivables.days_overdue', { count: i.days_overdue })}
                          </span>
                        ) : null}
                      </td>
                      <td className={`${td} text-right tabular-nums`}>
                        {formatMinor(i.total_minor, i.currency)}
                      </td>
                      <td className={`${td} text-right font-semibold tabular-nums`}>
                        {formatMinor(i.balance_minor, i.currency)}
                      </td>
                    </tr>
                  );
                })
              ) : (
                <tr>
                  <td colSpan={7} className="px-3 py-6 text-center text-sm text-slate-600">
                    {t('billing.receivables.empty')}
                  </td>
                </tr>
              )}
            </tbody>
          </table>
        </ScrollBox>
      </div>
    </div>
  );
}
