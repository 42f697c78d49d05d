import { redirect } from '@remix-run/cloudflare';
import { buildWorkbook, XLSX_CONTENT_TYPE, type SheetSpec } from '@server/platform/xlsx';
import type { BulkSelection } from '@server/domain/lists';
import { bulkFormFields } from '@server/domain/list-query';
import { readTypedDaysOf } from '@server/domain/typed-days';

/** A list shown whole, as its one page (the pager's range without pages). */
export { wholePage } from '@server/domain/list-query';
import type { z } from 'zod';

/** Parameters Remix itself adds to an address, which hold no value. */
const REMIX_PARAMS = new Set(['index', '_data']);

/**
 * An address with empty parameters (`?search=&status=&campus=`, what a filters form sent without
 * JavaScript gives) is sent on to the same address without them, so an address names only the filters in
 * use, with or without scripts. Every page loader calls it first (loaders.server.ts).
 */
export function dropEmptyParams(request: Request): void {
  if (request.method !== 'GET' && request.method !== 'HEAD') return;
  const url = new URL(request.url);
  const all = [...url.searchParams];
  const kept = all.filter(([name, value]) => value !== '' || REMIX_PARAMS.has(name));
  if (kept.length === all.length) return;
  const search = new URLSearchParams(kept).toString();
  throw redirect(search ? `${url.pathname}?${search}` : url.pathname);
}

/** The list's query parameters as a plain object (the filters and paging a loader parses). */
export function queryOf(request: Request): Record<string, string> {
  return Object.fromEntries(new URL(request.url).searchParams);
}

/**
 * A list query from the address: a day typed in the filters bar (DD/MM/YYYY) is read as YYYY-MM-DD, and
 * a filter that does not parse (an old bookmark, a typo, a day that does not exist) is dropped rather than
 * failing the page.
 */
export function lenientQuery<T extends z.ZodTypeAny>(schema: T, address: Record<string, string>): z.infer<T> {
  const raw = readTypedDaysOf(address, schema);
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
