/**
 * The read-only tabs of a client page: campuses, service agreements, and the money tabs (its users tab is
 * the users screens' list, app/components/users/users.tsx).
 */
import { Link } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import type { ListMeta } from '@server/domain/list-query';
import { localePath } from '~/i18n/config';
import { formatDate } from '~/lib/dates';
import { ButtonLink } from '~/components/ui/button';
import { DataTable, type Column } from '~/components/ui/data-table';
import { StatusBadge, statusTone } from '~/components/ui/status-badge';

export interface CampusRow {
  id: string;
  name: string;
  status: string;
  country: string | null;
  contracts: number;
  created_at: string;
}

export function CampusesTab({
  clientId,
  campuses,
  canCreate,
}: {
  clientId: string;
  campuses: { items: CampusRow[]; meta: ListMeta };
  canCreate: boolean;
}) {
  const { t, i18n } = useTranslation();
  const to = (path: string) => localePath(i18n.language, path);
  const columns: Column<CampusRow>[] = [
    {
      key: 'name',
      card: 'title',
      header: t('clients.campuses.columns.name'),
      sort: 'name',
      render: (c) => (
        <Link
          to={to(`/clients/${clientId}/campuses/${c.id}`)}
          className="font-medium text-primary-800 hover:underline"
        >
          {c.name}
        </Link>
      ),
    },
    {
      key: 'country',
      card: 'figure',
      header: t('clients.campuses.columns.country'),
      render: (c) => c.country ?? '—',
    },
    {
      key: 'status',
      card: 'status',
      header: t('clients.campuses.columns.status'),
      sort: 'status',
      render: (c) => (
        <StatusBadge tone={statusTone(c.status)}>{t(`clients.campuses.statuses.${c.status}`)}</StatusBadge>
      ),
    },
    {
      key: 'contracts',
      card: 'figure',
      header: t('clients.campuses.columns.contracts'),
      className: 'text-right',
      render: (c) => c.contracts,
    },
    {
      key: 'created_at',
      card: 'figure',
      header: t('clients.campuses.columns.created_at'),
      sort: 'created_at',
      render: (c) => formatDate(c.created_at),
    },
  ];
  return (
    <div className="space-y-4">
      {canCreate ? (
        <div className="flex justify-end">
          <ButtonLink to={to(`/clients/${clientId}/add-campus`)}>{t('clients.campuses.add')}</ButtonLink>
        </div>
      ) : null}
      <DataTable
        rows={campuses.items}
        columns={columns}
        rowId={(c) => c.id}
        meta={campuses.meta}
        empty={t('clients.campuses.empty')}
      />
    </div>
  );
}

export interface AgreementRow {
  id: string;
  name: string;
  insurer: string | null;
  start_date: string;
  end_date: string | null;
  status: string;
  products: number;
  contracts: number;
  valid: boolean;
}

export function AgreementsTab({
  clientId,
  agreements,
  canCreate,
  canUpdate,
}: {
  clientId: string;
  agreements: { items: AgreementRow[]; meta: ListMeta };
  canCreate: boolean;
  canUpdate: boolean;
}) {
  const { t, i18n } = useTranslation();
  const to = (path: string) => localePath(i18n.language, path);
  const columns: Column<AgreementRow>[] = [
    {
      key: 'name',
      card: 'title',
      header: t('clients.agreements.columns.name'),
      sort: 'name',
      render: (a) =>
        canUpdate ? (
          <Link
            to={to(`/clients/${clientId}/service-agreement/${a.id}/edit`)}
            className="font-medium text-primary-800 hover:underline"
          >
            {a.name}
          </Link>
        ) : (
          <span className="font-medium text-slate-900">{a.name}</span>
        ),
    },
    {
      key: 'insurer',
      card: 'hidden',
      header: t('clients.agreements.columns.insurer'),
      render: (a) => a.insurer ?? '—',
    },
    {
      key: 'period',
      card: 'figure',
      header: t('clients.agreements.columns.period'),
      sort: 'start_date',
      render: (a) =>
        `${formatDate(a.start_date)} – ${a.end_date ? formatDate(a.end_date) : t('clients.agreements.open_ended')}`,
    },
    {
      key: 'status',
      card: 'status',
      header: t('clients.agreements.columns.status'),
      sort: 'status',
      render: (a) => (
        <StatusBadge tone={statusTone(a.status)}>{t(`clients.agreements.statuses.${a.status}`)}</StatusBadge>
      ),
    },
    {
      key: 'products',
      card: 'figure',
      header: t('clients.agreements.columns.products'),
      className: 'text-right',
      render: (a) => a.products,
    },
    {
      key: 'contracts',
      card: 'figure',
      header: t('clients.agreements.columns.contracts'),
      className: 'text-right',
      render: (a) => a.contracts,
    },
    {
      key: 'valid',
      card: 'hidden',
      header: t('clients.agreements.columns.valid'),
      render: (a) => (a.valid ? t('clients.agreements.yes') : t('clients.agreements.no')),
    },
  ];
  return (
    <div className="space-y-4">
      {canCreate ? (
        <div className="flex justify-end">
          <ButtonLink to={to(`/clients/${clientId}/service-agreement/create`)}>
            {t('clients.agreements.create')}
          </ButtonLink>
        </div>
      ) : null}
      <DataTable
        rows={agreements.items}
        columns={columns}
        rowId={(a) => a.id}
        meta={agreements.meta}
        empty={t('clients.agreements.empty')}
      />
    </div>
  );
}
