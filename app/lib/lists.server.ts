import { buildWorkbook, XLSX_CONTENT_TYPE, type SheetSpec } from '@server/platform/xlsx';
import type { BulkSelection } from '@server/domain/lists';
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
 * Reads a bulk action's selection from a form (BulkActionBar): repeated `ids`, or `all_matching` with the
 * list's filters as they were when the user chose "all matching".
 */
export function bulkSelectionOf(form: FormData): {
  selection: BulkSelection;
  filters: Record<string, string>;
} {
  if (form.get('all_matching') === 'true') {
    const filters = Object.fromEntries(new URLSearchParams(String(form.get('filters') ?? '')));
    return { selection: { all_matching: true }, filters };
  }
  const ids = form.getAll('ids').map(String).filter(Boolean);
  return { selection: { all_matching: false, ids }, filters: {} };
}
