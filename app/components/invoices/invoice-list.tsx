/**
 * The one invoice list: /invoices, the client page's "invoices" tab, the campus page's tab and
 * /campuses/{id}/invoices. Filters in the address, the summary per currency as tiles, sort and paging,
 * the selection (rows or all matching) and the bulk downloads (one ZIP of PDFs or Excel files).
 */
import type { SerializeFrom } from '@remix-run/cloudflare';
import { useTranslation } from 'react-i18next';
import type { InvoiceView } from '@server/domain/invoices/queries';
import type { InvoiceSummaryRow } from '@server/domain/invoices/service';
import { INVOICE_LIST_STATUSES } from '@server/domain/invoices/values';
import type { ListMeta } from '@server/domain/list-query';
import { InvoiceLink } from './invoice-link';
import { formatDate } from '~/lib/dates';
import { formatMinor } from '~/lib/money';
import { DataTable, type Column } from '~/components/ui/data-table';
import {
  BulkActionBar,
  EmptyState,
  FilterDate,
  FilterSearch,
  FilterSelect,
  FiltersBar,
  useExportHref,
  useSelection,
} from '~/components/ui/list-controls';
import { SummaryTiles } from '~/components/ui/summary-tiles';
import { InvoiceState } from './invoice-bits';

export type InvoiceRow = SerializeFrom<InvoiceView>;

const TYPES = ['invoice', 'supplementary', 'credit_note'] as const;
const METHODS = ['credit_card', 'bank_transfer', 'invoiced_directly', 'pay_later'] as const;

export interface InvoiceListProps {
  list: { items: InvoiceRow[]; meta: ListMeta };
  summary: InvoiceSummaryRow[];
  currencies: string[];
  /** The address of an invoice's page. */
  hrefOf: (row: InvoiceRow) => string;
  /** The filters shown: the client and campus columns and filters on /invoices only. */
  scope: 'all' | 'client' | 'campus';
  clients?: { id: string; name: string }[];
  /** Where the selection is posted for the ZIP (language prefix included). */
  downloadAction: string;
  staff: boolean;
}

/**
 * The tiles of the summary: per currency, what was invoiced (invoices) and credited (credit notes) apart,
 * what is outstanding and overdue, what was received less refunds, and the credit on the account when
 * there is any: invoiced - credited - paid = outstanding - credit, the figures of /billing.
 */
function tilesOf(summary: InvoiceSummaryRow[], t: (k: string, o?: Record<string, unknown>) => string) {
  const tiles: { label: string; value: string; hint?: string }[] = [];
  const count = (n: number) => t('invoices.summary.invoices_hint', { count: n });
  for (const s of summary.slice(0, 2)) {
    tiles.push({
      label: t('invoices.summary.invoiced', { currency: s.currency }),
      value: formatMinor(s.total_minor, s.currency),
      hint: count(s.count),
    });
    if (s.credit_notes.count)
      tiles.push({
        label: t('invoices.summary.credited', { currency: s.currency }),
        value: formatMinor(s.credit_notes.total_minor, s.currency),
        hint: t('invoices.summary.credit_notes_hint', { count: s.credit_notes.count }),
      });
    tiles.push({
      label: t('invoices.summary.outstanding', { currency: s.currency }),
      value: formatMinor(s.balance_minor, s.currency),
    });
    tiles.push({
      label: t('invoices.summary.overdue', { currency: s.currency }),
      value: formatMinor(s.overdue.balance_minor, s.currency),
      hint: count(s.overdue.count),
    });
    tiles.push({
      label: t('invoices.summary.paid', { currency: s.currency }),
      value: formatMinor(s.paid_minor, s.currency),
    });
    if (s.credit_minor)
      tiles.push({
        label: t('invoices.summary.credit', { currency: s.currency }),
        value: formatMinor(s.credit_minor, s.currency),
      });
  }
  return tiles;
}

