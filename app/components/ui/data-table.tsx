import { Link, useLocation, useNavigation, useSearchParams } from '@remix-run/react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ListMeta } from '@server/domain/list-query';

/**
 * What a column is on a phone, where each row is a card (below 640 px): the `title` (the row's name, a
 * link where the row has one) and its `status` share the card's first line; each `figure` (an amount, a
 * date) sits below them under its column's label, a `wide` one (long text: an entry's changes) across the
 * card; `actions` take a line of their own at the bottom; a `hidden` column is left off the card (the
 * row's own page shows it). Without a role, the first column is the title and every other one a figure.
 */
export type CardRole = 'title' | 'status' | 'figure' | 'wide' | 'actions' | 'hidden';

export interface Column<T> {
  key: string;
  header: ReactNode;
  /** The `order` field name when the column can be sorted (`name` → `name_asc` / `name_desc`). */
  sort?: string;
  render: (row: T) => ReactNode;
  className?: string;
  /** The column's part on a card (see CardRole). */
  card?: CardRole;
  /** The label of its figures on a card, when the header is not plain text. */
  label?: string;
}

/** Each column's part on a card: its own role, or the default (the first column is the title). */
function cardRoles<T>(columns: Column<T>[]): CardRole[] {
  const titled = columns.some((c) => c.card === 'title');
  return columns.map((c, i) => c.card ?? (i === 0 && !titled ? 'title' : 'figure'));
}

/** The label a figure shows above its value on a card (CSS reads `data-label`). */
const labelOf = <T,>(c: Column<T>): string | undefined =>
  c.label ?? (typeof c.header === 'string' ? c.header : undefined);

/**
 * A summary row above or below the rows (an opening or closing balance, a total): its label spans the
 * columns before the first one it has a cell for. `key` is also the row's `data-summary` attribute.
 */
export interface SummaryRow {
  key: string;
  label: ReactNode;
  cells: Partial<Record<string, ReactNode>>;
}

/** Which rows are selected: some ids on this page, or every row matching the filters. */
export interface Selection {
  ids: string[];
  allMatching: boolean;
}

/**
 * A box whose wide content (a table) scrolls sideways inside it and never widens the page. It is a
 * labelled region that takes focus, so keyboard users can scroll it with the arrow keys, and a shadow on
 * an edge shows that more lies beyond it. `relative` keeps absolutely placed content (the visually hidden
 * labels of Tailwind's sr-only) inside the box: without it they are placed against the page and widen it.
 */
