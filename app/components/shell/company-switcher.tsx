import { Listbox, ListboxButton, ListboxOption, ListboxOptions } from '@headlessui/react';
import { useFetcher } from '@remix-run/react';
import type { KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useRootData } from '~/root';
import { Icon } from './icons';

/**
 * Enter opens the list as Space and the arrow keys do (Headless UI's listbox button, like a native
 * select, would submit an enclosing form instead): the key is handed on as ArrowDown.
 */
function openOnEnter(e: KeyboardEvent<HTMLButtonElement>) {
  if (e.key !== 'Enter' || e.currentTarget.getAttribute('aria-expanded') === 'true') return;
  e.preventDefault();
  e.currentTarget.dispatchEvent(new window.KeyboardEvent('keydown', { key: 'ArrowDown', bubbles: true }));
}

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
      <Listbox value={selectedId} onChange={choose}>
        <div className="relative min-w-0">
          <ListboxButton
            className="flex max-w-full items-center gap-2 rounded-lg bg-primary-900/40 px-2 py-1.5 font-medium ring-1 ring-white/20 hover:bg-primary-900/60 sm:max-w-xs sm:px-3"
            onKeyDown={openOnEnter}
          >
            <Icon name="building" className="hidden h-5 w-5 shrink-0 text-primary-200 sm:block" />
            <span className="sr-only">{t('shell.company')}: </span>
            <span className="truncate">{current?.name ?? t('shell.all_companies')}</span>
            <Icon name="chevron" className="h-4 w-4 shrink-0" />
          </ListboxButton>
          <ListboxOptions
            anchor="bottom start"
            className="z-50 mt-1 max-h-80 w-72 overflow-auto rounded-lg bg-white py-1 text-sm text-slate-800 shadow-lg ring-1 ring-black/10 focus:outline-none"
          >
            {[{ id: '', name: t('shell.all_companies') }, ...user.companies].map((c) => (
              <ListboxOption
                key={c.id || 'all'}
                value={c.id}
                className="cursor-pointer px-4 py-2 data-[focus]:bg-primary-50 data-[selected]:font-semibold"
              >
                {c.name}
              </ListboxOption>
            ))}
          </ListboxOptions>
        </div>
      </Listbox>
      {country ? <span className="hidden truncate text-primary-200 md:inline">· {country}</span> : null}
    </div>
  );
}
