/** A campus's users tab: the school users who reach this campus (the same list and pages as /manage-users). */
import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { requireCampusTab } from '~/lib/campuses.server';
import { schoolUsersLoader } from '~/lib/users.server';
import { pageLoader } from '~/lib/loaders.server';
import { idsSchema } from '~/lib/schemas.server';
import { FilterSearch, FiltersBar } from '~/components/ui/list-controls';
import { SchoolUserStatusFilter, UsersTable } from '~/components/users/users';

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_campus',
    params: idsSchema('id', 'campusId'),
    load({ ctx, params }) {
      requireCampusTab(ctx, 'users');
      return schoolUsersLoader(args, { clients: params.id, campuses: params.campusId });
    },
  })(args);

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
