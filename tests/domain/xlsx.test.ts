import { describe, expect, it } from 'vitest';
import { buildWorkbook, loadExcel, safeCell } from '../../workers/platform/xlsx';

describe('spreadsheet export', () => {
  it('neutralises cells that a spreadsheet would run as formulas', () => {
    expect(safeCell('=HYPERLINK("http://evil")')).toBe(`'=HYPERLINK("http://evil")`);
    expect(safeCell('+44 20')).toBe(`'+44 20`);
    expect(safeCell('-1')).toBe(`'-1`);
    expect(safeCell('@SUM(A1)')).toBe(`'@SUM(A1)`);
    expect(safeCell('Oakwood')).toBe('Oakwood');
    expect(safeCell(-1)).toBe(-1);
    expect(safeCell(null)).toBeNull();
  });

  it('writes an xlsx that reads back with the same rows, twice in a row (no hang)', async () => {
    for (let round = 0; round < 2; round++) {
      const file = await buildWorkbook([
        {
          name: 'Clients',
          columns: [
            { header: 'Name', key: 'name' },
            { header: 'Note', key: 'note' },
          ],
          rows: [
            { name: 'Oakwood', note: '=1+1' },
            { name: 'Elm', note: 'plain' },
          ],
        },
      ]);
      const ExcelJS = await loadExcel();
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(file);
      const sheet = wb.getWorksheet('Clients')!;
      expect(sheet.getRow(1).getCell(1).value).toBe('Name');
      expect(sheet.getRow(2).getCell(2).value).toBe(`'=1+1`);
      expect(sheet.getRow(3).getCell(1).value).toBe('Elm');
    }
  });
});
