/**
 * Ordering by spreadsheet in the browser, as a school user does it: a 200-row .xlsx with its own
 * headers (not the template's), date cells and typed dates, family members, group leaders and a few
 * mistakes; upload from the order page, match the columns (one changed by hand), wait for the staging,
 * fix one row in place, delete a wrong row and one of two duplicates, link a family member to its
 * student, assign a group leader, see the fees and put the order into the cart; then check out, pay by
 * card on the (simulated) card provider's page and see the confirmation of what was bought.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import ExcelJS from 'exceljs';
import {
  hydrated,
  launchBrowser,
  newPage,
  screenshots,
  signIn,
  visit,
  waitForPath,
  expectAnnounced,
} from './support/browser';
import { t } from './support/i18n';
import { startOrder } from './support/ordering';
import { UK_URL } from './support/servers';

const BASE = process.env.IMPORT_E2E_URL ?? UK_URL;
const ROWS = 200;

let browser: Browser;
let page: Page;

const day = (n: number) => new Date(Date.now() + n * 86_400_000);
const uk = (d: Date) =>
  `${String(d.getUTCDate()).padStart(2, '0')}/${String(d.getUTCMonth() + 1).padStart(2, '0')}/${d.getUTCFullYear()}`;
const letters = (n: number): string =>
  n < 26 ? 'abcdefghijklmnopqrstuvwxyz'[n]! : letters(Math.floor(n / 26) - 1) + letters(n % 26);
const cap = (s: string) => s[0]!.toUpperCase() + s.slice(1);

/** Sheet rows 2..201. Row 5 has an impossible birth date, row 9 an unknown country, rows 20 and 21 are the same person. */
const BAD_DATE_ROW = 5;
const BAD_COUNTRY_ROW = 9;
const DUPLICATE_ROWS = [20, 21];
const FAMILY_ROW = 31; // immediate family of the student on row 30 (same surname)

