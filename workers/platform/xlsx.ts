/**
 * exceljs in workerd. Its default (browser) build hangs every request after the first, so its Node build
 * is loaded, lazily, after two patches that nodejs_compat needs: process.umask (unenv does not implement
 * it) and node:util's debuglog (workerd reports it enabled, and stream debug logging makes parsing about
 * five times slower). See ../shared/TOOLCHAIN.md.
 */
import { Readable } from 'node:stream';
import util from 'node:util';
import type ExcelJSNamespace from 'exceljs';
import { entryContents, readCentralDirectory, ZipError } from './zip';

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

/** Dates read as on every page (DD/MM/YYYY, British English), and stay dates a spreadsheet can sort. */
const DAY_FORMAT = 'dd/mm/yyyy';

/** A calendar day (YYYY-MM-DD) as a date cell, at UTC midnight as exceljs writes dates; else null. */
function dayCell(value: unknown): Date | null {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const date = new Date(`${value}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? null : date;
}

export interface SheetSpec {
  name: string;
  columns: { header: string; key: string; width?: number }[];
  rows: Record<string, unknown>[];
}

/** Builds an .xlsx file from rows; a calendar day becomes a date cell (DD/MM/YYYY), every text cell goes through safeCell. */
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
      for (const c of spec.columns) safe[c.key] = dayCell(row[c.key]) ?? safeCell(row[c.key]);
      const added = sheet.addRow(safe);
      added.eachCell((cell) => {
        if (cell.value instanceof Date) cell.numFmt = DAY_FORMAT;
      });
    }
  }
  const buffer = await workbook.xlsx.writeBuffer();
  return buffer as ArrayBuffer;
}

export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

// ------------------------------------------------------------------ reading

/** One row of a worksheet: its sheet row number and its cell values as exceljs gives them (index 1 = A). */
export interface WorksheetRow {
  n: number;
  values: unknown[];
}

/**
 * The parts of exceljs's streaming WorkbookReader (exceljs 4.4) this reader drives. They are its own
 * steps, called here in the order a sheet needs them instead of the order the zip happens to hold them
 * (Excel writes the worksheet before the shared strings, which makes the reader spill it to a temporary
 * file — there is no file system in a Worker).
 */
interface StreamingWorkbook {
  _parseRels(entry: Readable): Promise<void>;
  _parseWorkbook(entry: Readable): Promise<void>;
  _parseSharedStrings(entry: Readable): AsyncIterable<unknown>;
  _parseStyles(entry: Readable): Promise<void>;
  _parseWorksheet(
    chunks: AsyncIterable<string>,
    sheetNo: string,
  ): Iterable<{ value: AsyncIterable<{ number: number; values: unknown[] }> }>;
  workbookRels?: { Id: string; Target: string }[];
  model?: { sheets?: { rId: string; state?: string }[] };
}

/** Text of UTF-8 bytes in pieces of about 64 KB, never splitting a character. */
async function* textChunks(bytes: Uint8Array, size = 64 * 1024): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  for (let i = 0; i < bytes.length; i += size)
    yield decoder.decode(bytes.subarray(i, i + size), { stream: true });
  const rest = decoder.decode();
  if (rest) yield rest;
}

const entryStream = (bytes: Uint8Array) => Readable.from(textChunks(bytes));

/** "xl/worksheets/sheet1.xml" from a workbook relationship's target, relative or absolute. */
function partPath(target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const parts: string[] = ['xl'];
  for (const p of target.split('/')) {
    if (p === '..') parts.pop();
    else if (p && p !== '.') parts.push(p);
  }
  return parts.join('/');
}

/** Column number (A = 1) and row number of a cell reference such as "AB12". */
function cellRef(ref: string): { col: number; row: number } | null {
  const m = /^\$?([A-Z]{1,3})\$?(\d{1,7})$/i.exec(ref.trim());
  if (!m) return null;
  let col = 0;
  for (const ch of m[1].toUpperCase()) col = col * 26 + (ch.charCodeAt(0) - 64);
  return { col, row: Number(m[2]) };
}

/** The merged ranges of a worksheet's XML (its <mergeCells>, after the rows). */
function mergedRanges(
  sheetXml: Uint8Array,
): { from: { col: number; row: number }; to: { col: number; row: number } }[] {
  const marker = new TextEncoder().encode('</sheetData>');
  let at = -1;
  outer: for (let i = sheetXml.length - marker.length; i >= 0; i--) {
    for (let k = 0; k < marker.length; k++) if (sheetXml[i + k] !== marker[k]) continue outer;
    at = i;
    break;
  }
  if (at < 0) return [];
  const tail = new TextDecoder().decode(sheetXml.subarray(at));
  const ranges = [];
  for (const m of tail.matchAll(/<(?:\w+:)?mergeCell\b[^>]*\bref="([^"]+)"/g)) {
    const [a, b] = m[1].split(':');
    const from = cellRef(a);
    const to = cellRef(b ?? a);
    if (from && to) ranges.push({ from, to });
  }
  return ranges;
}

/**
 * Every cell of a merged range takes the value of the range's first cell, as exceljs's whole-workbook
 * load gives them (a "Group" cell merged down twenty rows names the group of all twenty). Ranges reach
 * no further than the last row and `maxColumns`.
 */
function fillMerged(rows: WorksheetRow[], sheetXml: Uint8Array, maxColumns: number): WorksheetRow[] {
  const ranges = mergedRanges(sheetXml);
  if (!ranges.length || !rows.length) return rows;
  const byNumber = new Map(rows.map((r) => [r.n, r]));
  const lastRow = rows[rows.length - 1].n;
  let added = false;
  for (const { from, to } of ranges) {
    const value = byNumber.get(from.row)?.values[from.col];
    if (value == null) continue;
    for (let n = from.row; n <= Math.min(to.row, lastRow); n++) {
      let row = byNumber.get(n);
      for (let c = from.col; c <= Math.min(to.col, maxColumns); c++) {
        if (n === from.row && c === from.col) continue;
        if (!row) {
          row = { n, values: [] };
          byNumber.set(n, row);
          added = true;
        }
        row.values[c] = value;
      }
    }
  }
  return added ? [...byNumber.values()].sort((a, b) => a.n - b.n) : rows;
}

/**
 * The rows of an .xlsx's first visible worksheet (the first sheet when all are hidden; none when the
 * workbook has no sheet), read with exceljs's streaming reader from entries inflated natively: about
 * half the time of exceljs's whole-workbook load, which builds every cell's model first. Shared strings,
 * rich text, formulas (by their result), booleans, errors and date cells (by their number format, 1900
 * or 1904 based) come out as exceljs gives them. Each entry is read up to `maxEntryBytes` unless
 * `parts` already holds it inflated; a damaged archive or XML throws.
 */
export async function readFirstWorksheet(
  bytes: Uint8Array,
  opts: { maxEntryBytes: number; maxColumns: number; parts?: Map<string, Uint8Array> },
): Promise<WorksheetRow[]> {
  const directory = readCentralDirectory(bytes, 0xffff);
  if (!Array.isArray(directory)) throw new ZipError('no central directory');
  const entries = new Map(directory.map((e) => [e.name, e]));
  const contents = async (name: string) => {
    const entry = entries.get(name);
    if (!entry) return null;
    return opts.parts?.get(name) ?? entryContents(bytes, entry, opts.maxEntryBytes);
  };
  const ExcelJS = await loadExcel();
  const Reader = (
    ExcelJS as unknown as { stream: { xlsx: { WorkbookReader: new (...a: unknown[]) => unknown } } }
  ).stream.xlsx.WorkbookReader;
  const reader = new Reader(null, {
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'ignore',
  }) as StreamingWorkbook;

  const workbook = await contents('xl/workbook.xml');
  const rels = await contents('xl/_rels/workbook.xml.rels');
  if (!workbook || !rels) throw new ZipError('not a workbook');
  await reader._parseRels(entryStream(rels));
  await reader._parseWorkbook(entryStream(workbook));
  const sharedStrings = await contents('xl/sharedStrings.xml');
  if (sharedStrings) for await (const _ of reader._parseSharedStrings(entryStream(sharedStrings))) void _;
  const styles = await contents('xl/styles.xml');
  if (styles) await reader._parseStyles(entryStream(styles));

  const sheets = reader.model?.sheets ?? [];
  const chosen = sheets.find((s) => s.state !== 'hidden' && s.state !== 'veryHidden') ?? sheets[0];
  const target = chosen && reader.workbookRels?.find((r) => r.Id === chosen.rId)?.Target;
  if (!target) return [];
  const sheetXml = await contents(partPath(target));
  if (!sheetXml) throw new ZipError(`missing ${target}`);
  // The XML parser stops quietly where the text stops: a cut-off sheet would read as fewer rows.
  const end = new TextDecoder().decode(sheetXml.subarray(Math.max(0, sheetXml.length - 64))).trimEnd();
  if (!/<\/(?:[\w.-]+:)?worksheet>$/.test(end)) throw new ZipError(`${target} is cut off`);
  const rows: WorksheetRow[] = [];
  for (const { value: worksheet } of reader._parseWorksheet(textChunks(sheetXml), '1'))
    for await (const row of worksheet) {
      const values = row.values;
      if (values.length) rows.push({ n: row.number, values });
    }
  return fillMerged(rows, sheetXml, opts.maxColumns);
}
