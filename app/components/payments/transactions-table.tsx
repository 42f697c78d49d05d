/**
 * The client page's "payments" and "transactions" lists: one table, the payments tab showing only the
 * payments that came in. Invoice numbers link to the invoice's page; receipts download; finance edits a
 * recorded payment or refund from here.
 */
import { Link } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import type { ClientTransactionRow } from '@server/domain/payments/client-lists';
import type { ListMeta } from '@server/domain/list-query';
import { DataTable, type Column } from '~/components/ui/data-table';
import { InvoiceLink } from '~/components/invoices/invoice-link';
import { StatusBadge } from '~/components/ui/status-badge';
import { britishDate } from '~/lib/dates';
import { formatMinor } from '~/lib/money';
import { localePath } from '~/i18n/config';

const TONES = { succeeded: 'green', pending: 'amber', failed: 'red', cancelled: 'slate' } as const;
const linkClass = 'font-medium text-primary-800 hover:underline';

export function TransactionsTable({
  clientId,
  list,
  mode,
  canEdit,
}: {
  clientId: string;
  list: { items: ClientTransactionRow[]; meta: ListMeta };
  mode: 'payments' | 'transactions';
  canEdit: boolean;
}) {
  const { t, i18n } = useTranslation();
  const to = (path: string) => localePath(i18n.language, path);
  const back = `/clients/${clientId}/${mode}`;
  const how = (r: ClientTransactionRow) =>
    r.method ? t(`payments.methods.${r.method}`) : t(`payments.gateways.${r.gateway}`);
  const columns: Column<ClientTransactionRow>[] = [
    {
      key: 'date',
      header: t('payments.list.date'),
      card: 'figure',
      render: (r) => britishDate(r.paid_on ?? r.created_at.slice(0, 10)),
    },
    {
      key: 'invoice',
      header: t('payments.list.invoice'),
      card: 'title',
      render: (r) => (
        <InvoiceLink
          number={r.invoice_number}
          clientId={clientId}
          invoiceId={r.invoice_id}
          className={linkClass}
        />
      ),
    },
    ...(mode === 'transactions'
      ? [
          {
            key: 'kind',
            header: t('payments.list.kind'),
            card: 'hidden' as const,
            render: (r: ClientTransactionRow) => t(`payments.kinds.${r.kind}`),
          },
        ]
      : []),
    { key: 'method', header: t('payments.list.method'), card: 'figure', render: how },
    ...(mode === 'transactions'
      ? [
          {
            key: 'status',
            header: t('payments.list.status'),
            card: 'status' as const,
            render: (r: ClientTransactionRow) => (
              <StatusBadge tone={TONES[r.status]}>{t(`payments.statuses.${r.status}`)}</StatusBadge>
            ),
          },
        ]
      : []),
    {
      key: 'amount',
      header: t('payments.list.amount'),
      className: 'text-right tabular-nums',
      card: 'figure',
      render: (r) => (r.kind === 'refund' ? '−' : '') + formatMinor(r.amount_minor, r.currency),
    },
    {
      key: 'receipt',
      header: t('payments.list.receipt'),
      card: 'hidden',
      render: (r) =>
        r.receipt_name ? (
          <a
            href={to(`/invoices/${r.invoice_id}/transactions/${r.id}/receipt`)}
            className={linkClass}
            download
            aria-label={`${t('payments.list.download')} ${r.receipt_name}`}
          >
            {r.receipt_name}
          </a>
        ) : (
          '—'
        ),
    },
    ...(canEdit
      ? [
          {
            key: 'edit',
            header: <span className="sr-only">{t('payments.list.edit')}</span>,
            card: 'actions' as const,
            render: (r: ClientTransactionRow) =>
              r.gateway !== 'barclaycard' && r.status === 'succeeded' ? (
                <Link
                  to={to(
                    `/invoices/${r.invoice_id}/transactions/${r.id}/edit?back=${encodeURIComponent(back)}`,
                  )}
                  className={linkClass}
                  aria-label={`${t('payments.list.edit')} ${r.invoice_number} ${formatMinor(r.amount_minor, r.currency)}`}
                >
                  {t('payments.list.edit')}
                </Link>
              ) : null,
          },
        ]
      : []),
  ];
  return (
    <DataTable
      rows={list.items}
      columns={columns}
      rowId={(r) => r.id}
      meta={list.meta}
      caption={t(
        mode === 'payments' ? 'payments.list.payments_caption' : 'payments.list.transactions_caption',
      )}
      empty={t(mode === 'payments' ? 'payments.list.no_payments' : 'payments.list.no_transactions')}
    />
  );
}