export function InvoiceList(p: InvoiceListProps) {
  const { t } = useTranslation();
  const exportHref = useExportHref();
  const { selection, onChange, form } = useSelection();
  const columns: Column<InvoiceRow>[] = [
    {
      key: 'number',
      header: t('invoices.fields.number'),
      sort: 'number',
      card: 'title',
      render: (r) => (
        <InvoiceLink number={r.number} href={p.hrefOf(r)}>
          {r.type !== 'invoice' ? (
            <span className="block font-sans font-normal text-slate-500">
              {t(`invoices.types.${r.type}`)}
            </span>
          ) : null}
        </InvoiceLink>
      ),
    },
    {
      key: 'date',
      header: t('invoices.fields.date'),
      sort: 'date',
      card: 'hidden',
      render: (r) => <span className="whitespace-nowrap">{formatDate(r.date)}</span>,
    },
    {
      key: 'due_at',
      header: t('invoices.fields.due_at'),
      sort: 'due_at',
      card: 'figure',
      render: (r) => (
        <span className="whitespace-nowrap">{r.type === 'credit_note' ? '—' : formatDate(r.due_at)}</span>
      ),
    },
    ...(p.scope !== 'campus'
      ? [
          {
            key: 'where',
            header: p.scope === 'all' && p.staff ? t('invoices.fields.client') : t('invoices.fields.campus'),
            sort: p.scope === 'all' && p.staff ? 'client' : undefined,
            card: 'hidden' as const,
            render: (r: InvoiceRow) =>
              p.scope === 'all' && p.staff ? (
                <span className="block min-w-40">
                  {r.client.name}
                  {r.campus ? (
                    <>
                      <br />
                      <span className="text-xs text-slate-500">{r.campus.name}</span>
                    </>
                  ) : null}
                </span>
              ) : (
                (r.campus?.name ?? '—')
              ),
          },
        ]
      : []),
    {
      key: 'status',
      header: t('invoices.fields.status'),
      card: 'status',
      render: (r) => <InvoiceState invoice={r} />,
    },
    {
      key: 'total',
      header: t('invoices.fields.total'),
      sort: 'total',
      className: 'text-right',
      card: 'figure',
      // A credit note's total is a credit: negative, as on its page and PDF.
      render: (r) => (
        <span className="whitespace-nowrap">
          {formatMinor(r.type === 'credit_note' ? -r.total_minor : r.total_minor, r.currency)}
        </span>
      ),
    },
    {
      key: 'balance',
      header: t('invoices.fields.balance'),
      sort: 'balance',
      className: 'text-right',
      card: 'figure',
      render: (r) => (
        <span className="whitespace-nowrap font-medium">{formatMinor(r.balance_minor, r.currency)}</span>
      ),
    },
  ];
  return (
    <>
      {p.summary.length ? <SummaryTiles tiles={tilesOf(p.summary, t)} /> : null}
      <FiltersBar exportHref={exportHref}>
        <FilterSearch name="number" label={t('invoices.fields.number')} placeholder="INV0000001" />
        <FilterSelect
          name="status"
          label={t('invoices.fields.status')}
          any={t('invoices.statuses.all')}
          options={INVOICE_LIST_STATUSES.map((s) => ({ value: s, label: t(`invoices.statuses.${s}`) }))}
        />
        {p.scope === 'all' && p.staff && p.clients ? (
          <FilterSelect
            name="client_id"
            label={t('invoices.fields.client')}
            any={t('invoices.filters.any')}
            options={p.clients.map((c) => ({ value: c.id, label: c.name }))}
          />
        ) : (
          <FilterSelect
            name="type"
            label={t('invoices.fields.type')}
            any={t('invoices.types.all')}
            options={TYPES.map((v) => ({ value: v, label: t(`invoices.types.${v}`) }))}
          />
        )}
        <FilterSelect
          name="currency"
          label={t('invoices.fields.currency')}
          any={t('invoices.filters.any')}
          options={p.currencies.map((c) => ({ value: c, label: c }))}
        />
        <details className="sm:col-span-2 lg:col-span-4">
          <summary className="cursor-pointer text-sm font-semibold text-primary-800">
            {t('invoices.filters.more')}
          </summary>
          <div className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            {p.scope === 'all' && p.staff ? (
              <FilterSelect
                name="type"
                label={t('invoices.fields.type')}
                any={t('invoices.types.all')}
                options={TYPES.map((v) => ({ value: v, label: t(`invoices.types.${v}`) }))}
              />
            ) : null}
            <FilterSelect
              name="payment_method"
              label={t('invoices.fields.payment_method')}
              any={t('invoices.filters.any')}
              options={METHODS.map((v) => ({ value: v, label: t(`invoices.methods.${v}`) }))}
            />
            <FilterSearch name="search" label={t('invoices.filters.search')} />
            <FilterDate name="date_from" label={t('invoices.fields.issue_from')} />
            <FilterDate name="date_to" label={t('invoices.fields.issue_to')} />
            <FilterDate name="due_from" label={t('invoices.fields.due_from')} />
            <FilterDate name="due_to" label={t('invoices.fields.due_to')} />
          </div>
        </details>
      </FiltersBar>
      <DataTable
        rows={p.list.items}
        columns={columns}
        rowId={(r) => r.id}
        meta={p.list.meta}
        selectable
        bulkForm={form}
        onSelectionChange={onChange}
        caption={t('invoices.title')}
        empty={<EmptyState message={t('invoices.empty')} />}
      />
      <BulkActionBar
        form={form}
        selection={selection}
        total={p.list.meta.total}
        actions={[
          { intent: 'pdf', label: t('invoices.bulk.pdf'), action: p.downloadAction, document: true },
          { intent: 'excel', label: t('invoices.bulk.excel'), action: p.downloadAction, document: true },
        ]}
      />
    </>
  );
}
