/**
 * Applicant sheets for import tests: real .xlsx files written with exceljs (raw cell values, dates as
 * date cells), CSV text, and hand-built zip archives whose central directory says what a test needs
 * (a zip bomb that lies about its size, too many entries).
 */
import { loadExcel } from '../../workers/platform/xlsx';
import { crc32, fileOf } from './files';

export type Cell = string | number | Date | boolean | null;

/** An .xlsx with one sheet of the given rows (the first row is the header row). */
export async function xlsxOf(
  rows: Cell[][],
  opts: { sheetName?: string; before?: Cell[][] } = {},
): Promise<Uint8Array> {
  const ExcelJS = await loadExcel();
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(opts.sheetName ?? 'Applicants');
  for (const r of opts.before ?? []) sheet.addRow(r);
  for (const r of rows) sheet.addRow(r);
  for (const r of rows)
    r.forEach((v, i) => {
      if (v instanceof Date) sheet.getColumn(i + 1).numFmt = 'dd/mm/yyyy';
    });
  return new Uint8Array((await workbook.xlsx.writeBuffer()) as ArrayBuffer);
}

export function csvOf(rows: (string | number)[][], delimiter = ','): string {
  const quote = (v: string | number) => {
    const s = String(v);
    return /[",\n\r;\t]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return rows.map((r) => r.map(quote).join(delimiter)).join('\r\n') + '\r\n';
}

export { fileOf };

export async function deflateRaw(data: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([data as Uint8Array<ArrayBuffer>])
    .stream()
    .pipeThrough(new CompressionStream('deflate-raw'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

export interface RawEntry {
  name: string;
  /** The bytes as stored (already deflated when method is 8). */
  data: Uint8Array;
  method: 0 | 8;
  /** What the central directory claims the entry inflates to. */
  declaredSize: number;
  crc?: number;
}

/** A zip archive exactly as described, true or not. */
export function rawZip(entries: RawEntry[]): Uint8Array {
  const enc = new TextEncoder();
  const parts: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = enc.encode(e.name);
    const local = new Uint8Array(30 + name.length);
    const lv = new DataView(local.buffer);
    lv.setUint32(0, 0x04034b50, true);
    lv.setUint16(4, 20, true);
    lv.setUint16(8, e.method, true);
    lv.setUint32(14, e.crc ?? 0, true);
    lv.setUint32(18, e.data.length, true);
    lv.setUint32(22, e.declaredSize, true);
    lv.setUint16(26, name.length, true);
    local.set(name, 30);
    const central = new Uint8Array(46 + name.length);
    const cv = new DataView(central.buffer);
    cv.setUint32(0, 0x02014b50, true);
    cv.setUint16(4, 20, true);
    cv.setUint16(6, 20, true);
    cv.setUint16(10, e.method, true);
    cv.setUint32(16, e.crc ?? 0, true);
    cv.setUint32(20, e.data.length, true);
    cv.setUint32(24, e.declaredSize, true);
    cv.setUint16(28, name.length, true);
    cv.setUint32(42, offset, true);
    central.set(name, 46);
    parts.push(local, e.data);
    centrals.push(central);
    offset += local.length + e.data.length;
  }
  const centralSize = centrals.reduce((n, c) => n + c.length, 0);
  const end = new Uint8Array(22);
  const ev = new DataView(end.buffer);
  ev.setUint32(0, 0x06054b50, true);
  ev.setUint16(8, entries.length, true);
  ev.setUint16(10, entries.length, true);
  ev.setUint32(12, centralSize, true);
  ev.setUint32(16, offset, true);
  const all = [...parts, ...centrals, end];
  const out = new Uint8Array(all.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of all) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** A stored (uncompressed) entry with its true size and checksum. */
export function storedEntry(name: string, text: string): RawEntry {
  const data = new TextEncoder().encode(text);
  return { name, data, method: 0, declaredSize: data.length, crc: crc32(data) };
}
