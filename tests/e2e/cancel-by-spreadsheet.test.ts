/**
 * Cancelling insureds by spreadsheet in the browser, as a school user does it: three policies are bought
 * (the cart is filled by the development route, checked out by bank transfer on the real pages); a sheet
 * with their policy ids, an unknown id and a repeated one is uploaded at /insureds/cancel; its columns
 * are matched (ignoring the policy id column is refused with the spec's rule); the rows are matched to
 * policies; the review shows the errors (only errors, too), an errored row is deleted by hand and the
 * rest at once; the user proceeds with a reason, sees the counts and the credit, confirms, and downloads
 * the summary. Then the same policy ids are confirmed at /insureds/confirm-enrolment as cancelled.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
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
import { UK_URL } from './support/servers';

const BASE = UK_URL;
const SCHOOL = 'school.admin@demo.test';

let browser: Browser;
let page: Page;
let numbers: string[] = [];

function devSecret(): string {
  const vars = readFileSync(join(inject('appDir'), '.dev.vars'), 'utf8');
  return vars.match(/^SESSION_SECRET=(.*)$/m)![1].trim();
}

async function fillCart(email: string, applicants: number, firstNames: string[]) {
  const res = await fetch(`${BASE}/__dev/ordering/open-batch`, {
    method: 'POST',
    headers: { 'x-dev-secret': devSecret(), 'content-type': 'application/json' },
    body: JSON.stringify({ email, applicants, first_names: firstNames }),
  });
  if (!res.ok) throw new Error(`open-batch answered ${res.status}: ${await res.text()}`);
}

async function sheet(rows: string[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const ws = workbook.addWorksheet('To cancel');
  ws.addRow(['Cancellations, spring term']);
  ws.addRow(['Policy number', 'Comment']);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

beforeAll(async () => {
  browser = await launchBrowser();
  page = await newPage(browser, BASE);
  await signIn(page, SCHOOL);
  // Three policies bought by bank transfer: issued at once, not started yet.
  await fillCart(SCHOOL, 3, ['Clara', 'Dmitri', 'Elif']);
  await visit(page, '/cart/checkout');
  await page.locator('input[name="payment_method"][value="bank_transfer"]').check();
  await page.getByRole('button', { name: t('checkout.confirm') }).click();
  await waitForPath(page, /^\/payment\/bank-transfer\/pay-invoice\/[a-z0-9]+\/start$/);
  const invoice = new URL(page.url()).pathname.split('/')[4]!;
  await visit(page, `/insureds/${invoice}/confirmation`);
  const text = await page.getByRole('table', { name: t('checkout.policies.caption') }).innerText();
  numbers = [...new Set(text.match(/P\d{8}/g) ?? [])];
});
afterAll(async () => {
  await browser?.close();
});

describe('cancel by spreadsheet', () => {
  it('bought three policies to cancel', () => {
    expect(numbers).toHaveLength(3);
  });

  it('uploads the sheet and matches its columns; the policy id column cannot be ignored', async () => {
    // From the insureds list's header.
    await visit(page, '/insureds');
    await hydrated(page);
    await page.getByRole('link', { name: t('insureds.cancel_by_spreadsheet'), exact: true }).click();
    await waitForPath(page, '/insureds/cancel');
    await hydrated(page);
    expect(await page.locator('h1').innerText()).toBe(t('cancellations.upload.title'));
    const [template] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: t('cancellations.upload.template_download') }).click(),
    ]);
    const tpl = new ExcelJS.Workbook();
    await tpl.xlsx.readFile(await template.path());
    expect(tpl.worksheets[0]!.getRow(1).values).toEqual([
      undefined,
      t('cancellations.template.columns.policy_id'),
      t('cancellations.template.columns.last_name'),
    ]);
    await screenshots(page, 'cancel-upload');

    const [a, b, c] = numbers as [string, string, string];
    await page.getByLabel(t('cancellations.upload.file_label')).setInputFiles({
      name: 'spring-cancellations.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: await sheet([
        [a, 'did not travel'],
        [b.toLowerCase(), ''],
        ['P99999999', 'typo'],
        [c, ''],
        [a, 'again'],
      ]),
    });
    await page.getByRole('button', { name: t('cancellations.upload.submit') }).click();
    await waitForPath(page, '/insureds/cancel/match-columns');
    await hydrated(page);
    const policyColumn = page.getByLabel(`${t('cancellations.match.field')}: Policy number`);
    expect(await policyColumn.inputValue()).toBe('policy_id');
    expect(await page.getByLabel(`${t('cancellations.match.field')}: Comment`).inputValue()).toBe('');
    await screenshots(page, 'cancel-match-columns');

    await policyColumn.selectOption('');
    await page.getByRole('button', { name: t('cancellations.match.submit') }).click();
    await page.getByText(t('cancellations.errors.policy_column_required')).waitFor();
    await page.getByLabel(`${t('cancellations.match.field')}: Policy number`).selectOption('policy_id');
    await page.getByRole('button', { name: t('cancellations.match.submit') }).click();
    await waitForPath(page, /^\/insureds\/cancel\/(format-data|review-applicants)$/);
    await waitForPath(page, '/insureds/cancel/review-applicants', 120_000);
    await hydrated(page);
  });

  it('reviews the rows, shows only the errors, deletes the errored rows', async () => {
    expect(await page.getByTestId('review-summary').innerText()).toBe(
      t('cancellations.review.summary', 'en', { total: 5, errors: 2 }),
    );
    const table = page.getByRole('table', { name: t('cancellations.review.title') });
    const text = await table.innerText();
    expect(text).toContain(t('cancellations.errors.unknown_policy'));
    expect(text).toContain(t('cancellations.errors.duplicate', 'en', { row: 3 }));
    expect(text).toContain('Clara');
    await screenshots(page, 'cancel-review');

    await page.getByLabel(t('cancellations.review.only_errors')).check();
    await page.waitForURL(/errors_only=1/);
    await expect(page.getByTestId('row-errors').count()).resolves.toBe(2);
    await screenshots(page, 'cancel-review-errors');

    // The unknown policy (sheet row 5) by hand, then every errored row left.
    await page.getByLabel(t('cancellations.review.select_row', 'en', { row: 5 })).check();
    await page.getByRole('button', { name: t('cancellations.review.delete_selected') }).click();
    await page.getByText(t('cancellations.review.summary', 'en', { total: 4, errors: 1 })).waitFor();
    await page
      .getByRole('button', { name: t('cancellations.review.delete_errored', 'en', { count: 1 }) })
      .click();
    await page.getByText(t('cancellations.review.summary', 'en', { total: 3, errors: 0 })).waitFor();
  });

  it('proceeds with a reason, sees the counts and the credit, confirms and downloads the summary', async () => {
    await page.getByLabel(t('cancellations.review.reason')).fill('Did not travel');
    await page.getByRole('button', { name: t('cancellations.review.proceed', 'en', { count: 3 }) }).click();
    await waitForPath(page, '/insureds/cancel/confirm-cancellation');
    await hydrated(page);
    expect(await page.getByTestId('count-named').innerText()).toBe('3');
    expect(await page.getByTestId('count-dependants').innerText()).toBe('0');
    expect(await page.getByTestId('credit-total').innerText()).toMatch(/^£\d/);
    await screenshots(page, 'cancel-confirm-quote');

    await page.getByRole('button', { name: t('cancellations.confirm.submit', 'en', { count: 3 }) }).click();
    await page.getByTestId('cancel-done').waitFor();
    expect(await page.getByTestId('cancel-done').innerText()).toBe(
      t('cancellations.confirm.done', 'en', { count: 3, named: 3, dependants: 0 }),
    );
    expect(await page.getByTestId('credit-notes').innerText()).toMatch(/CN/);
    await screenshots(page, 'cancel-confirmed');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: t('cancellations.confirm.download') }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('spring-cancellations-summary.xlsx');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(await download.path());
    const ws = workbook.worksheets[0]!;
    const listed = [2, 3, 4].map((r) => String(ws.getRow(r).getCell(1).value));
    expect(listed.sort()).toEqual([...numbers].sort());
    expect(ws.getRow(2).getCell(10).value).toBe(t('cancellations.summary.status.confirmed'));
  });

  it('confirms the enrolment of the same policy ids: cancelled now', async () => {
    // Reached from the insureds list's header, as a person finds it.
    await visit(page, '/insureds');
    await hydrated(page);
    await page.getByRole('link', { name: t('reminders.enrolment.title'), exact: true }).click();
    await waitForPath(page, '/insureds/confirm-enrolment');
    await hydrated(page);
    await page.getByLabel(t('reminders.enrolment.label')).fill(`${numbers[0]}\nP99999999`);
    await page.getByRole('button', { name: t('reminders.enrolment.submit') }).click();
    await page.getByTestId('enrolment-summary').waitFor();
    const states = await page.getByTestId('enrolment-state').allInnerTexts();
    expect(states).toEqual([
      t('reminders.enrolment.states.cancelled'),
      t('reminders.enrolment.states.not_found'),
    ]);
    await screenshots(page, 'confirm-enrolment');
  });
});

describe('the expiry reminders setting', () => {
  it("is a checkbox on the client's profile tab that an administrator turns off and on", async () => {
    const admin = await newPage(browser, BASE);
    await signIn(admin, 'admin@demo.test');
    await visit(admin, '/clients?tab=active&search=Oakwood');
    await admin.getByRole('link', { name: 'Oakwood International School' }).click();
    await waitForPath(admin, /^\/clients\/[a-z0-9]+$/);
    await hydrated(admin);
    const box = admin.getByLabel(t('reminders.setting.label'));
    expect(await box.isChecked()).toBe(true);
    await box.uncheck();
    await admin
      .getByRole('button', { name: t('common.save') })
      .first()
      .click();
    await expectAnnounced(admin, t('clients.saved'));
    await admin.reload();
    await hydrated(admin);
    expect(await admin.getByLabel(t('reminders.setting.label')).isChecked()).toBe(false);
    await screenshots(admin, 'client-expiry-reminders-setting', ['desktop']);
    await admin.getByLabel(t('reminders.setting.label')).check();
    await admin
      .getByRole('button', { name: t('common.save') })
      .first()
      .click();
    await expectAnnounced(admin, t('clients.saved'));
    await admin.reload();
    await hydrated(admin);
    expect(await admin.getByLabel(t('reminders.setting.label')).isChecked()).toBe(true);
    await admin.close();
  });
});
