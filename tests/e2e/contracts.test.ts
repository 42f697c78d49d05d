/**
 * Campuses, service agreements and contracts in the browser, as provider staff work: a new campus for
 * the demo client (a mistake first, then the fix), a service agreement with a product row for it (a sale
 * price below the net price first), save and approve, and the contract on the campus's contracts tab.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  selectCompany,
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

const BASE = process.env.CONTRACTS_E2E_URL ?? UK_URL;
const CAMPUS = `Riverside Campus ${Date.now().toString(36)}`;
const AGREEMENT = `Riverside cover ${Date.now().toString(36)}`;

let browser: Browser;
let page: Page;
let campusPath = '';

beforeAll(async () => {
  browser = await launchBrowser();
  page = await newPage(browser, BASE);
  await signIn(page, 'senior.admin@demo.test');
  // The top-bar company is stored on the user: start from the seeded one, whatever ran before.
  await selectCompany(page);
});
afterAll(async () => {
  await browser?.close();
});

/** The first control with exactly this label (the campus form repeats some labels in its addresses). */
const field = (label: string) => page.getByLabel(label, { exact: true }).first();

describe('campuses, service agreements and contracts', () => {
  it('adds a campus to the demo client, keeping what was typed when a field is wrong', async () => {
    await visit(page, '/clients');
    await page.getByRole('link', { name: 'Oakwood International School' }).first().click();
    await waitForPath(page, /^\/clients\/[a-z0-9]+$/);
    const clientPath = new URL(page.url()).pathname;
    await visit(page, `${clientPath}/add-campus`);
    expect(await page.locator('h1').innerText()).toBe(t('campuses.new_title'));
    await field(t('campuses.fields.name')).fill(CAMPUS);
    await field(t('campuses.fields.initial')).fill('RSC');
    await field(t('campuses.fields.country')).selectOption({ label: 'United Kingdom' });
    await field(t('campuses.fields.website')).fill('not a website');
    await field(t('campuses.fields.payment_terms')).selectOption('monthly');
    await page.getByRole('button', { name: t('campuses.create') }).click();
    await page.getByText(t('validation.url')).first().waitFor();
    expect(await field(t('campuses.fields.name')).inputValue()).toBe(CAMPUS);
    await screenshots(page, 'contracts-add-campus-error');

    await field(t('campuses.fields.website')).fill('https://riverside.oakwood.example');
    await page.getByRole('button', { name: t('campuses.create') }).click();
    await waitForPath(page, /\/clients\/[a-z0-9]+\/campuses\/[a-z0-9]+$/);
    await hydrated(page);
    campusPath = new URL(page.url()).pathname;
    expect(await page.locator('h1').innerText()).toContain(CAMPUS);
    await expectAnnounced(page, t('campuses.saved'));
    expect(await field(t('campuses.fields.payment_terms')).inputValue()).toBe('monthly');
    await screenshots(page, 'contracts-campus');
  });

  it('makes a service agreement with a product row for the campus, and approves it', async () => {
    await page.getByRole('link', { name: t('campuses.add_agreement') }).click();
    await waitForPath(page, /\/service-agreement\/create$/);
    await hydrated(page);
    expect(await page.locator('h1').innerText()).toBe(t('service_agreements.new_title'));
    await field(t('service_agreements.fields.name')).fill(AGREEMENT);
    await field(t('service_agreements.fields.insurer')).selectOption({ index: 1 });
    const row = page.getByTestId('agreement-row').first();
    expect(
      await row.getByLabel(t('service_agreements.rows.campus')).locator('option:checked').innerText(),
    ).toBe(CAMPUS);
    // The demo's own product by name: a product another test of the run adds may sort first, and one that
    // starts tomorrow cannot carry a contract from today.
    await row
      .getByLabel(t('service_agreements.rows.product'))
      .selectOption({ label: 'Student Travel Cover (OAK_STUDENT)' });
    await row.getByLabel(t('service_agreements.rows.net_price')).fill('40');
    await row.getByLabel(t('service_agreements.rows.sale_price')).fill('30');
    await row.getByLabel(t('service_agreements.rows.min_days')).fill('7');

    // A second row can be added and removed again.
    await page.getByRole('button', { name: `+ ${t('service_agreements.rows.add')}` }).click();
    await expect.poll(() => page.getByTestId('agreement-row').count()).toBe(2);
    await page
      .getByTestId('agreement-row')
      .nth(1)
      .getByRole('button', { name: t('service_agreements.rows.remove') })
      .click();
    await expect.poll(() => page.getByTestId('agreement-row').count()).toBe(1);

    await page.getByRole('button', { name: t('service_agreements.save_and_approve') }).click();
    await page.getByText(t('contracts.errors.sale_below_net')).first().waitFor();
    // The form takes the answer in (its fields may be made again): typing waits until it is quiet.
    await hydrated(page);
    expect(await field(t('service_agreements.fields.name')).inputValue()).toBe(AGREEMENT);
    await screenshots(page, 'contracts-agreement-error');

    await row.getByLabel(t('service_agreements.rows.sale_price')).fill('65');
    await page.getByRole('button', { name: t('service_agreements.save_and_approve') }).click();
    await waitForPath(page, /\/service-agreement\/[a-z0-9]+\/edit$/);
    await hydrated(page);
    await expectAnnounced(page, t('contracts.saved'));
    expect(await page.locator('h1').innerText()).toContain(AGREEMENT);
    expect(await page.locator('h1').innerText()).toContain(t('service_agreements.statuses.active'));
    expect(await page.locator('h1').innerText()).toContain(t('service_agreements.valid'));
    await screenshots(page, 'contracts-agreement');
  });

  it("shows the contract on the campus's contracts tab, and its detail", async () => {
    await visit(page, `${campusPath}/contracts`);
    const table = page.locator('table');
    await table.getByText('£40.00').waitFor();
    expect(await table.innerText()).toContain('£65.00');
    expect(await table.innerText()).toContain(AGREEMENT);
    expect(await table.innerText()).toContain(t('contracts.periods.current'));
    await screenshots(page, 'contracts-campus-contracts');
    await table.locator('tbody').getByRole('link').first().click();
    await page.getByTestId('contract-title').waitFor();
    await hydrated(page);
    expect(await page.getByText(t('contracts.fields.min_days')).count()).toBeGreaterThan(0);
    expect(await page.getByRole('button', { name: t('contracts.archive') }).count()).toBe(1);
    await screenshots(page, 'contracts-contract-detail');
  });
});
