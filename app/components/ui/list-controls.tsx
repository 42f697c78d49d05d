import { Form, useLocation, useNavigate, useSearchParams } from '@remix-run/react';
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useRootData } from '~/root';
import { Button, buttonClass } from './button';
import type { Selection } from './data-table';

const STORAGE_PREFIX = 'list-filters:';

/**
 * Filters live in the query string (shareable, work without JavaScript) and are remembered per path in
 * local storage: coming back to a list without a query restores the last filters used there.
 */
export function useRememberedFilters() {
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    const key = STORAGE_PREFIX + location.pathname;
    if (location.search) {
      window.localStorage.setItem(key, location.search);
    } else {
      const saved = window.localStorage.getItem(key);
      if (saved && saved !== '?') navigate(`${location.pathname}${saved}`, { replace: true });
    }
  }, [location.pathname, location.search, navigate]);
}

/** The filters bar: a GET form; its fields are the children. Reset clears the remembered filters too. */
export function FiltersBar({ children, exportHref }: { children: ReactNode; exportHref?: string }) {
  const { t } = useTranslation();
  const location = useLocation();
  const [params] = useSearchParams();
  useRememberedFilters();
  const clear = () => window.localStorage.removeItem(STORAGE_PREFIX + location.pathname);
  return (
    <Form method="get" className="mb-4 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200" role="search">
      {params.get('order') ? <input type="hidden" name="order" value={params.get('order')!} /> : null}
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">{children}</div>
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <Button type="submit">{t('table.apply_filters')}</Button>
        <a href={`${location.pathname}?page=1`} onClick={clear} className={buttonClass('secondary')}>
          {t('table.reset_filters')}
        </a>
        {exportHref ? (
          <a href={exportHref} className={buttonClass('ghost', 'ml-auto')} download>
            {t('table.export')}
          </a>
        ) : null}
      </div>
    </Form>
  );
}

/**
 * The export link of a list: `{list path}/export.xlsx` with the same filters (the page left out). Each
 * list has that resource route beside it, because a page loader cannot answer a file to a document
 * request. The path keeps the language prefix (/de/clients/export.xlsx).
 */
export function useExportHref() {
  const location = useLocation();
  const [params] = useSearchParams();
  const next = new URLSearchParams(params);
  next.delete('page');
  return `${location.pathname.replace(/\/+$/, '')}/export.xlsx?${next}`;
}

/**
 * Bulk actions for the selected rows. Each action is a POST with `intent`, the ids (or all_matching plus
 * the current filters), and the CSRF token.
 */
export function BulkActionBar({
  selection,
  total,
  actions,
}: {
  selection: Selection;
  total: number;
  actions: { intent: string; label: string; tone?: 'primary' | 'secondary' | 'danger'; confirm?: string }[];
}) {
  const { t } = useTranslation();
  const { csrfToken } = useRootData();
  const [params] = useSearchParams();
  const count = selection.allMatching ? total : selection.ids.length;
  if (!count) return null;
  return (
    <div
      className="sticky bottom-4 z-20 mx-auto mt-4 flex max-w-3xl flex-wrap items-center gap-3 rounded-xl bg-slate-900 px-4 py-3 text-sm text-white shadow-xl"
      role="region"
      aria-label={t('table.bulk_actions')}
    >
      <span className="font-semibold">{t('table.selected', { count })}</span>
      <div className="ml-auto flex flex-wrap gap-2">
        {actions.map((a) => (
          <Form
            key={a.intent}
            method="post"
            onSubmit={(e) => {
              if (a.confirm && !window.confirm(a.confirm)) e.preventDefault();
            }}
          >
            <input type="hidden" name="_csrf" value={csrfToken} />
            <input type="hidden" name="intent" value={a.intent} />
            {selection.allMatching ? (
              <>
                <input type="hidden" name="all_matching" value="true" />
                <input type="hidden" name="filters" value={params.toString()} />
              </>
            ) : (
              selection.ids.map((id) => <input key={id} type="hidden" name="ids" value={id} />)
            )}
            <button type="submit" className={buttonClass(a.tone ?? 'secondary', 'py-1.5')}>
              {a.label}
            </button>
          </Form>
        ))}
      </div>
    </div>
  );
}
