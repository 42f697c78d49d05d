/**
 * What a list asks and answers, without the database: paging and sorting parameters, the `{ items, meta }`
 * shape and bulk selections. Pure (zod only), so forms and pages in the browser can use it; the queries
 * that run a list are in lists.ts.
 */
import { z } from 'zod';

export const MAX_PER_PAGE = 500;

/** Query-string paging and sorting shared by pages and the API (`items` is the catalogue's page size). */
export const listQuerySchema = z.object({
  page: z.coerce.number().int().min(1).catch(1).default(1),
  items: z.coerce.number().int().min(1).max(MAX_PER_PAGE).catch(25).default(25),
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

export function meta(total: number, page: number, perPage: number, count: number): ListMeta {
  const from = count ? (page - 1) * perPage + 1 : 0;
  return {
    from,
    to: count ? from + count - 1 : 0,
    per_page: perPage,
    total,
    current_page: page,
    last_page: Math.max(1, Math.ceil(total / perPage)),
  };
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
