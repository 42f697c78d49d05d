/**
 * My Documents in the browser: a school user opens it from the avatar menu, finds an insured's card by
 * narrowing the list to cards and certificates, downloads it, then finds an invoice and downloads its PDF;
 * the language filter narrows product documents. Staff open the partner applicants from the side menu,
 * filter them by status and export them to Excel. The pages are looked at on a desktop and a phone.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  accountMenuEntry,
  hydrated,
  launchBrowser,
  newPage,
  openAccountMenu,
  screenshots,
  signIn,
  visit,
  waitForPath,
} from './support/browser';
import { t } from './support/i18n';
import { UK_URL } from './support/servers';

const SCHOOL = 'school.admin@demo.test';
const SENIOR = 'senior.admin@demo.test';

let browser: Browser;
let school: Page;
let senior: Page;

/** The name and first bytes of a download started by `click`. */
async function downloaded(page: Page, click: () => Promise<void>) {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  const bytes = readFileSync(await download.path());
  return { name: download.suggestedFilename(), head: bytes.subarray(0, 5).toString('latin1') };
}

/** Chooses a filter of the list and applies it, as a person does. */
async function filterBy(page: Page, name: string, label: string, option: string) {
  await page.getByLabel(label, { exact: true }).selectOption({ label: option });
  await page.getByRole('button', { name: t('table.apply_filters') }).click();
  await page.waitForURL((url) => url.searchParams.has(name));
  // The list has been loaded again when its first row is of the kind chosen.
  const first = page
    .getByRole('table', { name: t('my_documents.title') })
    .locator('tbody tr')
    .first();
  await first.locator('td').nth(1).getByText(option, { exact: true }).waitFor();
}

beforeAll(async () => {
  browser = await launchBrowser();
  school = await newPage(browser, UK_URL);
  await signIn(school, SCHOOL);
  senior = await newPage(browser, UK_URL);
  await signIn(senior, SENIOR);
});
afterAll(async () => {
  await browser?.close();
});

describe('My Documents', () => {
  it('is reached from the avatar menu and lists the school’s files newest first', async () => {
    await visit(school, '/home');
    await hydrated(school);
    await openAccountMenu(school);
    await accountMenuEntry(school, t('shell.my_documents')).click();
    await school.locator('h1', { hasText: t('my_documents.title') }).waitFor();
    const table = school.getByRole('table', { name: t('my_documents.title') });
    expect(await table.locator('tbody tr').count()).toBeGreaterThan(0);
    await screenshots(school, 'my-documents');
  });

  it('finds an insured’s card and downloads it', async () => {
    await visit(school, '/documents');
    await hydrated(school);
    await filterBy(school, 'kind', t('my_documents.kind'), t('my_documents.kinds.insured'));
    await waitForPath(school, '/documents');
    expect(new URL(school.url()).searchParams.get('kind')).toBe('insured');
    const row = school
      .getByRole('table', { name: t('my_documents.title') })
      .locator('tbody tr')
      .first();
    const number = (await row.innerText()).match(/P\d{8}/)?.[0];
    expect(number, 'the row names the policy number').toBeTruthy();
    const card = await downloaded(school, () =>
      row.getByRole('link', { name: new RegExp(t('my_documents.files.insurance_card')) }).click(),
    );
    expect(card.name).toBe(`${number} insurance-card v1.pdf`);
    expect(card.head).toBe('%PDF-');

    // The same insured is found by its policy number.
    await visit(school, `/documents?search=${number}`);
    const found = school.getByRole('table', { name: t('my_documents.title') }).locator('tbody tr');
    expect(await found.count()).toBe(1);
    await screenshots(school, 'my-documents-insured', ['phone']);
  });

  it('finds an invoice and downloads its PDF', async () => {
    // An address with its filters (the bar would otherwise bring back the search of the last visit).
    await visit(school, '/documents?kind=invoice');
    const row = school
      .getByRole('table', { name: t('my_documents.title') })
      .locator('tbody tr')
      .first();
    const number = (await row.locator('td').first().innerText()).split('\n')[0].trim();
    const pdf = await downloaded(school, () =>
      row.getByRole('link', { name: new RegExp(t('my_documents.files.pdf')) }).click(),
    );
    expect(pdf.name).toContain(number);
    expect(pdf.head).toBe('%PDF-');
  });

  it('narrows product documents by language, and says so when nothing matches', async () => {
    await visit(school, '/documents?language=pt&search=no-such-document');
    expect(await school.getByText(t('my_documents.empty')).isVisible()).toBe(true);
  });
});

describe('Partner applicants', () => {
  it('opens from the side menu, filters by status and exports what it shows', async () => {
    await visit(senior, '/home');
    await hydrated(senior);
    const menu = senior.getByTestId('side-menu');
    await menu.locator('[data-menu-group="configurations"]').click();
    await menu.getByRole('link', { name: t('nav.partner_applicants') }).click();
    await senior.locator('h1', { hasText: t('partner_applicants.title') }).waitFor();
    const table = senior.getByRole('table', { name: t('partner_applicants.title') });
    expect(await table.locator('tbody tr').count()).toBeGreaterThanOrEqual(6);
    await screenshots(senior, 'partner-applicants');

    await senior
      .getByLabel(t('partner_applicants.filters.status'), { exact: true })
      .selectOption({ label: t('partner_applicants.statuses.enrolled') });
    await senior.getByRole('button', { name: t('table.apply_filters') }).click();
    await senior.waitForURL((url) => url.searchParams.get('status') === 'enrolled');
    await table.locator('tbody tr', { hasText: 'ASI-24009' }).waitFor();
    expect(await table.locator('tbody tr').count()).toBe(1);

    const [download] = await Promise.all([
      senior.waitForEvent('download'),
      senior.getByRole('link', { name: t('table.export') }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('partner-applicants.xlsx');
    expect(
      readFileSync(await download.path())
        .subarray(0, 2)
        .toString('latin1'),
    ).toBe('PK');
    expect(new URL(download.url()).searchParams.get('status')).toBe('enrolled');
  });
});
