/** The read-only tabs of a client page: users, campuses, service agreements, and the money tabs. */
import { Link, useLocation, useSearchParams } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import type { ListMeta } from '@server/domain/list-query';
import { localePath } from '~/i18n/config';
import { formatDate, formatDateTime } from '~/lib/dates';
import { ButtonLink } from '~/components/ui/button';
import { DataTable, type Column } from '~/components/ui/data-table';
import { StatusBadge, statusTone } from '~/components/ui/status-badge';

export interface SchoolUserRow {
  id: string;
  full_name: string;
  email: string;
  status: string;
  suspended: boolean;
  can_access_all_campuses: boolean;
  is_master_user: boolean;
  campuses: number;
  roles: { name: string }[];
  last_login_at: string | null;
}

export function UsersTab({ users }: { users: { items: SchoolUserRow[]; meta: ListMeta } }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const location = useLocation();
  const current = params.get('status') ?? 'active';
  const link = (status: string) => {
    const next = new URLSearchParams(params);
    next.set('status', status);
    next.delete('page');
    return `${location.pathname}?${next}`;
  };
  const columns: Column<SchoolUserRow>[] = [
    {
      key: 'name',
      header: t('clients.users.columns.name'),
      sort: 'first_name',
      render: (u) => (
        <div>
          <p className="font-medium text-slate-900">{u.full_name}</p>
          <div className="mt-0.5 flex flex-wrap gap-1">
            {u.is_master_user ? (
              <StatusBadge tone="blue">{t('clients.users.master_user')}</StatusBadge>
            ) : null}
            {u.suspended ? <StatusBadge tone="red">{t('clients.users.suspended')}</StatusBadge> : null}
          </div>
        </div>
      ),
    },
    { key: 'email', header: t('clients.users.columns.email'), sort: 'email', render: (u) => u.email },
    { key: 'role', header: t('clients.users.columns.role'), render: (u) => u.roles[0]?.name ?? '—' },
    {
      key: 'access',
      header: t('clients.users.columns.access'),
      render: (u) =>
        u.can_access_all_campuses
          ? t('clients.users.all_campuses')
          : t('clients.users.some_campuses', { count: u.campuses }),
    },
    {
      key: 'status',
      header: t('clients.users.columns.status'),
      render: (u) => (
        <StatusBadge tone={statusTone(u.status)}>{t(`clients.users.statuses.${u.status}`)}</StatusBadge>
      ),
    },
    {
      key: 'last_login',
      header: t('clients.users.columns.last_login'),
      render: (u) => (u.last_login_at ? formatDateTime(u.last_login_at) : '—'),
    },
  ];
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-600">{t('clients.users.intro')}</p>
      <nav className="flex flex-wrap gap-2" aria-label={t('clients.users.status_filter')}>
        {(['active', 'invited', 'archived', 'all'] as const).map((s) => (
          <Link
            key={s}
            to={link(s)}
            preventScrollReset
            aria-current={current === s ? 'page' : undefined}
            className={`rounded-full px-3 py-1 text-sm font-medium ring-1 ${
              current === s
                ? 'bg-primary-800 text-white ring-primary-800'
                : 'bg-white text-slate-700 ring-slate-300 hover:bg-slate-50'
            }`}
          >
            {t(`clients.users.statuses.${s}`)}
          </Link>
        ))}
      </nav>
      <DataTable
        rows={users.items}
        columns={columns}
        rowId={(u) => u.id}
        meta={users.meta}
        empty={t('clients.users.empty')}
      />
    </div>
  );
}

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
    { key: 'country', header: t('clients.campuses.columns.country'), render: (c) => c.country ?? '—' },
    {
      key: 'status',
      header: t('clients.campuses.columns.status'),
      sort: 'status',
      render: (c) => (
        <StatusBadge tone={statusTone(c.status)}>{t(`clients.campuses.statuses.${c.status}`)}</StatusBadge>
      ),
    },
    {
      key: 'contracts',
      header: t('clients.campuses.columns.contracts'),
      className: 'text-right',
      render: (c) => c.contracts,
    },
    {
      key: 'created_at',
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
    { key: 'insurer', header: t('clients.agreements.columns.insurer'), render: (a) => a.insurer ?? '—' },
    {
      key: 'period',
      header: t('clients.agreements.columns.period'),
      sort: 'start_date',
      render: (a) =>
        `${formatDate(a.start_date)} – ${a.end_date ? formatDate(a.end_date) : t('clients.agreements.open_ended')}`,
    },
    {
      key: 'status',
      header: t('clients.agreements.columns.status'),
      sort: 'status',
      render: (a) => (
        <StatusBadge tone={statusTone(a.status)}>{t(`clients.agreements.statuses.${a.status}`)}</StatusBadge>
      ),
    },
    {
      key: 'products',
      header: t('clients.agreements.columns.products'),
      className: 'text-right',
      render: (a) => a.products,
    },
    {
      key: 'contracts',
      header: t('clients.agreements.columns.contracts'),
      className: 'text-right',
      render: (a) => a.contracts,
    },
    {
      key: 'valid',
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
