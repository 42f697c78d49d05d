import { useFetcher } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { useRootData } from '~/root';
import { Popup } from '~/components/ui/popup';
import { Icon } from './icons';

/**
 * The company area of the top bar: one company is shown as text; several give a dropdown whose first
 * entry is "all companies". The current company's country is shown beside it. Never disabled.
 */
export function CompanySwitcher() {
  const { t } = useTranslation();
  const { user, csrfToken } = useRootData();
  const fetcher = useFetcher();
  if (!user || user.companies.length === 0) return null;
  const pending = fetcher.formData?.get('company_id');
  const selectedId = typeof pending === 'string' ? pending : user.selected_company_id;
  const current = user.companies.find((c) => c.id === selectedId);
  const country =
    current?.country_name ?? (user.companies.length === 1 ? user.companies[0].country_name : null);

  if (user.companies.length === 1) {
    return (
      <div className="flex min-w-0 items-center gap-2 text-sm" data-testid="company-area">
        <Icon name="building" className="h-5 w-5 shrink-0 text-primary-200" />
        <span className="truncate font-medium">{user.companies[0].name}</span>
        {country ? <span className="hidden truncate text-primary-200 md:inline">· {country}</span> : null}
      </div>
    );
  }

  const choose = (id: string) =>
    fetcher.submit(
      { company_id: id, _csrf: csrfToken },
      { method: 'post', action: '/actions/select-company' },
    );

  return (
    <div className="flex min-w-0 items-center gap-2 text-sm" data-testid="company-area">
      <div className="min-w-0">
        <Popup
          kind="listbox"
          buttonClassName="flex max-w-full items-center gap-2 rounded-lg bg-primary-900/40 px-2 py-1.5 font-medium ring-1 ring-white/20 hover:bg-primary-900/60 sm:max-w-xs sm:px-3"
          button={
            <>
              <Icon name="building" className="hidden h-5 w-5 shrink-0 text-primary-200 sm:block" />
              <span className="sr-only">{t('shell.company')}: </span>
              <span className="truncate">{current?.name ?? t('shell.all_companies')}</span>
              <Icon name="chevron" className="h-4 w-4 shrink-0" />
            </>
          }
          panelClassName="absolute left-0 top-full z-50 mt-1 max-h-80 w-72 overflow-auto rounded-lg bg-white py-1 text-sm text-slate-800 shadow-lg ring-1 ring-black/10 focus:outline-none"
        >
          {(close) =>
            [{ id: '', name: t('shell.all_companies') }, ...user.companies].map((c) => (
              <div
                key={c.id || 'all'}
                role="option"
                tabIndex={-1}
                aria-selected={c.id === (selectedId ?? '')}
                className={`cursor-pointer px-4 py-2 hover:bg-primary-50 focus:bg-primary-50 focus:outline-none ${c.id === (selectedId ?? '') ? 'font-semibold' : ''}`}
                onClick={() => {
                  close();
                  choose(c.id);
                }}
              >
                {c.name}
              </div>
            ))
          }
        </Popup>
      </div>
      {country ? <span className="hidden truncate text-primary-200 md:inline">· {country}</span> : null}
    </div>
  );
}
