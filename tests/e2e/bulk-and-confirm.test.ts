/**
 * Bulk actions and confirmations, with JavaScript off and on. Without scripts the insureds list and its
 * bulk bar are one form: a school ticks two rows, extends them from the bar, gets the quote and confirms
 * it on the confirmation step the server renders; finance records a payment through its confirmation
 * step. With scripts the bar shows only with a selection and says "Cancel policies…" (a bulk action that
 * asks in the browser before it acts: products.test.ts). "Add contract…" on the client list opens the new
 * service agreement of the one client ticked, with and without scripts.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { expectAccessible } from './support/axe';
import {
  SCREENSHOT_DIR,
  launchBrowser,
  newPage,
  screenshots,
  signIn,
  visit,
  waitForPath,
} from './support/browser';
import { issuePolicies } from './support/dev';
import { t } from './support/i18n';
import { UK_URL } from './support/servers';
import { typed } from './support/dates';

const SCHOOL = 'school.admin@demo.test';
const FINANCE = 'finance@demo.test';
const ADMIN = 'admin@demo.test';

let browser: Browser;

const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
/** A first name no other test gives, so the list can be filtered down to this test's insureds. */
const uniqueName = (stem: string) =>
  stem + Array.from({ length: 6 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('');

/** A page of a browser with JavaScript off, signed in; every document it loads is checked (support/plain.ts). */
async function plainPage(email: string): Promise<Page> {
  // Signed in by a scripted browser first: signIn() keeps the session, which the plain browser reuses.
  const scripted = await newPage(browser, UK_URL);
  await signIn(scripted, email);
  await scripted.context().close();
  const page = await newPage(browser, UK_URL, { javaScript: false });
  await signIn(page, email);
  return page;
}

/**
 * Goes to a path in a browser without JavaScript. Each document it loads, the server's confirmation
 * steps among them, is checked with axe as a copy in a scripted page (support/plain.ts).
 */
async function open(page: Page, path: string) {
  await page.goto(path);
}

/** A screenshot of a page without scripts (screenshots() waits for a frame, which never comes there). */
async function look(page: Page, name: string) {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-desktop.png`) });
}

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('without JavaScript', () => {
  it('extends two insureds from the insureds list’s bulk bar, confirming on the server’s step', async () => {
    const name = uniqueName('Plain');
    await issuePolicies({ email: SCHOOL, applicants: 2, first_names: [name, name], days: 20 });
    const page = await plainPage(SCHOOL);
    const list = `/insureds?first_name=${name}`;
    await open(page, list);
    const rows = page.locator('tbody tr');
    expect(await rows.count()).toBe(2);
    const before = await rows.allInnerTexts();

    // The bar is there before anything is ticked: it cannot know the selection.
    const bar = page.getByTestId('bulk-bar');
    expect(await bar.isVisible()).toBe(true);
    expect(await bar.innerText()).toContain(t('bulk.choose_rows'));
    for (const box of await page.locator('tbody input[name="ids"]').all()) await box.check();
    await look(page, 'bulk-bar-without-scripts');
    await bar.getByRole('button', { name: t('insureds.bulk.extend') }).click();

    // The quote page lists the two, asks the new end date and quotes it.
    await waitForPath(page, /^\/insureds\/amendments\/[a-z0-9]+$/);
    expect(await page.getByTestId('selected-insureds').locator('tbody tr').count()).toBe(2);
    await page.getByLabel(t('amendments.fields.new_end_date')).fill(typed(day(14 + 45)));
    await page.getByRole('button', { name: t('amendments.quote.get') }).click();
    await page.getByTestId('quote-totals').waitFor();

    // Confirm: without scripts the server answers its question as a step, and nothing is applied yet.
    await page.getByRole('button', { name: t('amendments.quote.confirm'), exact: true }).click();
    const step = page.getByTestId('confirm-step');
    await step.waitFor();
    expect(await step.innerText()).toContain(
      t('amendments.quote.confirm_prompt', 'en', { count: 2, charge: '', credit: '' }).split('?')[0],
    );
    await look(page, 'confirm-step-amendment');
    await step.getByRole('button', { name: t('amendments.quote.confirm'), exact: true }).click();
    // Applied by a job: the page refreshes itself (a meta refresh) until the result shows.
    await page.getByTestId('amendment-result').waitFor({ timeout: 60_000 });

    await open(page, list);
    const after = await page.locator('tbody tr').allInnerTexts();
    expect(after).toHaveLength(2);
    for (let i = 0; i < 2; i++) expect(after[i], 'the new end date is on the list').not.toBe(before[i]);
    await page.context().close();
  });

  it('opens the new service agreement of the one client ticked with "Add contract…"', async () => {
    const page = await plainPage(ADMIN);
    await open(page, '/clients');
    const bar = page.getByTestId('bulk-bar');
    const addContract = bar.getByRole('button', { name: t('clients.bulk.add_contract') });
    const boxes = page.locator('tbody input[name="ids"]');
    // Two clients: the list says to choose one, and nothing else happens.
    await boxes.nth(0).check();
    await boxes.nth(1).check();
    await addContract.click();
    await page.getByText(t('clients.bulk.add_contract_one')).waitFor();
    await waitForPath(page, '/clients');
    // One client: its new service agreement.
    const client = await boxes.nth(0).getAttribute('value');
    await boxes.nth(0).check();
    await addContract.click();
    await waitForPath(page, `/clients/${client}/service-agreement/create`);
    await page.context().close();
  });

  it('records a payment after its confirmation step', async () => {
    const [issued] = await issuePolicies({ email: SCHOOL, applicants: 1 });
    const page = await plainPage(FINANCE);
    await open(page, `/invoices/${issued.invoice_id}/record-payment`);
    await page.getByLabel(t('payments.fields.amount', 'en', { currency: 'GBP' })).fill('10.00');
    await page.getByRole('button', { name: t('payments.record.payment_submit') }).click();

    const step = page.getByTestId('confirm-step');
    await step.waitFor();
    const question = await step.innerText();
    expect(question).toContain('£10.00');
    expect(question).toMatch(/INV\d{7}/);
    await look(page, 'confirm-step-payment');
    await step.getByRole('button', { name: t('payments.record.payment_submit') }).click();
    await waitForPath(page, `/clients/${issued.client_id}/invoices/${issued.invoice_id}`);
    expect(await page.getByTestId('invoice-payments').innerText()).toContain('£10.00');
    await page.context().close();
  });
});

describe('with JavaScript', () => {
  let page: Page;
  beforeAll(async () => {
    page = await newPage(browser, UK_URL);
    await signIn(page, ADMIN);
  });

  it('shows the bar with a selection only, calm: cancelling reads "Cancel policies…"', async () => {
    await visit(page, '/insureds');
    const bar = page.getByTestId('bulk-bar');
    expect(await bar.isVisible()).toBe(false);
    await page.locator('tbody input[name="ids"]').nth(0).check();
    await page.locator('tbody input[name="ids"]').nth(1).check();
    await bar.waitFor();
    expect(await bar.innerText()).toContain(t('table.selected', 'en', { count: 2 }));
    await bar.locator('summary').click();
    const cancel = bar.getByRole('button', { name: t('insureds.bulk.cancel') });
    expect(await cancel.innerText()).toBe('Cancel policies…');
    await expectAccessible(page);
    await page.setViewportSize({ width: 1366, height: 800 });
    await screenshots(page, 'bulk-bar');
    // "Clear selection" empties it, and the bar goes.
    await bar.locator('summary').click();
    await bar.getByRole('button', { name: t('table.clear_selection') }).click();
    await bar.waitFor({ state: 'hidden' });
    expect(await page.locator('tbody input[name="ids"]:checked').count()).toBe(0);
  });

  it('offers "Add contract…" on the client list while one client is selected, and opens its agreement', async () => {
    await visit(page, '/clients');
    const bar = page.getByTestId('bulk-bar');
    const addContract = bar.getByRole('button', { name: t('clients.bulk.add_contract') });
    const boxes = page.locator('tbody input[name="ids"]');
    await boxes.nth(0).check();
    await boxes.nth(1).check();
    await bar.waitFor();
    expect(await addContract.count()).toBe(0);
    await boxes.nth(1).uncheck();
    const client = await boxes.nth(0).getAttribute('value');
    await addContract.click();
    await waitForPath(page, `/clients/${client}/service-agreement/create`);
  });
});