export function ScrollBox({
  label,
  children,
  className = '',
}: {
  label: string;
  children: ReactNode;
  /** Classes of the scrolling element itself (e.g. `@container`, so content can size to the visible width). */
  className?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [more, setMore] = useState({ before: false, after: false });
  useEffect(() => {
    const box = ref.current;
    if (!box) return;
    const update = () => {
      const rest = box.scrollWidth - box.clientWidth - Math.abs(box.scrollLeft);
      setMore({ before: Math.abs(box.scrollLeft) > 1, after: rest > 1 });
    };
    update();
    box.addEventListener('scroll', update, { passive: true });
    const resized = new ResizeObserver(update);
    resized.observe(box);
    if (box.firstElementChild) resized.observe(box.firstElementChild);
    return () => {
      box.removeEventListener('scroll', update);
      resized.disconnect();
    };
  }, []);
  const shadow =
    'pointer-events-none absolute inset-y-0 w-6 from-slate-900/20 to-transparent transition-opacity';
  return (
    <div className="relative">
      <div
        ref={ref}
        role="region"
        aria-label={label}
        tabIndex={0}
        className={`relative overflow-x-auto focus-visible:outline-offset-[-2px] ${className}`}
        data-scroll-box=""
        data-more-before={more.before ? '' : undefined}
        data-more-after={more.after ? '' : undefined}
      >
        {children}
      </div>
      <div
        aria-hidden="true"
        className={`${shadow} left-0 bg-linear-to-r ${more.before ? 'opacity-100' : 'opacity-0'}`}
      />
      <div
        aria-hidden="true"
        className={`${shadow} right-0 bg-linear-to-l ${more.after ? 'opacity-100' : 'opacity-0'}`}
      />
    </div>
  );
}

/** The direction a list is sorted by a column, from the address's `order` (`{field}_asc|desc`). */
function useSortDirection(field: string | undefined): 'asc' | 'desc' | null {
  const [params] = useSearchParams();
  const current = params.get('order');
  if (!field) return null;
  return current === `${field}_asc` ? 'asc' : current === `${field}_desc` ? 'desc' : null;
}

/** A column header: `aria-sort` belongs on the header cell, not on the link inside it. */
function HeaderCell({
  field,
  className,
  card,
  children,
}: {
  field?: string;
  className: string;
  card?: string;
  children: ReactNode;
}) {
  const dir = useSortDirection(field);
  return (
    <th
      scope="col"
      className={className}
      data-card={card}
      aria-sort={dir === 'asc' ? 'ascending' : dir === 'desc' ? 'descending' : undefined}
    >
      {children}
    </th>
  );
}

function SortHeader({ label, field }: { label: ReactNode; field: string }) {
  const [params] = useSearchParams();
  const location = useLocation();
  const dir = useSortDirection(field);
  const next = new URLSearchParams(params);
  next.set('order', `${field}_${dir === 'asc' ? 'desc' : 'asc'}`);
  next.delete('page');
  return (
    <Link
      to={`${location.pathname}?${next}`}
      preventScrollReset
      className="inline-flex items-center gap-1 hover:text-slate-900"
    >
      {label}
      <span aria-hidden="true" className="text-[10px] text-slate-400">
        {dir === 'asc' ? '▲' : dir === 'desc' ? '▼' : '↕'}
      </span>
    </Link>
  );
}

/** A cell of a dense admin table: one line of text is a 37 px row. */
const CELL = 'px-3 py-2 align-top';

/** A summary row's cell on a card: its amounts are figures, whatever the column is on a row. */
const summaryRole = (role: CardRole): CardRole => (role === 'hidden' || role === 'wide' ? role : 'figure');

/**
 * The list table: server-sorted headers, optional row selection (page or "all matching"), empty state and
 * pagination. The rows are one page of a server-side list; without `meta` they are all there is (no
 * pagination). Optional summary rows open the body (`summaryStart`, e.g. an opening balance) and close
 * the table in its footer (`summaryEnd`, e.g. a closing balance or totals).
 *
 * Below 640 px the same rows read as cards (`data-cards`, styled in app/styles/app.css): each cell says
 * its part (`data-card`, from the columns' `card` roles) and a figure's label comes from `data-label`.
 * The header stays a table header for assistive technology; on the cards it shows only the page's
 * checkbox and the sortable columns.
 */
export function DataTable<T>({
  rows,
  columns,
  rowId,
  meta,
  selectable = false,
  bulkForm,
  onSelectionChange,
  empty,
  caption,
  pageParam = 'page',
  summaryStart = [],
  summaryEnd = [],
}: {
  rows: T[];
  columns: Column<T>[];
  rowId: (row: T) => string;
  meta?: ListMeta;
  selectable?: boolean;
  /**
   * The id of the list's bulk form (BulkActionBar, `useSelection().form`): each row's box is its field
   * `ids` (the row's id), so a selection posts without JavaScript too.
   */
  bulkForm?: string;
  onSelectionChange?: (s: Selection) => void;
  empty?: ReactNode;
  caption?: string;
  /** The address parameter of the page number: a second list on a page names its own (`log_page`). */
  pageParam?: string;
  summaryStart?: SummaryRow[];
  summaryEnd?: SummaryRow[];
}) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const [selection, setSelection] = useState<Selection>({ ids: [], allMatching: false });
  const pageIds = rows.map(rowId);
  const pageKey = pageIds.join(',');
  useEffect(() => setSelection({ ids: [], allMatching: false }), [pageKey]);
  useEffect(() => onSelectionChange?.(selection), [selection, onSelectionChange]);
  // "Clear selection" is the bulk form's reset button: it unticks the boxes, and the selection follows.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => {
    setHydrated(true);
    const form = bulkForm ? document.getElementById(bulkForm) : null;
    const clear = () => setSelection({ ids: [], allMatching: false });
    form?.addEventListener('reset', clear);
    return () => form?.removeEventListener('reset', clear);
  }, [bulkForm]);
  const allOnPage = pageIds.length > 0 && pageIds.every((id) => selection.ids.includes(id));
  const toggle = (id: string) =>
    setSelection((s) => ({
      allMatching: false,
      ids: s.ids.includes(id) ? s.ids.filter((x) => x !== id) : [...s.ids, id],
    }));
  const togglePage = () => setSelection({ allMatching: false, ids: allOnPage ? [] : pageIds });
  const loading = navigation.state === 'loading';
  const total = meta?.total ?? rows.length;
  const roles = cardRoles(columns);
  const sortsOnCards = columns.some((c, i) => c.sort && roles[i] !== 'hidden');
  const summaryRow = (r: SummaryRow) => {
    const first = columns.findIndex((c) => c.key in r.cells);
    const span = Math.max(1, first < 0 ? columns.length : first);
    return (
      <tr key={r.key} data-summary={r.key} className="bg-slate-50 font-semibold text-slate-900">
        <th
          scope="row"
          colSpan={span + (selectable ? 1 : 0)}
          className={`${CELL} text-left`}
          data-card="title"
        >
          {r.label}
        </th>
        {columns.slice(span).map((c, i) => (
          <td
            key={c.key}
            className={`${CELL} ${c.className ?? ''}`}
            data-card={r.cells[c.key] == null ? 'hidden' : summaryRole(roles[span + i])}
            data-label={labelOf(c)}
          >
            {r.cells[c.key] ?? null}
          </td>
        ))}
      </tr>
    );
  };

  return (
    <div className="overflow-hidden rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
      {selectable && allOnPage && total > rows.length ? (
        <div
          className="flex flex-wrap items-center gap-2 border-b border-primary-100 bg-primary-50 px-4 py-2 text-sm text-primary-900"
          role="status"
        >
          {selection.allMatching ? (
            <>
              {t('table.all_matching_selected', { count: total })}
              <button
                type="button"
                className="font-semibold underline"
                onClick={() => setSelection({ ids: pageIds, allMatching: false })}
              >
                {t('table.clear_selection')}
              </button>
            </>
          ) : (
            <>
              {t('table.page_selected', { count: rows.length })}
              <button
                type="button"
                className="font-semibold underline"
                onClick={() => setSelection({ ids: pageIds, allMatching: true })}
              >
                {t('table.select_all_matching', { count: total })}
              </button>
            </>
          )}
        </div>
      ) : null}
      {/* Loading shows as a bar, not by fading the rows: faded text would fail the contrast minimum. */}
      <div
        aria-hidden="true"
        className={`h-0.5 ${loading ? 'animate-pulse bg-primary-600' : 'bg-transparent'}`}
      />
      <div aria-busy={loading || undefined}>
        <ScrollBox label={caption ?? t('table.scroll_region')}>
          <table className="min-w-full divide-y divide-slate-200 text-sm" data-cards="">
            {caption ? <caption className="sr-only">{caption}</caption> : null}
            <thead
              className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600"
              data-card-header={selectable || sortsOnCards ? 'shown' : undefined}
            >
              <tr data-sort-label={sortsOnCards ? t('table.sort_by') : undefined}>
                {selectable ? (
                  <th scope="col" className="w-10 px-3 py-2.5" data-card="select">
                    {/* Ticking a whole page needs JavaScript: without it the box stays off rather than doing nothing. */}
                    <input
                      type="checkbox"
                      checked={allOnPage}
                      disabled={!hydrated}
                      onChange={togglePage}
                      aria-label={t('table.select_page')}
                      className="h-4 w-4 rounded border-slate-300 text-primary-700 disabled:opacity-40"
                    />
                  </th>
                ) : null}
                {columns.map((c, i) => (
                  <HeaderCell
                    key={c.key}
                    field={c.sort}
                    className={`whitespace-nowrap px-3 py-2.5 ${c.className ?? ''}`}
                    card={c.sort && roles[i] !== 'hidden' ? 'sort' : undefined}
                  >
                    {c.sort ? <SortHeader label={c.header} field={c.sort} /> : c.header}
                  </HeaderCell>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {summaryStart.map(summaryRow)}
              {rows.length === 0 ? (
                <tr>
                  <td
                    colSpan={columns.length + (selectable ? 1 : 0)}
                    className="px-3 py-12 text-center text-slate-500"
                  >
                    {empty ?? t('table.empty')}
                  </td>
                </tr>
              ) : (
                rows.map((row) => {
                  const id = rowId(row);
                  const checked = selection.allMatching || selection.ids.includes(id);
                  return (
                    <tr key={id} className={checked ? 'bg-primary-50/50' : 'hover:bg-slate-50'}>
                      {selectable ? (
                        <td className={CELL} data-card="select">
                          <input
                            type="checkbox"
                            name={bulkForm ? 'ids' : undefined}
                            value={id}
                            form={bulkForm}
                            checked={checked}
                            onChange={() => toggle(id)}
                            aria-label={t('table.select_row')}
                            className="h-4 w-4 rounded border-slate-300 text-primary-700"
                          />
                        </td>
                      ) : null}
                      {columns.map((c, i) => (
                        <td
                          key={c.key}
                          className={`${CELL} text-slate-700 ${c.className ?? ''}`}
                          data-card={roles[i]}
                          data-label={labelOf(c)}
                        >
                          {c.render(row)}
                        </td>
                      ))}
                    </tr>
                  );
                })
              )}
            </tbody>
            {summaryEnd.length ? (
              <tfoot className="divide-y divide-slate-100 border-t border-slate-200">
                {summaryEnd.map(summaryRow)}
              </tfoot>
            ) : null}
          </table>
        </ScrollBox>
      </div>
      {meta ? <Pagination meta={meta} param={pageParam} /> : null}
    </div>
  );
}

/** Previous / next and the range shown; links keep every other query parameter. */
export function Pagination({ meta, param = 'page' }: { meta: ListMeta; param?: string }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const location = useLocation();
  const link = (page: number) => {
    const next = new URLSearchParams(params);
    next.set(param, String(page));
    return `${location.pathname}?${next}`;
  };
  const cls = 'rounded-lg px-3 py-1.5 font-medium ring-1 ring-slate-300 hover:bg-slate-50';
  return (
    <nav
      className="flex flex-wrap items-center justify-between gap-3 border-t border-slate-200 px-4 py-3 text-sm text-slate-600"
      aria-label={t('table.pagination')}
    >
      <p>
        {meta.total ? t('table.range', { from: meta.from, to: meta.to, total: meta.total }) : t('table.none')}
      </p>
      <div className="flex items-center gap-2">
        {meta.current_page > 1 ? (
          <Link to={link(meta.current_page - 1)} className={cls} rel="prev" preventScrollReset>
            {t('table.previous')}
          </Link>
        ) : null}
        <span>{t('table.page_of', { page: meta.current_page, pages: meta.last_page })}</span>
        {meta.current_page < meta.last_page ? (
          <Link to={link(meta.current_page + 1)} className={cls} rel="next" preventScrollReset>
            {t('table.next')}
          </Link>
        ) : null}
      </div>
    </nav>
  );
}
