/**
 * The list kit (docs/page-kit.md): the filters bar and its fields, the export link, the empty state, the
 * selection and the bulk-action bar (with "all matching"). The table itself is DataTable.
 */
import { Form, Link, useLocation, useNavigate, useSearchParams } from '@remix-run/react';
import {
  Children,
  isValidElement,
  useCallback,
  useEffect,
  useState,
  type FormEvent,
  type ReactNode,
} from 'react';
import { useTranslation } from 'react-i18next';
import { useRootData } from '~/root';
import { Checkbox, Input, Label, Select, type Option } from '~/components/fields';
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

/**
 * The filters bar: a GET form; its fields are the children. Reset clears the remembered filters too.
 *
 * Below 640 px the fields fold behind one "Filters (n)" button (a `<details>`, so it works without
 * JavaScript), n being the filters in use; from 640 px they are always shown (app/styles/app.css shows a
 * closed one's fields until scripts open it). Applying sends only the fields that hold a value (and the
 * order): the address says which filters are in use, nothing more. Without scripts the browser sends
 * every field, and the page loader sends it on to the address without the empty ones (loaders.server.ts).
 */
export function FiltersBar({ children, exportHref }: { children: ReactNode; exportHref?: string }) {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [open, setOpen] = useState(false);
  useRememberedFilters();
  useEffect(() => {
    // Open on a wide screen; folded again when the window narrows to a phone's width.
    const wide = window.matchMedia(WIDE);
    const follow = () => setOpen(wide.matches);
    if (wide.matches) setOpen(true);
    wide.addEventListener('change', follow);
    return () => wide.removeEventListener('change', follow);
  }, []);
  const inUse = filterNames(children).filter((name) => params.get(name)).length;
  const clear = () => window.localStorage.removeItem(STORAGE_PREFIX + location.pathname);
  const apply = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    navigate(`${location.pathname}?${filledFields(e.currentTarget)}`);
  };
  return (
    <Form
      method="get"
      onSubmit={apply}
      className="mb-4 rounded-xl bg-white shadow-sm ring-1 ring-slate-200"
      role="search"
    >
      {params.get('order') ? <input type="hidden" name="order" value={params.get('order')!} /> : null}
      <details open={open} onToggle={(e) => setOpen(e.currentTarget.open)} data-filters="" className="group">
        <summary className="flex cursor-pointer list-none items-center justify-between gap-2 rounded-xl px-4 py-3 text-sm font-semibold text-slate-900 sm:hidden [&::-webkit-details-marker]:hidden">
          {inUse ? t('table.filters_in_use', { count: inUse }) : t('table.filters')}
          <span aria-hidden="true" className="text-slate-500 transition-transform group-open:rotate-180">
            ▾
          </span>
        </summary>
        <div className="border-t border-slate-200 p-4 sm:border-t-0">
          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">{children}</div>
          <div className="mt-4 flex flex-wrap items-center gap-3">
            <Button type="submit">{t('table.apply_filters')}</Button>
            <a href={`${location.pathname}?page=1`} onClick={clear} className={buttonClass('secondary')}>
              {t('table.reset_filters')}
            </a>
            {exportHref ? <ExportLink href={exportHref} className="ml-auto" /> : null}
          </div>
        </div>
      </details>
    </Form>
  );
}

/** From this width the filters bar shows its fields (Tailwind's `sm`). */
const WIDE = '(min-width: 40rem)';

/** The form's fields that hold a value, as an address query. */
function filledFields(form: HTMLFormElement): URLSearchParams {
  const filled = new URLSearchParams();
  for (const [name, value] of new FormData(form))
    if (typeof value === 'string' && value !== '') filled.append(name, value);
  return filled;
}

/** The address parameters of the filters among `children` (FilterSearch, FilterSelect, …), at any depth. */
function filterNames(children: ReactNode): string[] {
  return Children.toArray(children).flatMap((child): string[] => {
    if (!isValidElement<{ name?: string; children?: ReactNode }>(child)) return [];
    if (FILTERS.has(child.type)) return [child.props.name ?? 'search'];
    return filterNames(child.props.children);
  });
}

const filterId = (name: string) => `filter-${name}`;

/** A text search of the filters bar; its value comes from the address. */
export function FilterSearch({
  name = 'search',
  label,
  placeholder,
  className,
}: {
  name?: string;
  label: string;
  placeholder?: string;
  className?: string;
}) {
  const [params] = useSearchParams();
  return (
    <div className={className}>
      <Label htmlFor={filterId(name)}>{label}</Label>
      <Input
        id={filterId(name)}
        name={name}
        type="search"
        defaultValue={params.get(name) ?? ''}
        placeholder={placeholder}
      />
    </div>
  );
}

