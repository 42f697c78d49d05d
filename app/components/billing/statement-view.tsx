import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { AgingMinor } from '@server/domain/billing/summary';
import type { StatementPageData } from '~/lib/billing.server';
import { AGING_BUCKETS } from '@server/domain/invoices/status';
import { ScrollBox } from '~/components/ui/data-table';
import { formatDate } from '~/lib/dates';
import { formatMinor } from '~/lib/money';

const th = 'px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-600';
const td = 'px-3 py-2 text-sm text-slate-800 whitespace-nowrap';
const num = `${td} text-right tabular-nums`;

export const AGING_COLUMNS = [...AGING_BUCKETS, 'unapplied_credit', 'total'] as const;

/** One aging row's figures (buckets, unapplied credit, balance) as table cells. */
export function AgingCells({ aging, currency }: { aging: AgingMinor; currency: string }) {
  return (
    <>
      {AGING_COLUMNS.map((k) => (
        <td key={k} className={`${num} ${k === 'total' ? 'font-semibold' : ''}`}>
          {formatMinor(k === 'unapplied_credit' ? aging.credit : aging[k], currency)}
        </td>
      ))}
    </>
  );
}

export function AgingHeaders({ first }: { first?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <tr>
      {first}
      {AGING_COLUMNS.map((k) => (
        <th key={k} scope="col" className={`${th} text-right`}>
          {t(`billing.aging.${k}`)}
        </th>
      ))}
    </tr>
  );
}

/** A statement of account: per currency its lines with the running balance, and the aging at the end. */
export function StatementView({ statement }: { statement: StatementPageData }) {
  const { t } = useTranslation();
  if (!statement.currencies.length)
    return (
      <p className="rounded-xl bg-white p-6 text-slate-700 ring-1 ring-slate-200">
        {t('billing.statement.empty')}
      </p>
    );
  return (
    <div className="space-y-8">
      {statement.currencies.map((c) => (
        <section
          key={c.currency}
          className="space-y-4"
          aria-label={t('billing.statement.currency', { currency: c.currency })}
        >
          {statement.currencies.length > 1 ? (
            <h2 className="text-lg font-semibold text-slate-900">
              {t('billing.statement.currency', { currency: c.currency })}
            </h2>
          ) : null}
          <div className="overflow-hidden rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
            <ScrollBox label={t('billing.statement.title')}>
              <table className="min-w-full divide-y divide-slate-200">
                <caption className="sr-only">
                  {t('billing.statement.title')} {c.currency}
                </caption>
                <thead className="bg-slate-50">
                  <tr>
                    <th scope="col" className={th}>
                      {t('billing.statement.columns.date')}
                    </th>
                    <th scope="col" className={th}>
                      {t('billing.statement.columns.type')}
                    </th>
                    <th scope="col" className={th}>
                      {t('billing.statement.columns.reference')}
                    </th>
                    <th scope="col" className={th}>
                      {t('billing.statement.columns.detail')}
                    </th>
                    <th scope="col" className={`${th} text-right`}>
                      {t('billing.statement.columns.debit')}
                    </th>
                    <th scope="col" className={`${th} text-right`}>
                      {t('billing.statement.columns.credit')}
                    </th>
                    <th scope="col" className={`${th} text-right`}>
                      {t('billing.statement.columns.balance')}
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  <tr className="bg-slate-50/60" data-line="opening">
                    <th scope="row" colSpan={6} className={`${td} text-left font-semibold`}>
                      {t('billing.statement.opening', { date: formatDate(statement.from) })}
                    </th>
                    <td className={`${num} font-semibold`}>{formatMinor(c.opening_minor, c.currency)}</td>
                  </tr>
                  {c.entries.map((e, i) => (
                    <tr key={`${e.kind}-${e.reference}-${i}`}>
                      <td className={td}>{formatDate(e.date)}</td>
                      <td className={td}>{t(`billing.statement.kinds.${e.kind}`)}</td>
                      <td className={td}>{e.reference}</td>
                      <td className={`${td} text-slate-600`}>
                        {e.kind === 'credit_note' && e.detail
                          ? t('billing.statement.credit_for', { number: e.detail })
                          : e.detail
                            ? t(`billing.statement.ways.${e.detail}`)
                            : e.due_at
                              ? t('billing.statement.due_on', { date: formatDate(e.due_at) })
                              : ''}
                      </td>
                      <td className={num}>{e.debit_minor ? formatMinor(e.debit_minor, c.currency) : ''}</td>
                      <td className={num}>{e.credit_minor ? formatMinor(e.credit_minor, c.currency) : ''}</td>
                      <td className={num}>{formatMinor(e.balance_minor, c.currency)}</td>
                    </tr>
                  ))}
                  <tr className="bg-slate-50/60" data-line="closing">
                    <th scope="row" colSpan={6} className={`${td} text-left font-semibold`}>
                      {t('billing.statement.closing', { date: formatDate(statement.to) })}
                    </th>
                    <td className={`${num} font-semibold`}>{formatMinor(c.closing_minor, c.currency)}</td>
                  </tr>
                </tbody>
              </table>
            </ScrollBox>
          </div>
          <div className="overflow-hidden rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
            <ScrollBox label={t('billing.statement.aging_at', { date: formatDate(statement.to) })}>
              <table className="min-w-full divide-y divide-slate-200">
                <caption className="px-3 pt-3 text-left text-sm font-semibold text-slate-900">
                  {t('billing.statement.aging_at', { date: formatDate(statement.to) })}
                </caption>
                <thead className="bg-slate-50">
                  <AgingHeaders />
                </thead>
                <tbody>
                  <tr>
                    <AgingCells aging={c.aging} currency={c.currency} />
                  </tr>
                </tbody>
              </table>
            </ScrollBox>
          </div>
        </section>
      ))}
    </div>
  );
}
