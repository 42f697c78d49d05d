/**
 * /manage-users/school-users: school users by client and campus, active by default; the declined list is
 * the status "declined". A school master user sees their own school's users only.
 */
import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { schoolUsersLoader } from '~/lib/users.server';
import { localePath } from '~/i18n/config';
import { ButtonLink } from '~/components/ui/button';
import { FilterSearch, FilterSelect, FiltersBar, useExportHref } from '~/components/ui/list-controls';
import { SummaryTiles } from '~/components/ui/summary-tiles';
import { SchoolUserStatusFilter, UsersTable } from '~/components/users/users';

export const loader = (args: LoaderFunctionArgs) => schoolUsersLoader(args);

export default function SchoolUsers() {
  const { t, i18n } = useTranslation();
  const { list, summary, abilities, filters, ownSchool } = useLoaderData<typeof loader>();
  const exportHref = useExportHref();
  return (
    <>
      <SummaryTiles
        tiles={[
          { label: t('users.summary.active'), value: summary.active },
          { label: t('users.summary.invited'), value: summary.invited },
          { label: t('users.summary.pending'), value: summary.pending },
          { label: t('users.summary.suspended'), value: summary.suspended },
        ]}
      />
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-lg font-semibold text-slate-900">{t('users.tabs.school')}</h2>
        {abilities.school.create ? (
          <ButtonLink to={localePath(i18n.language, '/manage-users/school/new')}>
            {t('users.invite_school')}
          </ButtonLink>
        ) : null}
      </div>
      <FiltersBar exportHref={exportHref}>
        <FilterSearch label={t('users.search')} placeholder={t('users.search_placeholder')} />
        <SchoolUserStatusFilter />
        {filters.clients.length ? (
          <FilterSelect
            name="clients"
            label={t('users.fields.client')}
            any={t('users.all_clients')}
            options={filters.clients.map((c) => ({ value: c.id, label: c.name }))}
          />
        ) : null}
        {filters.campuses.length ? (
          <FilterSelect
            name="campuses"
            label={t('users.fields.campus')}
            any={t('users.all_campuses')}
            options={filters.campuses.map((c) => ({ value: c.id, label: c.name }))}
          />
        ) : null}
      </FiltersBar>
      <UsersTable
        family="school"
        rows={list.items}
        meta={list.meta}
        caption={t('users.tabs.school')}
        belongsTo={ownSchool ? undefined : t('users.fields.client')}
      />
    </>
  );
}
