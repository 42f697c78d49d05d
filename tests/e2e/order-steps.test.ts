/**
 * The fourteen step pages of ordering, importing and cancelling, opened cold (a bookmark, a reload after
 * the import went on, the back button: the address without its import or batch), as a school user: each
 * leads on to where the person can go on, the import or order or sheet they have under way (or the
 * cart, for an import's result page), with a message saying why, in their language, also without
 * JavaScript. What the rule decides in every state is tested in tests/domain/order-steps.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  hydrated,
  launchBrowser,
  newPage,
  screenshots,
  signIn,
  visit,
  waitForPath,
  plainPageLike,
} from './support/browser';
import { t } from './support/i18n';
import { startOrder } from './support/ordering';
import { UK_URL } from './support/servers';

const SCHOOL = 'school.admin@demo.test';

let browser: Browser;
let page: Page;
/** The spreadsheet import and the cancellation sheet this file starts (the newest under way). */
let importId = '';
let sheetId = '';

const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
const uk = (iso: string) => iso.split('-').reverse().join('/');

/** The toast on screen with this text (the snackbar's live region). */
function toast(p: Page, text: string) {
  return p.locator('[aria-live="polite"] [role="status"]').filter({ hasText: text });
}

/**
 * Opens `path` cold, waits for the page it leads to and for the message there. The message is read from
 * the page as served (it shows for a few seconds once the page runs); then the page is left to hydrate.
 */
async function openCold(p: Page, path: string, to: string, message: string): Promise<URL> {
  await p.goto(path, { waitUntil: 'domcontentloaded' });
  await waitForPath(p, to);
  await toast(p, message).first().waitFor();
  await hydrated(p);
  return new URL(p.url());
}

beforeAll(async () => {
  browser = await launchBrowser();
  page = await newPage(browser, UK_URL);
  await signIn(page, SCHOOL);
});
afterAll(async () => {
  await browser?.close();
});

describe('step pages opened without their import, order or sheet', () => {
  it('lead the spreadsheet order’s steps to the import under way, and its result page to the cart', async () => {
    await startOrder(page, 'spreadsheet');
    const csv = [
      'First Name,Last Name,Date of Birth,Country of Residence,Start Date,End Date',
      `Ana,Steps,05/06/2008,France,${uk(day(20))},${uk(day(50))}`,
    ].join('\n');
    await page.getByLabel(t('imports.upload.file_label')).setInputFiles({
      name: 'steps.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csv),
    });
    await page.getByRole('button', { name: t('imports.upload.submit') }).click();
    await waitForPath(page, '/insureds/match-columns');
    importId = new URL(page.url()).searchParams.get('import')!;
    expect(importId).toBeTruthy();

    for (const step of [
      '/insureds/match-columns',
      '/insureds/format-data',
      '/insureds/review-applicants',
      '/insureds/new/link-dependents',
      '/insureds/new/import-fees',
    ]) {
      const url = await openCold(page, step, '/insureds/match-columns', t('imports.leads.resumed'));
      expect(url.searchParams.get('import'), step).toBe(importId);
    }
    await screenshots(page, 'step-led-to-import');

    await openCold(page, '/insureds/new/import-success', '/cart', t('imports.leads.to_cart'));
  });

  it('lead the one-by-one order’s steps to the order left open', async () => {
    await startOrder(page, 'one_by_one');

    for (const step of [
      '/insureds/new/add',
      '/insureds/new/fees',
      '/insureds/new/group-leader',
      '/insureds/new/review',
    ]) {
      const url = await openCold(page, step, '/insureds/new/add', t('order.leads.resumed'));
      expect(url.searchParams.get('batch'), step).toBeTruthy();
    }
  });

  it('lead the cancellation steps to the sheet under way', async () => {
    await visit(page, '/insureds/cancel');
    await hydrated(page);
    await page.getByLabel(t('cancellations.upload.file_label')).setInputFiles({
      name: 'cancel-steps.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('Policy ID\nP00000001\n'),
    });
    await page.getByRole('button', { name: t('cancellations.upload.submit') }).click();
    await waitForPath(page, '/insureds/cancel/match-columns');
    sheetId = new URL(page.url()).searchParams.get('import')!;
    expect(sheetId).toBeTruthy();

    for (const step of [
      '/insureds/cancel/match-columns',
      '/insureds/cancel/format-data',
      '/insureds/cancel/review-applicants',
      '/insureds/cancel/confirm-cancellation',
    ]) {
      const url = await openCold(
        page,
        step,
        '/insureds/cancel/match-columns',
        t('cancellations.leads.resumed'),
      );
      expect(url.searchParams.get('import'), step).toBe(sheetId);
    }
    await screenshots(page, 'step-led-to-sheet');
  });

  it('says why without JavaScript too, and in the person’s language', async () => {
    const plain = await plainPageLike(page);
    await plain.goto('/de/insureds/review-applicants');
    expect(new URL(plain.url()).pathname).toBe('/de/insureds/match-columns');
    expect(new URL(plain.url()).searchParams.get('import')).toBe(importId);
    expect(await toast(plain, t('imports.leads.resumed', 'de')).count()).toBe(1);
    // Shown once: not again on reload.
    await plain.reload();
    expect(await toast(plain, t('imports.leads.resumed', 'de')).count()).toBe(0);
    await plain.context().close();
  });
});
