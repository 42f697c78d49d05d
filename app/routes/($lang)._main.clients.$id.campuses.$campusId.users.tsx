/** A campus's users tab: the school users who reach this campus (the same list and pages as /manage-users). */
import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { requireCampusTab } from '~/lib/campuses.server';
import { schoolUsersLoader } from '~/lib/users.server';
import { FilterSearch, FiltersBar } from '~/components/ui/list-controls';
import { SchoolUserStatusFilter, UsersTable } from '~/components/users/users';

export async function loader(args: LoaderFunctionArgs) {
  requireCampusTab(args.request, args.context, 'users');
  return schoolUsersLoader(args, { clients: args.params.id ?? '', campuses: args.params.campusId ?? '' });
}

export default function CampusUsersTab() {
  const { t } = useTranslation();
  const { list } = useLoaderData<typeof loader>();
  return (
    <div className="space-y-4">
      <FiltersBar>
        <FilterSearch label={t('users.search')} placeholder={t('users.search_placeholder')} />
        <SchoolUserStatusFilter />
      </FiltersBar>
      <UsersTable family="school" rows={list.items} meta={list.meta} caption={t('campuses.tabs.users')} />
    </div>
  );
}
