import { buildWorkbook, XLSX_CONTENT_TYPE, type SheetSpec } from '@server/platform/xlsx';
import type { BulkSelection } from '@server/domain/lists';
import { bulkFormFields } from '@server/domain/list-query';

/** A list shown whole, as its one page (the pager's range without pages). */
export { wholePage } from '@server/domain/list-query';
import type { z } from 'zod';

/** The list's query parameters as a plain object (the filters and paging a loader parses). */
export function queryOf(request: Request): Record<string, string> {
  return Object.fromEntries(new URL(request.url).searchParams);
}

/**
 * A list query from the address: a filter that does not parse (an old bookmark, a typo) is dropped
 * rather than failing the page.
 */
export function lenientQuery<T extends z.ZodTypeAny>(schema: T, raw: Record<string, string>): z.infer<T> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const bad = new Set(parsed.error.issues.map((i) => String(i.path[0])));
  return schema.parse(Object.fromEntries(Object.entries(raw).filter(([k]) => !bad.has(k))));
}

/** An .xlsx download of a list (formula-looking cells are neutralised by buildWorkbook). */
export async function xlsxResponse(fileName: string, sheet: SheetSpec): Promise<Response> {
  const body = await buildWorkbook([sheet]);
  const safeName = fileName.replace(/[^\w.-]+/g, '_');
  return new Response(body, {
    headers: {
      'content-type': XLSX_CONTENT_TYPE,
      'content-disposition': `attachment; filename="${safeName}"`,
      'cache-control': 'no-store',
    },
  });
}

/**
 * The fields of a bulk action (BulkActionBar), for an intent's schema: repeated `ids`, or `all_matching`
 * with the list's filters as they were when the user chose "all matching". Parsed, it is the selection
 * and those filters (the list's query schema then reads them).
 */
export const bulkSchema = bulkFormFields.transform(
  (v): { selection: BulkSelection; filters: Record<string, string> } =>
    v.all_matching
      ? {
          selection: { all_matching: true },
          filters: Object.fromEntries(new URLSearchParams(v.filters ?? '')),
        }
      : { selection: { all_matching: false, ids: v.ids }, filters: {} },
);
