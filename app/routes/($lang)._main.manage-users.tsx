/**
 * /manage-users (spec 000 s.2, Users menu): company users and school users, one tab each (nested routes).
 * A school master user sees only the school users tab, with their own school's users.
 */
import { json, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare';
import { Outlet, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { userAbilities, USER_PERMISSIONS } from '@server/domain/users/service';
import { pageLoader } from '~/lib/loaders.server';
import { pageTitle } from '~/lib/meta';
import { localePath } from '~/i18n/config';
import { PageHeader } from '~/components/ui/card';
import { RouteTabs } from '~/components/ui/tabs';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: `${USER_PERMISSIONS.company.read}|${USER_PERMISSIONS.school.read}`,
    load({ ctx, request, context }) {
      const abilities = userAbilities(ctx.actor);
      return json({
        company: abilities.company.read,
        school: abilities.school.read,
        title: pageTitle(context, request, 'users.title'),
      });
    },
  })(args);

export default function ManageUsers() {
  const { t, i18n } = useTranslation();
  const { company, school } = useLoaderData<typeof loader>();
  const to = (path: string) => localePath(i18n.language, path);
  const tabs = [
    ...(company
      ? [{ key: 'company', label: t('users.tabs.company'), to: to('/manage-users'), index: true }]
      : []),
    ...(school
      ? [{ key: 'school', label: t('users.tabs.school'), to: to('/manage-users/school-users') }]
      : []),
  ];
  return (
    <div className="mx-auto max-w-7xl">
      <PageHeader title={t('users.title')} description={t('users.intro')} />
      {tabs.length > 1 ? <RouteTabs tabs={tabs} label={t('users.title')} /> : null}
      <div className="mt-4">
        <Outlet />
      </div>
    </div>
  );
}