/**
 * A choice of the filters bar: `any` is the first option, meaning no filter (an empty value, left out of
 * the address).
 */
export function FilterSelect({
  name,
  label,
  options,
  any,
}: {
  name: string;
  label: string;
  options: readonly Option[];
  any?: string;
}) {
  const [params] = useSearchParams();
  return (
    <div>
      <Label htmlFor={filterId(name)}>{label}</Label>
      <Select id={filterId(name)} name={name} defaultValue={params.get(name) ?? ''}>
        {any !== undefined ? <option value="">{any}</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </Select>
    </div>
  );
}

/**
 * A one-choice filter as a row of links (All · Delivered · Failed): for a second, small list on a page,
 * where a filters bar would be too much. Each link keeps the other parameters and goes back to page one
 * of this list (`pageParam`).
 */
export function FilterLinks({
  name,
  label,
  options,
  any,
  pageParam = 'page',
}: {
  name: string;
  label: string;
  options: readonly Option[];
  any: string;
  pageParam?: string;
}) {
  const [params] = useSearchParams();
  const location = useLocation();
  const current = params.get(name) ?? '';
  const href = (value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    next.delete(pageParam);
    return `${location.pathname}?${next}`;
  };
  return (
    <nav aria-label={label} className="mb-3 flex flex-wrap gap-2 text-sm">
      {[{ value: '', label: any }, ...options].map((o) => (
        <Link
          key={o.value}
          to={href(o.value)}
          preventScrollReset
          aria-current={o.value === current ? 'page' : undefined}
          className={
            o.value === current
              ? 'rounded-full bg-slate-900 px-3 py-1 font-medium text-white'
              : 'rounded-full px-3 py-1 font-medium text-slate-700 ring-1 ring-slate-300 hover:bg-slate-50'
          }
        >
          {o.label}
        </Link>
      ))}
    </nav>
  );
}

/** A date bound of the filters bar (created from, created to...). */
export function FilterDate({ name, label }: { name: string; label: string }) {
  const [params] = useSearchParams();
  return (
    <div>
      <Label htmlFor={filterId(name)}>{label}</Label>
      <Input id={filterId(name)} name={name} type="date" defaultValue={params.get(name) ?? ''} />
    </div>
  );
}

/** A yes/no filter: sent as `name=1` when ticked. */
export function FilterCheckbox({ name, label }: { name: string; label: string }) {
  const [params] = useSearchParams();
  return (
    <div className="self-end pb-2.5">
      <Checkbox
        id={filterId(name)}
        name={name}
        value="1"
        defaultChecked={params.get(name) === '1'}
        label={label}
      />
    </div>
  );
}

/** The fields a filters bar counts as filters (FiltersBar's "Filters (n)"). */
const FILTERS = new Set<unknown>([FilterSearch, FilterSelect, FilterDate, FilterCheckbox]);

/** The export link of a list (see useExportHref): the .xlsx of every row matching the filters. */
export function ExportLink({ href, className = '' }: { href: string; className?: string }) {
  const { t } = useTranslation();
  return (
    <a href={href} className={buttonClass('ghost', className)} download>
      {t('table.export')}
    </a>
  );
}

/**
 * What an empty list says: the message, and what to do about it (the "add" link of the list, say). The
 * table shows it in its body (DataTable's `empty`).
 */
export function EmptyState({ message, action }: { message: string; action?: ReactNode }) {
  return (
    <div className="flex flex-col items-center gap-2">
      <p>{message}</p>
      {action ?? null}
    </div>
  );
}

/** The rows selected in a DataTable, for the BulkActionBar: `<DataTable onSelectionChange={onChange}>`. */
export function useSelection() {
  const [selection, setSelection] = useState<Selection>({ ids: [], allMatching: false });
  const onChange = useCallback((s: Selection) => setSelection(s), []);
  return { selection, onChange };
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
 * the current filters), and the CSRF token: to the list's own action, or to `action` when the operation
 * is a page of its own (a flow that asks for more, such as a quote, takes the selection there).
 */
export function BulkActionBar({
  selection,
  total,
  actions,
}: {
  selection: Selection;
  total: number;
  actions: {
    intent: string;
    label: string;
    tone?: 'primary' | 'secondary' | 'danger';
    confirm?: string;
    /** The address the selection is posted to (with the language prefix); the list's own action when absent. */
    action?: string;
    /** A plain document post (the answer is a file to download, e.g. a ZIP), not a Remix navigation. */
    document?: boolean;
  }[];
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
            action={a.action}
            reloadDocument={a.document}
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
