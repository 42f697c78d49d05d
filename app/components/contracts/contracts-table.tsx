/**
 * A page of contracts (a campus's, an agreement's): product, campus, period, prices, status, with server
 * sorting and paging, and a link to each contract when `href` is given.
 */
import type { SerializeFrom } from '@remix-run/cloudflare';
import { Link } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import type { ContractView as ContractData } from '@server/domain/contracts/service';
import type { ListMeta } from '@server/domain/list-query';
import { formatDate } from '~/lib/dates';
import { DataTable, type Column } from '~/components/ui/data-table';
import { StatusBadge, statusTone } from '~/components/ui/status-badge';
import { formatMoney } from '~/lib/money';

/** A contract as a loader hands it to the page (dates as text). */
export type ContractView = SerializeFrom<ContractData>;

export function ContractStatus({ contract }: { contract: Pick<ContractView, 'status' | 'period'> }) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-wrap gap-1">
      <StatusBadge tone={statusTone(contract.status)}>
        {t(`contracts.statuses.${contract.status}`)}
      </StatusBadge>
      {contract.status === 'active' ? (
        <StatusBadge tone={contract.period === 'current' ? 'blue' : 'slate'}>
          {t(`contracts.periods.${contract.period}`)}
        </StatusBadge>
      ) : null}
    </div>
  );
}

export function ContractsTable({
  contracts,
  href,
  showCampus = true,
  showAgreement = true,
}: {
  contracts: { items: ContractView[]; meta: ListMeta };
  href?: (c: ContractView) => string;
  showCampus?: boolean;
  showAgreement?: boolean;
}) {
  const { t } = useTranslation();
  const columns: Column<ContractView>[] = [
    {
      key: 'product',
      card: 'title',
      header: t('contracts.columns.product'),
      sort: 'product',
      render: (c) => (
        <div>
          {href ? (
            <Link to={href(c)} className="font-medium text-primary-800 hover:underline">
              {c.product.name}
            </Link>
          ) : (
            <span className="font-medium text-slate-900">{c.product.name}</span>
          )}
          <p className="text-xs text-slate-500">
            {c.product.code}
            {c.is_default ? ` · ${t('contracts.default')}` : ''}
          </p>
        </div>
      ),
    },
    ...(showCampus
      ? [
          {
            key: 'campus',
            card: 'figure' as const,
            header: t('contracts.columns.campus'),
            sort: 'campus',
            render: (c: ContractView) => c.campus.name,
          },
        ]
      : []),
    {
      key: 'dates',
      card: 'figure',
      header: t('contracts.columns.dates'),
      sort: 'start_date',
      render: (c) => (
        <span className="whitespace-nowrap">
          {formatDate(c.start_date)} – {c.end_date ? formatDate(c.end_date) : t('contracts.open_ended')}
        </span>
      ),
    },
    {
      key: 'net',
      card: 'hidden',
      header: t('contracts.columns.net_price'),
      sort: 'net_price',
      className: 'text-right',
      render: (c) => formatMoney(c.net_price, c.currency),
    },
    {
      key: 'sale',
      card: 'figure',
      header: t('contracts.columns.sale_price'),
      sort: 'sale_price',
      className: 'text-right',
      render: (c) => formatMoney(c.sale_price, c.currency),
    },
    {
      key: 'min_days',
      card: 'hidden',
      header: t('contracts.columns.min_days'),
      sort: 'min_days',
      render: (c) => c.min_days,
    },
    ...(showAgreement
      ? [
          {
            key: 'agreement',
            card: 'hidden' as const,
            header: t('contracts.columns.agreement'),
            render: (c: ContractView) => c.service_agreement?.name ?? t('contracts.no_agreement'),
          },
        ]
      : []),
    {
      key: 'status',
      card: 'status',
      header: t('contracts.columns.status'),
      sort: 'status',
      render: (c) => <ContractStatus contract={c} />,
    },
  ];
  return (
    <DataTable
      rows={contracts.items}
      columns={columns}
      rowId={(c) => c.id}
      meta={contracts.meta}
      caption={t('contracts.title')}
      empty={t('contracts.empty')}
    />
  );
}
