/**
 * Policy documents in the browser: a school user whose insureds were just issued (Łukasz and 王芳, put in
 * the cart by the development route and checked out by bank transfer) downloads documents for a
 * selection as a ZIP (choosing the types, refused without one, the job's progress page, the download),
 * unzips it and reads the insured's name in the PDF inside; opens an insured's Documents tab and
 * downloads the insurance card, whose Chinese name reads back as written.
 *
 * The insureds list posts its selection to /insureds/documents (BulkActionBar with `action`): the test
 * sends the same form the bar sends (intent, all_matching and the list's filters, the CSRF token), so it
 * does not depend on the list page's markup.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { entryContents, readCentralDirectory } from '../../workers/platform/zip';
import { pdfText } from '../support/pdf-text';
import {
  bulkAction,
  hydrated,
  launchBrowser,
  newPage,
  screenshots,
  signIn,
  visit,
  waitForPath,
} from './support/browser';
import { t } from './support/i18n';
import { UK_URL } from './support/servers';

const BASE = UK_URL;
const SCHOOL = 'school.admin@demo.test';

let browser: Browser;
let school: Page;

function devSecret(): string {
  const vars = readFileSync(join(inject('appDir'), '.dev.vars'), 'utf8');
  return vars.match(/^SESSION_SECRET=(.*)$/m)![1].trim();
}

async function fillCart(email: string, firstNames: string[]) {
  const res = await fetch(`${BASE}/__dev/ordering/open-batch`, {
    method: 'POST',
    headers: { 'x-dev-secret': devSecret(), 'content-type': 'application/json' },
    body: JSON.stringify({ email, applicants: firstNames.length, first_names: firstNames, with_email: true }),
  });
  if (!res.ok) throw new Error(`open-batch answered ${res.status}: ${await res.text()}`);
}

/** What the insureds list's bulk-action bar posts for "all matching" these filters. */
/**
 * Chooses the insureds named in the list's filters and sends them to the bulk action, as a person does:
 * the insureds list, filtered, every row ticked, the action's button in the bulk bar.
 */
async function chooseFromList(page: Page, filters: string, action: string) {
  await visit(page, `/insureds?${filters}`);
  await hydrated(page);
  const boxes = page.getByRole('table', { name: t('insureds.title') }).locator('tbody input[type=checkbox]');
  await boxes.first().waitFor();
  for (const box of await boxes.all()) await box.check();
  await (await bulkAction(page, t(`insureds.bulk.${action}`))).click();
}

/** The bytes of a download started by `click`. */
async function downloaded(
  page: Page,
  click: () => Promise<void>,
): Promise<{ name: string; bytes: Uint8Array }> {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  return { name: download.suggestedFilename(), bytes: new Uint8Array(readFileSync(await download.path())) };
}

beforeAll(async () => {
  browser = await launchBrowser();
  school = await newPage(browser, BASE);
  await signIn(school, SCHOOL);
  await fillCart(SCHOOL, ['Łukasz', '王芳']);
  await visit(school, '/cart/checkout');
  await school.locator('input[name="payment_method"][value="bank_transfer"]').check();
  await school.getByRole('button', { name: t('checkout.confirm') }).click();
  await waitForPath(school, /^\/payment\/bank-transfer\/pay-invoice\/[a-z0-9]+\/start$/);
  await hydrated(school);
});
afterAll(async () => {
  await browser?.close();
});

describe('downloading documents', () => {
  it('makes a ZIP of the chosen documents in a job; the PDF inside names the insured', async () => {
    // The demo holds other insureds named Łukasz and 王芳: the test's own are the Testeras.
    await chooseFromList(school, 'first_name=Łukasz&last_name=Testera', 'documents');
    await waitForPath(school, '/insureds/documents');
    await hydrated(school);
    expect(await school.locator('h1').innerText()).toBe(t('policy_documents.bulk.title'));
    expect(await school.getByTestId('selected-insureds').innerText()).toContain('Łukasz Testera');
    await screenshots(school, 'insured-documents-choose');

    // No type chosen: refused with the spec's words.
    for (const box of await school.getByRole('checkbox').all()) await box.uncheck();
    await school.getByRole('button', { name: t('policy_documents.bulk.start') }).click();
    await school.getByText(t('policy_documents.errors.no_type')).waitFor();

    await school.getByLabel(t('policy_documents.kinds.insurance_card')).check();
    await school.getByLabel(t('policy_documents.kinds.certificate')).check();
    await school.getByRole('button', { name: t('policy_documents.bulk.start') }).click();
    await waitForPath(school, /^\/insureds\/documents\/[a-z0-9]+$/);
    const link = school.getByRole('link', { name: t('policy_documents.bulk.download_zip') });
    await link.waitFor({ timeout: 60_000 });
    expect(await school.getByTestId('zip-summary').innerText()).toContain('2');
    await screenshots(school, 'insured-documents-ready');

    const zip = await downloaded(school, () => link.click());
    expect(zip.name).toMatch(/^insured-documents-\d{4}-\d{2}-\d{2}\.zip$/);
    const entries = readCentralDirectory(zip.bytes, 100);
    if (!Array.isArray(entries)) throw new Error('The download is not a ZIP');
    expect(entries.map((e) => e.name.split('/')[1]).sort()).toEqual([
      expect.stringMatching(/^P\d{8} certificate v1\.pdf$/),
      expect.stringMatching(/^P\d{8} insurance-card v1\.pdf$/),
    ]);
    const card = entries.find((e) => e.name.includes('insurance-card'))!;
    const [text] = await pdfText(await entryContents(zip.bytes, card, 10_000_000));
    expect(text).toContain('Łukasz Testera');
    expect(text).toContain(t('policy_documents.pdf.card_title'));
  });

  it('shows an insured’s documents on the Documents tab and downloads the card with the name as written', async () => {
    await chooseFromList(school, 'first_name=王芳&last_name=Testera', 'documents');
    await waitForPath(school, '/insureds/documents');
    await hydrated(school);
    await school.getByTestId('selected-insureds').getByRole('link').first().click();
    await waitForPath(school, /^\/insureds\/[a-z0-9]+\/insured_details\/documents$/);
    await hydrated(school);
    const current = school.getByTestId('current-documents');
    expect(await current.innerText()).toContain(t('policy_documents.kinds.insurance_card'));
    expect(await current.innerText()).toContain(t('policy_documents.tab.not_made'));
    await screenshots(school, 'insured-documents-tab');

    // The page's header offers the card too; the tab's own link is in its list of current documents.
    const card = await downloaded(school, () =>
      current
        .getByRole('link', {
          name: t('policy_documents.tab.download_named', 'en', {
            name: t('policy_documents.kinds.insurance_card'),
          }),
        })
        .click(),
    );
    expect(card.name).toMatch(/^P\d{8} insurance-card v1\.pdf$/);
    const [text] = await pdfText(card.bytes);
    expect(text).toContain('王芳 Testera');
    // Once made, the tab says when.
    await visit(school, new URL(school.url()).pathname);
    const after = await school.getByTestId('current-documents').innerText();
    expect(after).toContain(t('policy_documents.tab.made_on', 'en', { date: '' }).trim());
  });

  it('sends the welcome email to the insureds chosen in the list and says how many', async () => {
    // Other browser tests order for the same school with the same made-up last names: Łukasz is ours.
    await chooseFromList(school, 'first_name=Łukasz&last_name=Testera', 'welcome_email');
    await waitForPath(school, '/insureds');
    await school.getByText(t('policy_documents.welcome.sent', 'en', { sent: 1 })).waitFor();
  });
});
