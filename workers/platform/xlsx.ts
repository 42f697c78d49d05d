/**
 * exceljs in workerd. Its default (browser) build hangs every request after the first, so its Node build
 * is loaded, lazily, after two patches that nodejs_compat needs: process.umask (unenv does not implement
 * it) and node:util's debuglog (workerd reports it enabled, and stream debug logging makes parsing about
 * five times slower). See ../shared/TOOLCHAIN.md.
 */
import util from 'node:util';
import type ExcelJSNamespace from 'exceljs';

type ExcelJS = typeof ExcelJSNamespace;
let loaded: Promise<ExcelJS> | null = null;

export function loadExcel(): Promise<ExcelJS> {
  if (!loaded) {
    const proc = (globalThis as { process?: { umask?: () => number } }).process;
    if (proc) proc.umask = () => 0o022;
    const noop = Object.assign(() => {}, { enabled: false });
    try {
      (util as unknown as { debuglog: unknown }).debuglog = () => noop;
    } catch {
      // a frozen module namespace: nothing to patch
    }
    // @ts-expect-error the Node build has no type declarations of its own; it is the same API
    loaded = import('exceljs/lib/exceljs.nodejs.js').then((m) => (m.default ?? m) as ExcelJS);
  }
  return loaded;
}

/**
 * A cell value that a spreadsheet will not run as a formula: text beginning with = + - @ (or a tab or
 * carriage return) gets a leading apostrophe-free guard, a single quote, as OWASP advises for CSV/XLSX.
 */
export function safeCell(value: unknown): string | number | boolean | Date | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' || typeof value === 'boolean' || value instanceof Date) return value;
  const text = String(value);
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

export interface SheetSpec {
  name: string;
  columns: { header: string; key: string; width?: number }[];
  rows: Record<string, unknown>[];
}

/** Builds an .xlsx file from rows; every text cell goes through safeCell. */
export async function buildWorkbook(sheets: SheetSpec[]): Promise<ArrayBuffer> {
  const ExcelJS = await loadExcel();
  const workbook = new ExcelJS.Workbook();
  workbook.created = new Date();
  for (const spec of sheets) {
    const sheet = workbook.addWorksheet(spec.name.slice(0, 31));
    sheet.columns = spec.columns.map((c) => ({
      header: c.header,
      key: c.key,
      width: c.width ?? Math.max(12, c.header.length + 2),
    }));
    sheet.getRow(1).font = { bold: true };
    sheet.views = [{ state: 'frozen', ySplit: 1 }];
    for (const row of spec.rows) {
      const safe: Record<string, unknown> = {};
      for (const c of spec.columns) safe[c.key] = safeCell(row[c.key]);
      sheet.addRow(safe);
    }
  }
  const buffer = await workbook.xlsx.writeBuffer();
  return buffer as ArrayBuffer;
}

export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
