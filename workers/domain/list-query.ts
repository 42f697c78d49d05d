/**
 * What a list asks and answers, without the database: paging and sorting parameters, the `{ items, meta }`
 * shape and bulk selections. Pure (zod only), so forms and pages in the browser can use it; the queries
 * that run a list are in lists.ts.
 */
import { z } from 'zod';

export const MAX_PER_PAGE = 500;

/** A list's page number in the address: a whole number from 1; anything else is the first page. */
export const pageParam = z.coerce.number().int().min(1).catch(1).default(1);

/** A list's page size in the address (`items`): from 1 to `max`; anything else is `perPage`. */
export const itemsParam = (perPage = 25, max = MAX_PER_PAGE) =>
  z.coerce.number().int().min(1).max(max).catch(perPage).default(perPage);

/** Query-string paging and sorting shared by pages and the API (`items` is the catalogue's page size). */
export const listQuerySchema = z.object({
  page: pageParam,
  items: itemsParam(),
  /** `<field>_asc` or `<field>_desc`, e.g. `name_asc`, as the catalogue's `order=full_name_asc`. */
  order: z.string().max(60).optional(),
  search: z.string().trim().max(200).optional(),
});
export type ListQuery = z.infer<typeof listQuerySchema>;

export interface ListMeta {
  from: number;
  to: number;
  per_page: number;
  total: number;
  current_page: number;
  last_page: number;
}

export interface Page<T> {
  items: T[];
  meta: ListMeta;
}

/** The last page of a list of `total` rows (1 for an empty list). */
export function lastPage(total: number, perPage: number): number {
  return Math.max(1, Math.ceil(total / perPage));
}

/** A page number as asked: a whole number from 1 (anything else is the first page). */
export function pageNumber(page: number): number {
  return Math.max(1, Math.floor(page) || 1);
}

export function meta(total: number, page: number, perPage: number, count: number): ListMeta {
  const from = count ? (page - 1) * perPage + 1 : 0;
  return {
    from,
    to: count ? from + count - 1 : 0,
    per_page: perPage,
    total,
    current_page: page,
    last_page: lastPage(total, perPage),
  };
}

/**
 * A page of a list already in memory (rows a summary computed), paged like every other list; a page past
 * the last answers the last.
 */
export function pageOf<T>(rows: T[], page: number, perPage: number): Page<T> {
  const at = Math.min(pageNumber(page), lastPage(rows.length, perPage));
  const items = rows.slice((at - 1) * perPage, at * perPage);
  return { items, meta: meta(rows.length, at, perPage, items.length) };
}

/** A list shown whole, as its one page (a product's prices, its documents). */
export function wholePage<T>(items: T[]): Page<T> {
  return { items, meta: meta(items.length, 1, Math.max(items.length, 1), items.length) };
}

/** Bulk actions name rows by id, or "all matching the current filters". */
export const bulkSelectionSchema = z.union([
  z.object({ all_matching: z.literal(true), ids: z.array(z.string()).optional() }),
  z.object({
    all_matching: z.literal(false).optional(),
    ids: z
      .array(z.string().min(1))
      .min(1)
      .max(MAX_PER_PAGE * 20),
  }),
]);
export type BulkSelection = z.infer<typeof bulkSelectionSchema>;

/**
 * A bulk action's fields as a page's form posts them (BulkActionBar): repeated `ids`, or `all_matching`
 * with the list's filters as they were when the user chose "all matching".
 */
export const bulkFormFields = z.object({
  ids: z.array(z.string().min(1).max(64)).max(1000).default([]),
  all_matching: z.literal('true').optional(),
  filters: z.string().max(4000).optional(),
});
