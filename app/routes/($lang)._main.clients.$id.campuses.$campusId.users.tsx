/** A campus's users tab: the school users who reach this campus. */
import { json, type LoaderFunctionArgs } from '@remix-run/cloudflare';
import { useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { campusUsers } from '@server/domain/campuses/service';
import { listQuerySchema } from '@server/domain/lists';
import { requireCampusTab } from '~/lib/campuses.server';
import { queryOf } from '~/lib/lists.server';
import { DataTable } from '~/components/ui/data-table';
import { StatusBadge, statusTone } from '~/components/ui/status-badge';

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const ctx = requireCampusTab(request, context, 'users');
  return json({
    users: await campusUsers(ctx, params.campusId ?? '', listQuerySchema.parse(queryOf(request))),
  });
}

export default function CampusUsersTab() {
  const { t } = useTranslation();
  const { users } = useLoaderData<typeof loader>();
  return (
    <DataTable
      rows={users.items}
      rowId={(u) => u.id}
      meta={users.meta}
      caption={t('campuses.tabs.users')}
      empty={t('campuses.users.empty')}
      columns={[
        {
          key: 'name',
          header: t('campuses.users.name'),
          render: (u) => <span className="font-medium">{u.full_name}</span>,
        },
        { key: 'email', header: t('campuses.users.email'), render: (u) => u.email },
        { key: 'role', header: t('campuses.users.role'), render: (u) => u.role ?? '—' },
        {
          key: 'access',
          header: t('campuses.users.access'),
          render: (u) =>
            u.can_access_all_campuses ? t('campuses.users.all_campuses') : t('campuses.users.this_campus'),
        },
        {
          key: 'status',
          header: t('campuses.users.status'),
          render: (u) => (
            <StatusBadge tone={statusTone(u.status)}>{t(`campuses.user_statuses.${u.status}`)}</StatusBadge>
          ),
        },
      ]}
    />
  );
}