async function sheet(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const ws = workbook.addWorksheet('Intake');
  ws.addRow([
    'Type',
    'Given name',
    'Surname',
    'D.O.B.',
    'Sex',
    'E-mail',
    'Passport No.',
    'Nationality',
    'Arrival date',
    'Departure',
    'Group Leader',
    'Ref',
    'Dietary notes',
  ]);
  const start = day(20);
  const end = day(50);
  for (let i = 0; i < ROWS; i++) {
    const row = i + 2;
    const leader = row === 2 || row === 3;
    const family = row === FAMILY_ROW || (row > 40 && row % 40 === 1);
    const surname = family
      ? `Family${cap(letters(Math.floor((row - 1) / 10)))}`
      : `Family${cap(letters(Math.floor(row / 10)))}`;
    const values: (string | Date)[] = [
      leader ? 'Group Leader' : family ? 'immediate family' : i % 3 ? 'Student' : 'student',
      leader ? (row === 2 ? 'Gail' : 'Gordon') : `Name${cap(letters(i))}`,
      leader ? 'Leader' : surname,
      leader ? '03/04/1980' : i % 2 ? new Date(Date.UTC(2008, 5, 5)) : '05/06/2008',
      i % 2 ? 'M' : 'Female',
      leader ? `${row === 2 ? 'gail' : 'gordon'}@oakwood.test` : `s${row}@oakwood.test`,
      `P${String(1000000 + row)}`,
      i % 4 ? 'France' : 'ES',
      i % 2 ? start : uk(start),
      i % 2 ? end : uk(end),
      leader ? 'Yes' : row < 100 ? 'gail@oakwood.test' : '',
      `R${row}`,
      i % 7 ? '' : 'vegetarian',
    ];
    if (row === BAD_DATE_ROW) values[3] = '31/02/2008';
    if (row === BAD_COUNTRY_ROW) values[7] = 'Atlantis';
    if (row === DUPLICATE_ROWS[1]) {
      values[1] = `Name${cap(letters(DUPLICATE_ROWS[0]! - 2))}`;
      values[2] = `Family${cap(letters(Math.floor(DUPLICATE_ROWS[0]! / 10)))}`;
      values[3] = DUPLICATE_ROWS[0]! % 2 ? '05/06/2008' : new Date(Date.UTC(2008, 5, 5));
      values[4] = DUPLICATE_ROWS[0]! % 2 ? 'Female' : 'M';
    }
    ws.addRow(values);
  }
  ws.getColumn(4).numFmt = 'dd/mm/yyyy';
  ws.getColumn(9).numFmt = 'dd/mm/yyyy';
  ws.getColumn(10).numFmt = 'dd/mm/yyyy';
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

const row = (n: number) => page.locator(`tr[data-row="${n}"]`);

beforeAll(async () => {
  browser = await launchBrowser();
  page = await newPage(browser, BASE);
  await signIn(page, 'school.admin@demo.test');
});
afterAll(async () => {
  await browser?.close();
});

describe('ordering by spreadsheet', () => {
  it('uploads from the order page: a wrong file first, then the sheet', async () => {
    await startOrder(page, 'spreadsheet');
    expect(await page.locator('h1').innerText()).toBe(t('imports.upload.title'));
    await expect(
      page.getByRole('link', { name: t('imports.upload.template_download') }).count(),
    ).resolves.toBe(1);

    // A PDF renamed to .xlsx is refused by its content.
    await page.getByLabel(t('imports.upload.file_label')).setInputFiles({
      name: 'intake.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: Buffer.from('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n'),
    });
    await page.getByRole('button', { name: t('imports.upload.submit') }).click();
    await page.getByText(t('imports.errors.format')).waitFor();
    await screenshots(page, 'import-upload-error');

    await page.getByLabel(t('imports.upload.file_label')).setInputFiles({
      name: 'oakwood-intake.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: await sheet(),
    });
    await page.getByRole('button', { name: t('imports.upload.submit') }).click();
    await waitForPath(page, '/insureds/match-columns');
    await hydrated(page);
  });

  it('matches the columns: the suggestions, one changed by hand, dates read day first', async () => {
    expect(await page.locator('h1').innerText()).toBe(t('imports.match.title'));
    const select = (header: string) => page.getByLabel(`${t('imports.match.field')}: ${header}`);
    expect(await select('Given name').inputValue()).toBe('first_name');
    expect(await select('Surname').inputValue()).toBe('last_name');
    expect(await select('D.O.B.').inputValue()).toBe('date_of_birth');
    expect(await select('Passport No.').inputValue()).toBe('passport_number');
    expect(await select('Nationality').inputValue()).toBe('residence_country_id');
    expect(await select('Arrival date').inputValue()).toBe('start_date');
    expect(await select('Departure').inputValue()).toBe('end_date');
    expect(await select('Group Leader').inputValue()).toBe('group_leader');
    expect(await select('Dietary notes').inputValue()).toBe('');
    // "Ref" is the student's reference at this school.
    await select('Ref').selectOption('student_number');
    await page
      .getByText(t('imports.match.reads_as', 'en', { date: '03 Apr 1980' }))
      .first()
      .waitFor();
    await screenshots(page, 'import-match-columns');
    await page.getByRole('button', { name: t('imports.match.submit') }).click();
    // The progress page, then the review when the staging job is done.
    await waitForPath(page, /\/insureds\/(format-data|review-applicants)$/, 120_000);
    if (new URL(page.url()).pathname.endsWith('format-data'))
      await screenshots(page, 'import-progress', ['desktop']);
    await waitForPath(page, '/insureds/review-applicants', 120_000);
    await hydrated(page);
  });

  it('reviews: errors on their cells, fix one row in place, delete a wrong row and a duplicate', async () => {
    expect(await page.locator('h1').innerText()).toBe(t('imports.review.title'));
    await expect(page.getByTestId('review-summary').innerText()).resolves.toBe(
      t('imports.review.summary', 'en', { total: ROWS, errors: 4 }),
    );
    const dup = t('enrollments.errors.duplicate', 'en', { start: uk(day(20)), end: uk(day(50)) });
    await row(DUPLICATE_ROWS[0]!).locator('xpath=following-sibling::tr[1]').getByText(dup).waitFor();
    await expect(
      row(BAD_COUNTRY_ROW).locator('td[data-field="residence_country_id"]').innerText(),
    ).resolves.toContain('Atlantis');
    await page.getByLabel(t('imports.review.only_errors')).check();
    await page.waitForURL(/errors_only=1/);
    await hydrated(page);
    await expect(page.locator('tbody tr[data-row]').count()).resolves.toBe(4);
    await screenshots(page, 'import-review-errors');

    // Fix the birth date of row 5 in place.
    await page.getByRole('link', { name: t('imports.review.edit_row', 'en', { row: BAD_DATE_ROW }) }).click();
    await page.waitForURL(/edit=/);
    await hydrated(page);
    const dob = row(BAD_DATE_ROW).getByLabel(t('imports.fields.date_of_birth'));
    await dob.fill('28/02/2008');
    await screenshots(page, 'import-review-edit', ['desktop']);
    await row(BAD_DATE_ROW)
      .getByRole('button', { name: t('imports.review.save') })
      .click();
    await page.getByText(t('imports.review.saved', 'en', { row: BAD_DATE_ROW })).waitFor();
    await hydrated(page);
    await expect(row(BAD_DATE_ROW).count()).resolves.toBe(0); // no longer among the errors

    // Delete the row with the unknown country and the second of the duplicates.
    await row(BAD_COUNTRY_ROW).getByRole('checkbox').check();
    await row(DUPLICATE_ROWS[1]!).getByRole('checkbox').check();
    await page.getByRole('button', { name: t('imports.review.delete_selected') }).click();
    await page.getByText(t('imports.review.deleted', 'en', { count: 2 })).waitFor();
    await hydrated(page);
    await page.getByText(t('imports.review.no_errors')).waitFor();
    await expect(page.getByTestId('review-summary').innerText()).resolves.toBe(
      t('imports.review.summary', 'en', { total: ROWS - 2, errors: 0 }),
    );
    await screenshots(page, 'import-review-fixed');
    await page.getByRole('link', { name: t('imports.review.continue') }).click();
    await waitForPath(page, '/insureds/new/link-dependents');
    await hydrated(page);
  });

  it('links each family member to its student', async () => {
    expect(await page.locator('h1').innerText()).toBe(t('imports.link.title'));
    const family = page.locator(`li[data-family-row="${FAMILY_ROW}"]`);
    const select = family.getByRole('combobox');
    // The student with the same surname on the row above is suggested.
    expect(await select.locator('option:checked').innerText()).toContain(
      `(${t('imports.review.row')} ${FAMILY_ROW - 1})`,
    );
    const selects = page.locator('select[name$=".student_id"]');
    for (let i = 0; i < (await selects.count()); i++) {
      if (!(await selects.nth(i).inputValue())) await selects.nth(i).selectOption({ index: 1 });
    }
    await screenshots(page, 'import-link-dependents');
    await page.getByRole('button', { name: t('imports.link.save') }).click();
    await waitForPath(page, '/insureds/new/group-leader');
    await hydrated(page);
  });

  it('assigns a group leader to students without one', async () => {
    const member = page.getByRole('checkbox', { name: new RegExp(`Name${cap(letters(150))} `) });
    await member.check();
    await page
      .getByLabel(t('order.group_leader.leader'), { exact: true })
      .selectOption({ label: 'Gordon Leader' });
    await page.getByRole('button', { name: t('order.group_leader.submit') }).click();
    // The toast after the redirect back to the step (a flash cookie, no marker in the address).
    await expectAnnounced(page, t('order.group_leader.saved'));
    await hydrated(page);
    await screenshots(page, 'import-group-leader', ['desktop']);
    await page.getByRole('link', { name: t('order.group_leader.continue_import') }).click();
    await waitForPath(page, '/insureds/new/import-fees');
    await hydrated(page);
  });

  it('shows the fees and puts the order into the cart', async () => {
    expect(await page.locator('h1').innerText()).toBe(t('imports.fees.title'));
    // 198 applicants at the contract's price plus the UK's insurance premium tax.
    const total = await page.getByTestId('fees-total').innerText();
    expect(total).toMatch(/£[\d,]+\.\d\d/);
    await screenshots(page, 'import-fees');
    await page.getByRole('button', { name: t('imports.fees.add_to_cart') }).click();
    await waitForPath(page, '/insureds/new/import-success');
    await hydrated(page);
    await expect(page.getByTestId('import-success').innerText()).resolves.toBe(
      t('imports.success.text', 'en', { count: ROWS - 2 }),
    );
    await screenshots(page, 'import-success');
  });

  it('checks out, pays by card on the card provider page and sees the confirmation', async () => {
    await visit(page, '/cart/checkout');
    expect(await page.locator('h1').innerText()).toBe(t('checkout.title'));
    await page.locator('input[name="payment_method"][value="credit_card"]').check();
    await page.getByRole('button', { name: t('checkout.confirm') }).click();
    await page.waitForURL(/\/dev\/epdq\/orderstandard_utf8\.asp$/);
    const order = await page.getByTestId('sim-order').innerText();
    await page.getByLabel('Card number').fill('4111 1111 1111 1111');
    await page.getByLabel('Expiry date (MM/YY)').fill('12/30');
    await page.getByLabel('Security code').fill('123');
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    await waitForPath(page, /^\/insureds\/[a-z0-9]+\/confirmation$/);
    await hydrated(page);
    expect(await page.getByTestId('payment-outcome').innerText()).toBe(t('checkout.outcome.succeeded'));
    expect(await page.getByTestId('invoice-number').innerText()).toBe(order);
    await page
      .getByText(t('checkout.confirmation.intro', 'en', { number: order, count: ROWS - 2 }))
      .waitFor();
    const policies = page.getByRole('table', { name: t('checkout.policies.caption') });
    expect(await policies.innerText()).toMatch(/P\d{8}/);
    // 25 policies a page.
    expect(await policies.locator('tbody tr').count()).toBe(25);
    await screenshots(page, 'import-confirmation');
  });
});
