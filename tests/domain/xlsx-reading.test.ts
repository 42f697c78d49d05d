/**
 * The import reads .xlsx files with exceljs's streaming reader fed natively inflated entries
 * (workers/platform/xlsx.ts). These tests hold it to what exceljs's whole-workbook load gives for the same
 * file (the reader the import used before), across what real sheets contain, and read files laid out as
 * Excel writes them (the worksheet before the shared strings) that exceljs itself never writes.
 */
import type { Workbook } from 'exceljs';
import { describe, expect, it } from 'vitest';
import {
  cellText,
  checkSheetFile,
  readSheet,
  readXlsx,
  toSheet,
  type Sheet,
} from '../../workers/domain/imports/files';
import { loadExcel } from '../../workers/platform/xlsx';
import { fileOf, zipBytes } from '../support/files';

/** The sheet as exceljs's whole-workbook load reads it (first visible sheet, every cell as text). */
async function loadedSheet(bytes: Uint8Array): Promise<Sheet> {
  const ExcelJS = await loadExcel();
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  const sheet =
    workbook.worksheets.find((w) => w.state !== 'hidden' && w.state !== 'veryHidden') ??
    workbook.worksheets[0]!;
  const table: { n: number; cells: string[] }[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, n) => {
    const values = row.values as unknown[];
    const cells: string[] = [];
    for (let c = 1; c < values.length; c++) cells.push(cellText(values[c]));
    table.push({ n, cells });
  });
  return toSheet(table);
}

async function build(fill: (wb: Workbook) => void): Promise<Uint8Array> {
  const ExcelJS = await loadExcel();
  const workbook = new ExcelJS.Workbook();
  fill(workbook);
  return new Uint8Array((await workbook.xlsx.writeBuffer()) as ArrayBuffer);
}

const HEADER = ['First Name', 'Last Name', 'Date of Birth', 'Group', 'Fee', 'Paid'];

