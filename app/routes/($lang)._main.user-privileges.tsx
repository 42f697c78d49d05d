/**
 * /user-privileges (spec 000 s.2 and s.6): the roles of each portal (company, school, student) and their
 * permissions. One tab per family: /user-privileges (company), /user-privileges/school,
 * /user-privileges/student. The tabs hold the roles list, the create/copy form and the matrix.
 */
import { json, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare';
import { Outlet } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { pageTitle } from '~/lib/meta';
import { localePath } from '~/i18n/config';
import { PageHeader } from '~/components/ui/card';
import { RouteTabs } from '~/components/ui/tabs';
import { pageLoader } from '~/lib/loaders.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_user_privilege',
    load({ request, context }) {
      return json({ title: pageTitle(context, request, 'roles.title') });
    },
  })(args);

export default function UserPrivilegesLayout() {
  const { t, i18n } = useTranslation();
  const base = localePath(i18n.language, '/user-privileges');
  return (
    <div className="mx-auto max-w-7xl">
      <PageHeader title={t('roles.title')} description={t('roles.intro')} />
      <RouteTabs
        label={t('roles.families_label')}
        tabs={(['company', 'school', 'student'] as const).map((family) => ({
          key: family,
          label: t(`roles.families.${family}`),
          to: family === 'company' ? base : `${base}/${family}`,
          index: family === 'company',
        }))}
      />
      <div className="mt-6">
        <Outlet />
      </div>
    </div>
  );
}
