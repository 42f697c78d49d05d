/** /manage-users: company users, active by default, of the current company by default; summary; invite. */
import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { USER_LIST_STATUSES } from '@server/domain/users/values';
import { companyUsersLoader } from '~/lib/users.server';
import { localePath } from '~/i18n/config';
import { ButtonLink } from '~/components/ui/button';
import { FilterSearch, FilterSelect, FiltersBar, useExportHref } from '~/components/ui/list-controls';
import { SummaryTiles } from '~/components/ui/summary-tiles';
import { UsersTable } from '~/components/users/users';

export const loader = (args: LoaderFunctionArgs) => companyUsersLoader(args);

export default function CompanyUsers() {
  const { t, i18n } = useTranslation();
  const { list, summary, abilities, companies } = useLoaderData<typeof loader>();
  const exportHref = useExportHref();
  return (
    <>
      <SummaryTiles
        tiles={[
          { label: t('users.summary.total'), value: summary.total },
          { label: t('users.summary.active'), value: summary.active },
          { label: t('users.summary.invited'), value: summary.invited },
          { label: t('users.summary.archived'), value: summary.archived },
        ]}
      />
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-lg font-semibold text-slate-900">{t('users.tabs.company')}</h2>
        {abilities.company.create ? (
          <ButtonLink to={localePath(i18n.language, '/manage-users/company/new')}>
            {t('users.invite_company')}
          </ButtonLink>
        ) : null}
      </div>
      <FiltersBar exportHref={exportHref}>
        <FilterSearch label={t('users.search')} placeholder={t('users.search_placeholder')} />
        <FilterSelect
          name="status"
          label={t('users.fields.status')}
          options={[...USER_LIST_STATUSES.filter((s) => s !== 'suspended'), 'all' as const].map((s) => ({
            value: s,
            label: t(`users.statuses.${s}`),
          }))}
        />
        {companies.length > 1 ? (
          <FilterSelect
            name="companies"
            label={t('users.fields.companies')}
            any={t('users.all_companies')}
            options={companies.map((c) => ({ value: c.id, label: c.name }))}
          />
        ) : null}
      </FiltersBar>
      <UsersTable
        family="company"
        rows={list.items}
        meta={list.meta}
        caption={t('users.tabs.company')}
        belongsTo={t('users.fields.companies')}
      />
    </>
  );
}
