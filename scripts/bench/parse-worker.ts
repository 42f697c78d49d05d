// POST an .xlsx: loads it with exceljs and reads every cell of its first sheet, nothing else. Answers
// the row count. Timed from outside (workerd's clock does not move during CPU work).
import { loadExcel } from '../../workers/platform/xlsx';

export default {
  async fetch(request: Request): Promise<Response> {
    const bytes = new Uint8Array(await request.arrayBuffer());
    const ExcelJS = await loadExcel();
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
    let rows = 0;
    let cells = 0;
    workbook.worksheets[0]!.eachRow({ includeEmpty: false }, (row) => {
      rows++;
      cells += (row.values as unknown[]).length;
    });
    return Response.json({ rows, cells });
  },
};
