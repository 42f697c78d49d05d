/**
 * An uploaded applicant sheet: checked (size, real type by its bytes, zip-bomb limits on an .xlsx's
 * central directory and its actual inflated size, all before exceljs sees it), then read into a header
 * row and data rows of text cells. Every refusal is one of the spec's file messages.
 */
import { ValidationFailed } from '../errors';
import { msg } from '../validation';
import { readFirstWorksheet, type WorksheetRow } from '../../platform/xlsx';
import { sniffFileKind } from '../../platform/storage';
import { entryContents, inflatedSize, readCentralDirectory, ZipError, ZipTooLarge } from '../../platform/zip';
import { CsvError, decodeText, parseCsv } from './csv';
import { exactHeaderTarget, matchHeader } from './matching';
import {
  MAX_APPLICANTS,
  MAX_COLUMNS,
  MAX_IMPORT_MB,
  MAX_UNCOMPRESSED_BYTES,
  MAX_ZIP_ENTRIES,
} from './schema';

export type SheetKind = 'xlsx' | 'csv';

/** The spec's file messages (spec 001 s.8, 000 s.5), as message keys of imports.json. */
export const FILE_ERRORS = {
  format: msg('imports.errors.format'),
  parse: msg('imports.errors.parse'),
  empty: msg('imports.errors.empty'),
  noApplicants: msg('imports.errors.no_applicants'),
  tooLarge: (mb: number) => msg('validation.file_too_large', { size: mb }),
  tooMany: (count: number) => msg('imports.errors.too_many', { count, max: MAX_APPLICANTS }),
  zipBomb: msg('imports.errors.too_big_unpacked'),
};

const fileError = (message: string) => ValidationFailed.field('file', message);

/** The parts of an .xlsx its reader may need, kept as they are inflated by the zip-bomb check. */
const READ_PARTS =
  /^xl\/(workbook\.xml|_rels\/workbook\.xml\.rels|sharedStrings\.xml|styles\.xml|worksheets\/[^/]+\.xml)$/;
/** At most this much of them is kept in memory; a part past it is inflated again when read. */
const KEPT_PART_BYTES = 64 * 1024 * 1024;

/**
 * The zip-bomb check of an .xlsx: at most MAX_ZIP_ENTRIES entries and MAX_UNCOMPRESSED_BYTES in all,
 * as the central directory declares and as the deflated data really inflates (a directory can lie).
 * Answers the inflated parts the reader needs, so nothing is inflated twice.
 */
export async function checkZip(bytes: Uint8Array): Promise<Map<string, Uint8Array>> {
  const entries = readCentralDirectory(bytes, MAX_ZIP_ENTRIES);
  if (entries === 'too_many') throw fileError(FILE_ERRORS.zipBomb);
  if (!entries) throw fileError(FILE_ERRORS.parse);
  let declared = 0;
  for (const e of entries) declared += e.uncompressedSize;
  if (declared > MAX_UNCOMPRESSED_BYTES) throw fileError(FILE_ERRORS.zipBomb);
  const parts = new Map<string, Uint8Array>();
  let kept = 0;
  let actual = 0;
  for (const e of entries) {
    const limit = Math.min(e.uncompressedSize, MAX_UNCOMPRESSED_BYTES - actual);
    try {
      if (READ_PARTS.test(e.name) && kept + e.uncompressedSize <= KEPT_PART_BYTES) {
        const part = await entryContents(bytes, e, limit);
        parts.set(e.name, part);
        kept += part.length;
        actual += part.length;
      } else actual += await inflatedSize(bytes, e, limit);
    } catch (x) {
      if (x instanceof ZipTooLarge) throw fileError(FILE_ERRORS.zipBomb);
      if (x instanceof ZipError) throw fileError(FILE_ERRORS.parse);
      throw x;
    }
  }
  return parts;
}

/** Printable text: no NUL bytes and few control characters in its first 8 KB. */
function looksLikeText(bytes: Uint8Array): boolean {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) return true;
  const head = bytes.subarray(0, 8192);
  let control = 0;
  for (const b of head) {
    if (b === 0) return false;
    if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c) control++;
  }
  return control <= head.length / 100;
}

/**
 * The kind of an applicant sheet from its bytes: an .xlsx (a zip holding xl/) or a CSV (text). A file
 * of another kind (PDF, image, Word, old binary .xls) is 'Uploaded file has incorrect format.'.
 */
