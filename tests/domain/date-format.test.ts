/// <reference types="vite/client" />
/**
 * One date format (spec 000 s.1, British English): DD/MM/YYYY on every page, PDF, e-mail, message and
 * export, and DD/MM/YYYY, HH:mm where the time matters. britishDate and britishDateTime
 * (workers/domain/formats.ts) are the one way to write them; the pages reach them through formatDate and
 * formatDateTime (app/lib/dates.ts). A source scan fails on a date written any other way, each rule
 * checked against an offending sample so that a rule matching nothing fails too.
 */
import { describe, expect, it } from 'vitest';
import { formatDate, formatDateSpelled, formatDateTime } from '../../app/lib/dates';
import { britishDate, britishDateTime } from '../../workers/domain/formats';
import { buildWorkbook, loadExcel } from '../../workers/platform/xlsx';

const SOURCES = {
  ...import.meta.glob('/workers/**/*.ts', { query: '?raw', import: 'default', eager: true }),
  ...import.meta.glob('/app/**/*.{ts,tsx}', { query: '?raw', import: 'default', eager: true }),
} as Record<string, string>;

/** The modules that write dates: the rule itself and the pages' door to it. */
const HOMES = ['/workers/domain/formats.ts', '/app/lib/dates.ts'];

const RULES: { name: string; pattern: RegExp; sample: string }[] = [
  {
    name: "the runtime's own date text",
    pattern: /\.toLocale(Date|Time)String\(/,
    sample: "new Date(d).toLocaleDateString('en-GB')",
  },
  {
    // yyyy-MM-dd is the stored form of a day, not a text for a person.
    name: 'a date-fns pattern of days, months or years',
    pattern: /\bformat\(\s*[\w.]+,\s*['"](?!yyyy-MM-dd['"])[^'"\n]*(dd|MM|yyyy)[^'"\n]*['"]/,
    sample: "format(d, 'dd MMM yyyy', { locale: enGB })",
  },
  {
    name: 'a day turned round by hand',
    pattern: /split\(['"]-['"]\)\.reverse\(\)/,
    sample: "iso.split('-').reverse().join('/')",
  },
  {
    // The browser draws its own date input in the order of its own language (MM/DD/YYYY in many):
    // a date field is `Field type="date"`, `FilterDate` or `DateInput`, which show DD/MM/YYYY.
    name: "the browser's own date input",
    pattern: /<(input|Input)\b[^>]*\btype=["']date["']|getInputProps\([^)]*type:\s*['"]date['"]/,
    sample: '<input {...common} type="date" defaultValue={day} />',
  },
  {
    name: 'a month spelled by Intl',
    pattern: /month:\s*['"](short|long|narrow)['"]/,
    sample: "d.toLocaleString('en-GB', { month: 'short' })",
  },
];

describe('one date format', () => {
  it('writes a calendar day as DD/MM/YYYY, never moved by a time zone', () => {
    expect(britishDate('2026-11-21')).toBe('21/11/2026');
    expect(britishDate('2026-06-30')).toBe('30/06/2026');
    expect(formatDate('2026-01-05')).toBe('05/01/2026');
    expect(formatDate(null)).toBe('N/A');
    expect(britishDate(undefined, '—')).toBe('—');
  });

  it('reads an instant on London time, in summer and in winter', () => {
    // 23:30 UTC on 30 June is 00:30 on 1 July in London (BST).
    expect(britishDate('2026-06-30T23:30:00Z')).toBe('01/07/2026');
    expect(britishDateTime('2026-06-30T23:30:00Z')).toBe('01/07/2026, 00:30');
    expect(formatDateTime(new Date(Date.UTC(2026, 11, 24, 9, 5)))).toBe('24/12/2026, 09:05');
    // A stored time without a zone is UTC.
    expect(britishDateTime('2026-12-24 09:05:00')).toBe('24/12/2026, 09:05');
    expect(formatDateTime(undefined)).toBe('N/A');
  });

  it('leaves text that is no date as it is', () => {
    expect(britishDate('not a date')).toBe('not a date');
  });

  it('spells the month only where the digits themselves are in question (the import reading)', () => {
    expect(formatDateSpelled('1980-04-03')).toBe('03 Apr 1980');
  });

  it('writes a day of an export as a date cell shown DD/MM/YYYY', async () => {
    const ExcelJS = await loadExcel();
    const body = await buildWorkbook([
      { name: 'Days', columns: [{ header: 'Due', key: 'due' }], rows: [{ due: '2026-11-21' }] },
    ]);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(body);
    const cell = book.worksheets[0].getRow(2).getCell(1);
    expect(cell.value).toEqual(new Date('2026-11-21T00:00:00Z'));
    expect(cell.numFmt).toBe('dd/mm/yyyy');
  });

  it.each(RULES)('no module writes a date another way: $name', ({ pattern, sample }) => {
    expect(pattern.test(sample)).toBe(true);
    const offenders = Object.entries(SOURCES)
      .filter(([file]) => !HOMES.includes(file))
      .filter(([, source]) => pattern.test(source))
      .map(([file]) => file);
    expect(offenders).toEqual([]);
  });
});
