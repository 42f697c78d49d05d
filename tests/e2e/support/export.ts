/**
 * A list's Excel export as a person gets it: the Export link of the filters bar is clicked, the browser
 * downloads the file, and its first sheet is read with exceljs.
 */
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { t } from './i18n';

export interface ExportedSheet {
  /** The link's address, as the page built it. */
  href: string;
  /** The name the browser saves the file under. */
  fileName: string;
  /** Row 1 is the header row; each cell as the spreadsheet shows it. */
  rows: string[][];
}

/** Clicks the filters bar's Export link, waits for the download and returns the sheet's rows. */
export async function exportRows(page: Page, lang = 'en'): Promise<ExportedSheet> {
  const link = page.getByRole('search').getByRole('link', { name: t('table.export', lang), exact: true });
  const href = (await link.getAttribute('href')) ?? '';
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  const failure = await download.failure();
  if (failure) throw new Error(`The export ${href} did not download: ${failure}`);

  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(await download.path());
  const sheet = workbook.worksheets[0];
  const rows: string[][] = [];
  sheet.eachRow((row) => {
    const cells: string[] = [];
    for (let c = 1; c <= sheet.columnCount; c++) cells.push(row.getCell(c).text);
    rows.push(cells);
  });
  return { href, fileName: download.suggestedFilename(), rows };
}