describe('reading an .xlsx', () => {
  it('gives what the whole-workbook load gives: text, numbers, dates, formulas, rich text, booleans, errors', async () => {
    const bytes = await build((wb) => {
      const ws = wb.addWorksheet('Intake');
      ws.addRow(['Oakwood intake']);
      ws.addRow(HEADER);
      for (let i = 0; i < 300; i++)
        ws.addRow([
          `Ana${'abcdefghij'[i % 10]}`,
          i % 7 ? 'Silva' : { richText: [{ text: 'Sil', font: { bold: true } }, { text: 'va' }] },
          i % 2 ? new Date(Date.UTC(2008, i % 12, 1 + (i % 28))) : '03/04/2008',
          i % 5 ? `Group ${1 + (i % 3)}` : { formula: 'CONCATENATE("Group ","9")', result: 'Group 9' },
          i % 3 ? 95.5 + i : { formula: 'E3*2', result: 191 },
          i % 4 === 0,
        ]);
      ws.addRow(['Rui', { error: '#N/A' }, '', '', 0.1 + 0.2, true]);
      ws.getColumn(3).numFmt = 'dd/mm/yyyy';
    });
    const read = await readXlsx(bytes);
    expect(read).toEqual(await loadedSheet(bytes));
    // The same from the parts the upload's zip-bomb check already inflated.
    expect(await readSheet(await checkSheetFile(fileOf(bytes, 'intake.xlsx')))).toEqual(read);
    expect(read.headers).toEqual(HEADER);
    expect(read.rows).toHaveLength(301);
    expect(read.rows[1]!.cells.slice(0, 3)).toEqual(['Anab', 'Silva', '2008-02-02']);
    expect(read.rows[0]!.cells[3]).toBe('Group 9');
  });

  it('reads the first visible sheet, and a sheet in the 1904 date system', async () => {
    const bytes = await build((wb) => {
      wb.addWorksheet('Notes', { state: 'hidden' }).addRow(['not this one']);
      const ws = wb.addWorksheet('Applicants');
      ws.addRow(HEADER.slice(0, 3));
      ws.addRow(['Ana', 'Silva', new Date(Date.UTC(2008, 1, 3))]);
      ws.getColumn(3).numFmt = 'dd/mm/yyyy';
      wb.properties.date1904 = true;
    });
    const read = await readXlsx(bytes);
    expect(read).toEqual(await loadedSheet(bytes));
    expect(read.rows.map((r) => r.cells)).toEqual([['Ana', 'Silva', '2008-02-03']]);
  });

  it('gives every cell of a merged range its first cell, as the load does', async () => {
    const bytes = await build((wb) => {
      const ws = wb.addWorksheet('Applicants');
      ws.addRow(['First Name', 'Last Name', 'Group']);
      ws.addRow(['Ana', 'Silva', 'Blue']);
      ws.addRow(['Rui', 'Costa', null]);
      ws.addRow(['Eva', 'Lima', null]);
      ws.addRow(['Max', 'Sousa', 'Red']);
      ws.mergeCells('C2:C4');
    });
    const read = await readXlsx(bytes);
    expect(read).toEqual(await loadedSheet(bytes));
    expect(read.rows.map((r) => r.cells[2])).toEqual(['Blue', 'Blue', 'Blue', 'Red']);
  });

  it('keeps accents, Chinese and emoji whole across the pieces a long sheet is read in', async () => {
    const names = ['Zoë', 'Łukasz', '王小明', 'Nguyễn', 'Ana 🌍'];
    const bytes = await build((wb) => {
      const ws = wb.addWorksheet('Applicants');
      ws.addRow(HEADER.slice(0, 2));
      // Inline-looking long cells put multi-byte characters on every 64 KB boundary sooner or later.
      for (let i = 0; i < 3000; i++) ws.addRow([names[i % names.length]!, `${names[(i + 2) % 5]!} ${i}`]);
    });
    const read = await readXlsx(bytes);
    expect(read).toEqual(await loadedSheet(bytes));
    expect(new Set(read.rows.map((r) => r.cells[0]))).toEqual(new Set(names));
  });

  it('reads a file laid out as Excel writes it: worksheet before shared strings, inline strings, an absolute part name', async () => {
    const bytes = zipBytes({
      '[Content_Types].xml':
        '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>',
      '_rels/.rels': '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"/>',
      'xl/workbook.xml':
        '<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Applicants" sheetId="1" r:id="rId1"/></sheets></workbook>',
      'xl/_rels/workbook.xml.rels':
        '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="/xl/worksheets/intake.xml"/></Relationships>',
      'xl/worksheets/intake.xml':
        '<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>' +
        '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="inlineStr"><is><t>Email</t></is></c></row>' +
        '<row r="2"><c r="A2" t="s"><v>2</v></c><c r="B2" t="inlineStr"><is><t>Silva &amp; Costa</t></is></c><c r="C2" t="str"><v>ana@school.test</v></c></row>' +
        '<row r="3"><c r="A3" t="s"><v>3</v></c><c r="B3"><v>42</v></c><c r="C3" t="b"><v>1</v></c></row>' +
        '</sheetData></worksheet>',
      'xl/sharedStrings.xml':
        '<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="4" uniqueCount="4"><si><t>First Name</t></si><si><t>Last Name</t></si><si><r><t>An</t></r><r><rPr><b/></rPr><t>a</t></r></si><si><t xml:space="preserve"> Rui </t></si></sst>',
    });
    const read = await readXlsx(bytes);
    expect(read.headers).toEqual(['First Name', 'Last Name', 'Email']);
    expect(read.rows.map((r) => r.cells)).toEqual([
      ['Ana', 'Silva & Costa', 'ana@school.test'],
      [' Rui ', '42', 'TRUE'],
    ]);
  });

  it('reads a workbook without sheets as no applicants, and damaged XML as a file that cannot be parsed', async () => {
    const empty = zipBytes({
      'xl/workbook.xml': '<workbook><sheets/></workbook>',
      'xl/_rels/workbook.xml.rels': '<Relationships/>',
    });
    expect(await readXlsx(empty)).toEqual({ headers: [], rows: [] });
    const broken = zipBytes({
      'xl/workbook.xml': '<workbook><sheets><sheet name="A" sheetId="1" r:id="rId1"/></sheets></workbook>',
      'xl/_rels/workbook.xml.rels':
        '<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>',
      'xl/worksheets/sheet1.xml': '<worksheet><sheetData><row r="1"><c r="A1"><v>1</v></c></row>',
    });
    await expect(readXlsx(broken)).rejects.toMatchObject({
      errors: [{ key: 'file', message: 'imports.errors.parse' }],
    });
  });
});