export function sheetKind(bytes: Uint8Array): SheetKind {
  const sniffed = sniffFileKind(bytes);
  if (sniffed === 'xlsx') return 'xlsx';
  if (sniffed === 'csv') return 'csv';
  if (sniffed) throw fileError(FILE_ERRORS.format);
  // A zip that is not an Office spreadsheet, or a damaged one whose directory cannot be read.
  if (bytes[0] === 0x50 && bytes[1] === 0x4b) {
    const entries = readCentralDirectory(bytes, MAX_ZIP_ENTRIES);
    if (entries === null) throw fileError(FILE_ERRORS.parse);
    throw fileError(FILE_ERRORS.format);
  }
  if (looksLikeText(bytes)) return 'csv';
  throw fileError(FILE_ERRORS.format);
}

export interface CheckedSheetFile {
  bytes: Uint8Array;
  kind: SheetKind;
  /** An .xlsx's parts as the zip-bomb check inflated them (see checkZip). */
  parts?: Map<string, Uint8Array>;
  name: string;
  size: number;
}

/** The kind a file's name says it is: `null` when it has no extension, `'other'` for any but these two. */
function namedKind(name: string): SheetKind | 'other' | null {
  const extension = /\.([^./\\]+)$/.exec(name)?.[1]?.toLowerCase();
  if (!extension) return null;
  return extension === 'xlsx' || extension === 'csv' ? extension : 'other';
}

/**
 * The checks an upload passes before it is read: present, not empty, at most MAX_IMPORT_MB, an .xlsx
 * or a CSV by its content, its name agreeing (a `.xlsx` must be a workbook, a `.csv` text; a name
 * without an extension leaves it to the content), and an .xlsx within the zip limits.
 */
export async function checkSheetFile(file: unknown): Promise<CheckedSheetFile> {
  if (!(file instanceof Blob) || (file instanceof File && !file.name && file.size === 0))
    throw fileError(msg('validation.required'));
  if (file.size === 0) throw fileError(FILE_ERRORS.empty);
  if (file.size > MAX_IMPORT_MB * 1024 * 1024) throw fileError(FILE_ERRORS.tooLarge(MAX_IMPORT_MB));
  const bytes = new Uint8Array(await file.arrayBuffer());
  const kind = sheetKind(bytes);
  const named = file instanceof File ? namedKind(file.name) : null;
  if (named === 'other' || (named && named !== kind)) throw fileError(FILE_ERRORS.format);
  const parts = kind === 'xlsx' ? await checkZip(bytes) : undefined;
  if (kind === 'csv' && !/\S/.test(decodeText(bytes.subarray(0, 64 * 1024))) && bytes.length <= 64 * 1024)
    throw fileError(FILE_ERRORS.empty);
  const name = file instanceof File && file.name ? file.name : `applicants.${kind}`;
  return { bytes, kind, parts, name, size: bytes.length };
}

// ------------------------------------------------------------------ reading

/** A sheet as text: its header row and its data rows with their sheet row numbers. */
export interface Sheet {
  headers: string[];
  rows: { n: number; cells: string[] }[];
}

const isoDay = (d: Date) => (Number.isNaN(d.getTime()) ? '' : d.toISOString().slice(0, 10));

/** The text of an exceljs cell value: rich text joined, formulas by their result, dates as YYYY-MM-DD. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number')
    return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(15)));
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return isoDay(value);
  if (typeof value === 'object') {
    const v = value as Record<string, unknown>;
    if (Array.isArray(v.richText))
      return (v.richText as { text?: string }[]).map((r) => r.text ?? '').join('');
    if ('result' in v) return cellText(v.result);
    if ('text' in v) return cellText(v.text);
    if ('error' in v) return '';
  }
  return String(value);
}

const blank = (cells: readonly string[]) => cells.every((c) => !c || !c.trim());

/** What a sheet's known headers are: a cell naming one exactly, and a cell naming one or nearly. */
export interface HeaderKnowledge {
  exact: (cell: string) => boolean;
  near: (cell: string) => boolean;
  /** Known headers a row needs to beat the first non-blank row (2; a one-column sheet's: 1). */
  minimum?: number;
}

/** The headers of an applicant sheet (the enrolment template, its synonyms, near misses). */
export const APPLICANT_HEADERS: HeaderKnowledge = {
  exact: (c) => exactHeaderTarget(c) != null,
  near: (c) => matchHeader(c).target != null,
};

/**
 * The header row among the first rows: the one whose cells match the most known headers (a title row
 * above the headers is skipped), else the first non-blank row. A row naming three or more fields
 * exactly settles it at once; otherwise near misses count too (fuzzy matching every cell of ten rows
 * against every known header costs far more than the exact look-up).
 */
