/**
 * Server-side lists: paging, sorting and filtering with one statement for the rows and one for the count,
 * run together. Every list of the portal answers `{ items, meta }` (spec 002: meta from, to, per_page,
 * plus total, current_page, last_page).
 */
import { asc, desc, sql, type SQL } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { DB } from '../platform/db';
import { MAX_PER_PAGE, lastPage, meta, pageNumber, type ListQuery, type Page } from './list-query';

export * from './list-query';

/**
 * The ORDER BY of a list from its `order` parameter and the columns it may sort by; anything else falls
 * back to the default (never raw input in SQL). A tie-breaker keeps paging stable.
 */
export function orderBy(
  order: string | undefined,
  sortable: Record<string, SQLiteColumn | SQL>,
  fallback: string,
  tieBreaker: SQLiteColumn,
): SQL[] {
  const parse = (o: string) => {
    const m = /^(.+)_(asc|desc)$/.exec(o);
    return m && m[1] in sortable ? { field: m[1], dir: m[2] as 'asc' | 'desc' } : null;
  };
  const chosen = (order && parse(order)) || parse(fallback)!;
  const column = sortable[chosen.field];
  return [chosen.dir === 'asc' ? asc(column) : desc(column), asc(tieBreaker)];
}

/** A LIKE pattern for a search term, with the wildcards of the term escaped. */
export function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export function likeAny(columns: (SQLiteColumn | SQL)[], term: string | undefined): SQL | undefined {
  if (!term) return undefined;
  const pattern = likePattern(term);
  return sql`(${sql.join(
    columns.map((c) => sql`${c} like ${pattern} escape '\\'`),
    sql` or `,
  )})`;
}

/** The row a list's page query answers: the one named, or else what the query selects. */
type RowOf<T, Q> = [T] extends [never] ? (Awaited<Q> extends readonly (infer E)[] ? E : never) : T;

/**
 * Every list's page: runs a page query and its count together and answers `{ items, meta }`. `rows`
 * receives limit and offset; `count` is a query answering `[{ total }]` over the same filters. The row
 * type is the page query's, or the one named (`paginate<Row>(...)`) for a raw query. `items` is the page
 * size asked (at most MAX_PER_PAGE); a list with a fixed size passes it (`{ page, items: 50 }`).
 *
 * `lastAtMost`: a page past the last answers the last, for a list whose rows go as the person works
 * through it (a review step whose rows are fixed or deleted); the page asked is read once more then.
 *
 * Mind: D1 answers a batched select as objects keyed by column name, so two selected columns with the
 * same name (`contracts.name` and `products.name` in a join) collapse into one and shift the values
 * after them. Give such columns an alias (sql`${products.name}`.as('product_name')), or say `apart` to run
 * the two statements on their own rather than in one batch.
 */
export async function paginate<T = never, Q extends BatchItem<'sqlite'> = BatchItem<'sqlite'>>(
  db: DB,
  query: Pick<ListQuery, 'page' | 'items'>,
  build: {
    rows: (limit: number, offset: number) => Q;
    count: BatchItem<'sqlite'>;
    apart?: boolean;
    lastAtMost?: boolean;
  },
): Promise<Page<RowOf<T, Q>>> {
  const perPage = Math.min(query.items, MAX_PER_PAGE);
  let page = pageNumber(query.page);
  const statements = [build.rows(perPage, (page - 1) * perPage), build.count] as const;
  const [first, counted] = (build.apart ? await Promise.all(statements) : await db.batch(statements)) as [
    RowOf<T, Q>[],
    { total: number | string }[],
  ];
  let items = first;
  const total = Number(counted[0]?.total ?? 0);
  if (build.lastAtMost && page > lastPage(total, perPage)) {
    page = lastPage(total, perPage);
    const again: unknown = await build.rows(perPage, (page - 1) * perPage);
    items = again as RowOf<T, Q>[];
  }
  return { items, meta: meta(total, page, perPage, items.length) };
}

export const countAll = sql<number>`count(*)`.as('total');
