/**
 * The list kit (docs/page-kit.md): the filters bar and its fields, the export link, the empty state, the
 * selection and the bulk-action bar (with "all matching"). The table itself is DataTable.
 */
import {
  Form,
  Link,
  useFormAction,
  useLocation,
  useNavigate,
  useSearchParams,
  useSubmit,
} from '@remix-run/react';
import {
  Children,
  isValidElement,
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
  type FormEvent,
  type ReactNode,
} from 'react';
import { useTranslation } from 'react-i18next';
import { Checkbox, CsrfInput, Input, Label, Select, type Option } from '~/components/fields';
import { Button, buttonClass } from './button';
import { ConfirmButton } from './confirm';
import type { Selection } from './data-table';
import { DateInput } from './date-input';

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
      <DateInput id={filterId(name)} name={name} defaultValue={params.get(name) ?? ''} compact />
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

/**
 * The rows selected in a DataTable, for the BulkActionBar, and the id of the bulk form they belong to:
 * `<DataTable bulkForm={form} onSelectionChange={onChange}>` and `<BulkActionBar form={form} selection={selection}>`.
 */
export function useSelection() {
  const [selection, setSelection] = useState<Selection>({ ids: [], allMatching: false });
  const onChange = useCallback((s: Selection) => setSelection(s), []);
  const form = `bulk-${useId().replace(/[^\w-]/g, '')}`;
  return { selection, onChange, form };
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

/** One action of the bulk bar. */
export interface BulkAction {
  intent: string;
  /** What it does; ends with an ellipsis when it asks more before acting (a page of its own, a question). */
  label: string;
  /** Red in the menu: it removes or undoes something. */
  tone?: 'danger';
  /**
   * The question asked before acting (ConfirmButton), in the page's words; the intent declares it in the
   * action kit too (`confirm`), which asks it as a step without JavaScript.
   */
  confirm?: string;
  /** The address the selection is posted to (with the language prefix); the list's own action when absent. */
  action?: string;
  /** A plain document post (the answer is a file to download, e.g. a ZIP), not a Remix navigation. */
  document?: boolean;
  /**
   * It acts on one row (opens that row's page of its own): with scripts it is offered while exactly one
   * row is selected; without them it is always there and the list's action refuses another selection.
   */
  one?: boolean;
}

/**
 * The list's bulk form: the rows' boxes (DataTable's `bulkForm`) are its `ids`, its actions are submit
 * buttons `intent=…` (to the list's action, or to an action's own address), and "all matching" is its
 * field `all_matching` with the address's `filters`. The first `shown` actions are buttons, the rest sit
 * under "More" (a `<details>` menu); on a phone every action is under "More" and the bar is one line fixed
 * at the bottom of the screen, with room left under the list.
 *
 * Without JavaScript the bar cannot know the selection, so it is always there, with the "all matching"
 * box. With JavaScript it is the same form, shown only with a selection, which "Clear selection" (its
 * reset button) empties.
 */
export function BulkActionBar({
  form,
  selection,
  total,
  actions,
  shown = 2,
}: {
  /** The form's id (`useSelection().form`), which the table's boxes name. */
  form: string;
  selection: Selection;
  total: number;
  actions: BulkAction[];
  shown?: number;
}) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const submit = useSubmit();
  const ownAction = useFormAction();
  const count = selection.allMatching ? total : selection.ids.length;
  const menuRef = useRef<HTMLDetailsElement>(null);
  // Nothing selected: the bar without scripts (or hidden), which offers every action.
  const single = count === 1 && !selection.allMatching;
  const offered = actions.filter((a) => !a.one || count === 0 || single);
  if (!offered.length) return null;
  const button = (a: BulkAction, place: 'bar' | 'menu') => {
    const props = {
      name: 'intent',
      value: a.intent,
      formAction: a.action,
      'data-document': a.document ? '' : undefined,
      className:
        place === 'bar'
          ? buttonClass('secondary', 'py-1.5 max-sm:hidden')
          : `block w-full px-4 py-2 text-left text-sm font-medium hover:bg-slate-50 focus-visible:outline-offset-[-2px] ${
              a.tone === 'danger' ? 'text-red-700' : 'text-slate-800'
            }`,
    };
    return a.confirm ? (
      <ConfirmButton key={a.intent} {...props} question={a.confirm}>
        {a.label}
      </ConfirmButton>
    ) : (
      <button key={a.intent} type="submit" {...props}>
        {a.label}
      </button>
    );
  };
  const more = offered.slice(shown);
  // Shown only with a selection once scripts run; without them, always (the `noscript:` variant).
  const visible = count > 0;
  return (
    <>
      <form
        id={form}
        method="post"
        action={ownAction}
        aria-label={t('table.bulk_actions')}
        data-testid="bulk-bar"
        className={`${visible ? 'flex' : 'hidden noscript:flex'} fixed inset-x-0 bottom-0 z-20 items-center gap-x-3 gap-y-2 border-t border-slate-300 bg-white px-4 py-2.5 text-sm text-slate-800 shadow-[0_-4px_12px_rgb(15_23_42/0.08)] sm:sticky sm:bottom-4 sm:mx-auto sm:mt-4 sm:max-w-4xl sm:flex-wrap sm:rounded-xl sm:border-0 sm:ring-1 sm:shadow-lg`}
        onSubmit={(e) => {
          const submitter = (e.nativeEvent as SubmitEvent).submitter;
          if (menuRef.current) menuRef.current.open = false;
          // A download is the browser's own post; anything else goes through Remix, then the selection clears.
          if (!(submitter instanceof HTMLButtonElement) || submitter.dataset.document !== undefined) return;
          e.preventDefault();
          submit(submitter);
          e.currentTarget.reset();
        }}
      >
        <CsrfInput />
        <input type="hidden" name="filters" value={params.toString()} />
        {selection.allMatching ? <input type="hidden" name="all_matching" value="true" /> : null}
        <div className="flex min-w-0 flex-1 flex-wrap items-center gap-x-2 gap-y-1">
          {count ? (
            <>
              <span className="whitespace-nowrap font-semibold text-slate-900" role="status">
                {t('table.selected', { count })}
              </span>
              <span aria-hidden="true" className="text-slate-400">
                ·
              </span>
              <button
                type="reset"
                className="whitespace-nowrap font-medium text-primary-800 underline-offset-2 hover:underline"
              >
                {t('table.clear_selection')}
              </button>
            </>
          ) : (
            <>
              <span className="hidden text-slate-700 sm:inline">{t('bulk.choose_rows')}</span>
              {total > 0 ? (
                <Checkbox
                  id={`${form}-all`}
                  name="all_matching"
                  value="true"
                  label={t('bulk.all_matching', { count: total })}
                />
              ) : null}
            </>
          )}
        </div>
        <div className="flex shrink-0 items-center gap-2">
          {offered.slice(0, shown).map((a) => button(a, 'bar'))}
          <details ref={menuRef} className={`relative ${more.length ? '' : 'sm:hidden'}`}>
            <summary
              className={buttonClass(
                'secondary',
                'cursor-pointer list-none py-1.5 [&::-webkit-details-marker]:hidden',
              )}
            >
              {t('bulk.more')}
              <span aria-hidden="true" className="text-xs">
                ▾
              </span>
            </summary>
            <div className="absolute bottom-full right-0 z-30 mb-2 w-64 max-w-[calc(100vw-2rem)] overflow-hidden rounded-lg bg-white py-1 shadow-xl ring-1 ring-slate-200">
              {offered.slice(0, shown).map((a) => (
                <div key={a.intent} className="sm:hidden">
                  {button(a, 'menu')}
                </div>
              ))}
              {more.map((a) => button(a, 'menu'))}
            </div>
          </details>
        </div>
      </form>
      {/* Room under the list for the bar fixed at the bottom of a phone's screen. */}
      <div
        aria-hidden="true"
        className={`h-16 sm:hidden ${visible ? '' : 'hidden noscript:block noscript:sm:hidden'}`}
      />
    </>
  );
}