export function headerRowIndex(
  rows: readonly string[][],
  known: HeaderKnowledge = APPLICANT_HEADERS,
): number {
  const first = rows.slice(0, 10);
  const best = (score: (cell: string) => boolean) => {
    let index = -1;
    let top = 0;
    for (let i = 0; i < first.length; i++) {
      if (blank(first[i])) continue;
      if (index < 0) index = i;
      const n = first[i].filter((c) => c && score(c)).length;
      if (n > top && n >= (known.minimum ?? 2)) {
        index = i;
        top = n;
      }
    }
    return { index, top };
  };
  const exact = best(known.exact);
  if (exact.top >= 3) return exact.index;
  return best(known.near).index;
}

/**
 * The longest cell kept: no applicant field is longer than 255 characters, and a cell of megabytes (a
 * pasted document) would not fit a database row. A longer cell is cut; its field then reports its length.
 */
export const MAX_CELL_LENGTH = 1000;

const capped = (cell: string) => (cell.length > MAX_CELL_LENGTH ? cell.slice(0, MAX_CELL_LENGTH) : cell);

/** Rows of text (row numbers 1-based) to a sheet: header row found, blank rows dropped, width capped. */
export function toSheet(
  table: { n: number; cells: string[] }[],
  known: HeaderKnowledge = APPLICANT_HEADERS,
): Sheet {
  const h = headerRowIndex(
    table.map((r) => r.cells),
    known,
  );
  if (h < 0) return { headers: [], rows: [] };
  const headerCells = table[h].cells.slice(0, MAX_COLUMNS);
  let width = headerCells.length;
  while (width > 0 && !headerCells[width - 1]?.trim()) width--;
  const rows: Sheet['rows'] = [];
  for (let i = h + 1; i < table.length; i++) {
    const cells = table[i].cells.slice(0, width).map(capped);
    if (blank(cells)) continue;
    while (cells.length < width) cells.push('');
    rows.push({ n: table[i].n, cells });
  }
  return { headers: headerCells.slice(0, width).map((c) => capped(c.replace(/\s+/g, ' ').trim())), rows };
}

/**
 * Reads an .xlsx's first visible worksheet (exceljs's streaming reader, see platform/xlsx.ts), from the
 * parts already inflated where given.
 */
export async function readXlsx(
  bytes: Uint8Array,
  parts?: Map<string, Uint8Array>,
  known: HeaderKnowledge = APPLICANT_HEADERS,
): Promise<Sheet> {
  let rows: WorksheetRow[];
  try {
    rows = await readFirstWorksheet(bytes, {
      parts,
      maxEntryBytes: MAX_UNCOMPRESSED_BYTES,
      maxColumns: MAX_COLUMNS,
    });
  } catch {
    throw fileError(FILE_ERRORS.parse);
  }
  const table: { n: number; cells: string[] }[] = rows.map(({ n, values }) => {
    const cells: string[] = [];
    const last = Math.min(values.length, MAX_COLUMNS + 1);
    for (let c = 1; c < last; c++) cells.push(cellText(values[c]));
    return { n, cells };
  });
  return toSheet(table, known);
}

/** Reads a CSV file. */
export function readCsv(bytes: Uint8Array, known: HeaderKnowledge = APPLICANT_HEADERS): Sheet {
  let rows: string[][];
  try {
    rows = parseCsv(decodeText(bytes));
  } catch (e) {
    if (e instanceof CsvError || e instanceof TypeError || e instanceof RangeError)
      throw fileError(FILE_ERRORS.parse);
    throw e;
  }
  return toSheet(
    rows.map((cells, i) => ({ n: i + 1, cells })),
    known,
  );
}

/** What kind of sheet is read: its headers and what to say when it has no rows or too many. */
export interface SheetKindOptions {
  known: HeaderKnowledge;
  noRows: string;
  tooMany: (count: number) => string;
  maxRows: number;
}

const APPLICANT_SHEET: SheetKindOptions = {
  known: APPLICANT_HEADERS,
  noRows: FILE_ERRORS.noApplicants,
  tooMany: FILE_ERRORS.tooMany,
  maxRows: MAX_APPLICANTS,
};

/**
 * A checked file read as a sheet, refusing a sheet with no rows or too many (an applicant sheet by
 * default: no applicant rows, or more than MAX_APPLICANTS; a cancellation sheet passes its own).
 */
export async function readSheet(
  file: Pick<CheckedSheetFile, 'bytes' | 'kind' | 'parts'>,
  kind: SheetKindOptions = APPLICANT_SHEET,
): Promise<Sheet> {
  const sheet =
    file.kind === 'xlsx'
      ? await readXlsx(file.bytes, file.parts, kind.known)
      : readCsv(file.bytes, kind.known);
  if (!sheet.headers.length || !sheet.rows.length) throw fileError(kind.noRows);
  if (sheet.rows.length > kind.maxRows) throw fileError(kind.tooMany(sheet.rows.length));
  return sheet;
}
