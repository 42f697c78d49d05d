import { useTranslation } from 'react-i18next';
import type { AgingMinor } from '@server/domain/billing/summary';
import type { StatementPageData } from '~/lib/billing.server';
import { AGING_BUCKETS } from '@server/domain/invoices/status';
import { InvoiceLink } from '~/components/invoices/invoice-link';
import { DataTable, type Column } from '~/components/ui/data-table';
import { formatDate } from '~/lib/dates';
import { formatMinor } from '~/lib/money';

export const AGING_COLUMNS = [...AGING_BUCKETS, 'unapplied_credit', 'total'] as const;

/**
 * The aging figures (buckets, unapplied credit, balance) as columns of a DataTable whose rows each hold
 * one aging in one currency: a statement's aging, a client's receivables, the billing dashboard.
 */
export function agingColumns<T>(
  t: (key: string) => string,
  read: (row: T) => { aging: AgingMinor; currency: string },
): Column<T>[] {
  return AGING_COLUMNS.map((k) => ({
    key: k,
    header: t(`billing.aging.${k}`),
    render: (row: T) => {
      const { aging, currency } = read(row);
      return formatMinor(k === 'unapplied_credit' ? aging.credit : aging[k], currency);
    },
    className: `text-right tabular-nums whitespace-nowrap ${k === 'total' ? 'font-semibold' : ''}`,
    card: 'figure' as const,
  }));
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
      card: 'figure',
    },
    {
      key: 'type',
      header: t('billing.statement.columns.type'),
      render: (e) => t(`billing.statement.kinds.${e.kind}`),
      className: 'whitespace-nowrap',
      card: 'status',
    },
    {
      key: 'reference',
      header: t('billing.statement.columns.reference'),
      render: (e) => (
        <InvoiceLink number={e.reference} clientId={statement.client.id} invoiceId={e.invoice_id} />
      ),
      className: 'whitespace-nowrap',
      card: 'title',
    },
    {
      key: 'detail',
      header: t('billing.statement.columns.detail'),
      render: (e) =>
        e.kind === 'credit_note' && e.detail ? (
          <InvoiceLink
            number={e.detail}
            clientId={statement.client.id}
            invoiceId={e.credit_for_id ?? undefined}
            sentence={t('billing.statement.credit_for', { number: e.detail })}
          />
        ) : e.detail ? (
          t(`billing.statement.ways.${e.detail}`)
        ) : e.due_at ? (
          t('billing.statement.due_on', { date: formatDate(e.due_at) })
        ) : (
          ''
        ),
      className: 'whitespace-nowrap text-slate-600',
      card: 'hidden',
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
  const agingColumnsOf = (currency: string) => agingColumns(t, (aging: AgingMinor) => ({ aging, currency }));
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
