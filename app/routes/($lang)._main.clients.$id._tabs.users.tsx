/** A client's users tab: the school users of the client (the same list and pages as /manage-users). */
import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { useLoaderData, useParams } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { requireClientTab } from '~/lib/clients.server';
import { schoolUsersLoader } from '~/lib/users.server';
import { pageLoader } from '~/lib/loaders.server';
import { idSchema } from '~/lib/schemas.server';
import { localePath } from '~/i18n/config';
import { ButtonLink } from '~/components/ui/button';
import { FilterSearch, FiltersBar } from '~/components/ui/list-controls';
import { SchoolUserStatusFilter, UsersTable } from '~/components/users/users';

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_client',
    params: idSchema,
    load({ ctx, params }) {
      requireClientTab(ctx, 'users');
      return schoolUsersLoader(args, { clients: params.id });
    },
  })(args);

export default function ClientUsersTab() {
  const { t, i18n } = useTranslation();
  const { id } = useParams();
  const { list, abilities } = useLoaderData<typeof loader>();
  return (
    <div className="space-y-4">
      {abilities.school.create ? (
        <div className="flex justify-end">
          <ButtonLink to={localePath(i18n.language, `/manage-users/school/new?client=${id}`)}>
            {t('users.invite_school')}
          </ButtonLink>
        </div>
      ) : null}
      <FiltersBar>
        <FilterSearch label={t('users.search')} placeholder={t('users.search_placeholder')} />
        <SchoolUserStatusFilter />
      </FiltersBar>
      <UsersTable family="school" rows={list.items} meta={list.meta} caption={t('users.tabs.school')} />
    </div>
  );
}
