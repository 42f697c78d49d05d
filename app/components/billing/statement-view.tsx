import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { AgingMinor } from '@server/domain/billing/summary';
import type { StatementPageData } from '~/lib/billing.server';
import { AGING_BUCKETS } from '@server/domain/invoices/status';
import { InvoiceLink } from '~/components/invoices/invoice-link';
import { DataTable, type Column } from '~/components/ui/data-table';
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

type StatementLine = StatementPageData['currencies'][number]['entries'][number];

/** The lines' row keys (their position: a statement may list one reference twice). */
const lineKeys = new WeakMap<StatementLine[], Map<StatementLine, string>>();
function lineIds(entries: StatementLine[]): Map<StatementLine, string> {
  let ids = lineKeys.get(entries);
  if (!ids) {
    ids = new Map(entries.map((e, i) => [e, String(i)]));
    lineKeys.set(entries, ids);
  }
  return ids;
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
  const right = 'text-right tabular-nums whitespace-nowrap';
  const columnsOf = (currency: string): Column<StatementLine>[] => [
    {
      key: 'date',
      header: t('billing.statement.columns.date'),
      render: (e) => formatDate(e.date),
      className: 'whitespace-nowrap',
    },
    {
      key: 'type',
      header: t('billing.statement.columns.type'),
      render: (e) => t(`billing.statement.kinds.${e.kind}`),
      className: 'whitespace-nowrap',
    },
    {
      key: 'reference',
      header: t('billing.statement.columns.reference'),
      render: (e) => (
        <InvoiceLink number={e.reference} clientId={statement.client.id} invoiceId={e.invoice_id} />
      ),
      className: 'whitespace-nowrap',
    },
    {
      key: 'detail',
      header: t('billing.statement.columns.detail'),
      render: (e) =>
        e.kind === 'credit_note' && e.detail
          ? t('billing.statement.credit_for', { number: e.detail })
          : e.detail
            ? t(`billing.statement.ways.${e.detail}`)
            : e.due_at
              ? t('billing.statement.due_on', { date: formatDate(e.due_at) })
              : '',
      className: 'whitespace-nowrap text-slate-600',
    },
    {
      key: 'debit',
      header: t('billing.statement.columns.debit'),
      render: (e) => (e.debit_minor ? formatMinor(e.debit_minor, currency) : ''),
      className: right,
    },
    {
      key: 'credit',
      header: t('billing.statement.columns.credit'),
      render: (e) => (e.credit_minor ? formatMinor(e.credit_minor, currency) : ''),
      className: right,
    },
    {
      key: 'balance',
      header: t('billing.statement.columns.balance'),
      render: (e) => formatMinor(e.balance_minor, currency),
      className: right,
    },
  ];
  const agingColumnsOf = (currency: string): Column<AgingMinor>[] =>
    AGING_COLUMNS.map((k) => ({
      key: k,
      header: t(`billing.aging.${k}`),
      render: (aging) => formatMinor(k === 'unapplied_credit' ? aging.credit : aging[k], currency),
      className: `${right} ${k === 'total' ? 'font-semibold' : ''}`,
    }));
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
          <DataTable
            rows={c.entries}
            columns={columnsOf(c.currency)}
            rowId={(e) => lineIds(c.entries).get(e) ?? e.reference}
            caption={`${t('billing.statement.title')} ${c.currency}`}
            empty={t('billing.statement.no_lines')}
            summaryStart={[
              {
                key: 'opening',
                label: t('billing.statement.opening', { date: formatDate(statement.from) }),
                cells: { balance: formatMinor(c.opening_minor, c.currency) },
              },
            ]}
            summaryEnd={[
              {
                key: 'closing',
                label: t('billing.statement.closing', { date: formatDate(statement.to) }),
                cells: { balance: formatMinor(c.closing_minor, c.currency) },
              },
            ]}
          />
          <div className="space-y-2">
            <h3 className="text-sm font-semibold text-slate-900">
              {t('billing.statement.aging_at', { date: formatDate(statement.to) })}
            </h3>
            <DataTable
              rows={[c.aging]}
              columns={agingColumnsOf(c.currency)}
              rowId={() => 'aging'}
              caption={t('billing.statement.aging_at', { date: formatDate(statement.to) })}
            />
          </div>
        </section>
      ))}
    </div>
  );
}
