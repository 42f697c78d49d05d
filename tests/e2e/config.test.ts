import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  hydrated,
  launchBrowser,
  newPage,
  openPopup,
  screenshots,
  selectCompany,
  signIn,
  visit,
  waitForPath,
  expectAnnounced,
} from './support/browser';
import { exportRows } from './support/export';
import { t } from './support/i18n';
import { UK_URL } from './support/servers';

const SENIOR = 'senior.admin@demo.test';
const COMPANY = 'Wessex Student Cover Ltd';

let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  page = await newPage(browser, UK_URL);
  await signIn(page, SENIOR);
});
afterAll(async () => {
  // Leave the senior admin on its first company, as seeded: the top-bar choice is stored on the user,
  // and the browser tests after this file expect the seeded state.
  if (page) await selectCompany(page);
  await browser?.close();
});

/** Fills the filters bar's fields (by label: a text or a select's value) and applies them. */
async function applyFilters(p: Page, fields: Record<string, string>, lang = 'en'): Promise<void> {
  const filters = p.getByRole('search');
  for (const [label, value] of Object.entries(fields)) {
    const field = filters.getByLabel(label, { exact: true });
    if ((await field.evaluate((el) => el.tagName)) === 'SELECT') await field.selectOption(value);
    else await field.fill(value);
  }
  const before = p.url();
  await filters.getByRole('button', { name: t('table.apply_filters', lang) }).click();
  await p.waitForURL((url) => url.toString() !== before);
  await hydrated(p);
}

describe('companies', () => {
  it('creates a company with bank details and a billing address; a wrong IBAN is refused first, nothing typed is lost', async () => {
    await visit(page, '/manage-company');
    await page.getByRole('link', { name: t('companies.add') }).click();
    await waitForPath(page, '/manage-company/new');
    await hydrated(page);

    await page.getByLabel(t('companies.fields.name'), { exact: true }).fill(COMPANY);
    await page
      .getByLabel(t('companies.fields.country_id'), { exact: true })
      .first()
      .selectOption({ label: 'United Kingdom' });
    await page.getByLabel(t('companies.fields.registration_number'), { exact: true }).fill('01234567');
    await page.getByLabel(t('companies.fields.bank_name'), { exact: true }).fill('Barclays Bank UK PLC');
    await page.getByLabel(t('companies.fields.bic'), { exact: true }).fill('BARCGB22');
    await page.getByLabel(t('companies.fields.iban'), { exact: true }).fill('GB83 WEST 1234 5698 7654 32');
    await page.getByLabel(t('companies.fields.branch_code'), { exact: true }).fill('20-00-00');
    await page.getByLabel(t('companies.fields.account_number'), { exact: true }).fill('55779911');
    await page
      .getByLabel(t('companies.fields.payment_gateway'), { exact: true })
      .selectOption('barclaycard_epdq');

    const owner = page.getByRole('group', { name: t('contacts.types.owner') });
    await owner.getByLabel(t('contacts.fields.first_name'), { exact: true }).fill('Wendy');
    await owner.getByLabel(t('contacts.fields.last_name'), { exact: true }).fill('Wessex');
    await owner.getByLabel(t('contacts.fields.email'), { exact: true }).fill('wendy@wessex.test');

    const billing = page.getByRole('group', { name: t('contacts.address.billing') });
    await billing
      .getByLabel(t('contacts.address.fields.address'), { exact: true })
      .fill('10 Cathedral Close');
    await billing.getByLabel(t('contacts.address.fields.city'), { exact: true }).fill('Winchester');
    await billing.getByLabel(t('contacts.address.fields.postal_code'), { exact: true }).fill('SO23 9LS');
    await billing
      .getByLabel(t('contacts.address.fields.country_id'), { exact: true })
      .selectOption({ label: 'United Kingdom' });

    await page.getByRole('button', { name: t('companies.create') }).click();
    const iban = page.getByLabel(t('companies.fields.iban'), { exact: true });
    await expect.poll(() => iban.getAttribute('aria-invalid')).toBe('true');
    await expect.poll(() => page.getByText(t('companies.errors.iban')).count()).toBeGreaterThan(0);
    await screenshots(page, 'company-new-error');
    // What was typed is still there.
    expect(await page.getByLabel(t('companies.fields.bank_name'), { exact: true }).inputValue()).toBe(
      'Barclays Bank UK PLC',
    );
    expect(await billing.getByLabel(t('contacts.address.fields.city'), { exact: true }).inputValue()).toBe(
      'Winchester',
    );

    await iban.fill('GB82 WEST 1234 5698 7654 32');
    await page.getByRole('button', { name: t('companies.create') }).click();
    await waitForPath(page, /^\/manage-company\/[a-z0-9]+\/edit$/);
    await hydrated(page);
    await expectAnnounced(page, t('companies.created'));
    expect((await page.locator('h1').innerText()).trim()).toContain(COMPANY);
    expect(await page.getByLabel(t('companies.fields.iban'), { exact: true }).inputValue()).toBe(
      'GB82WEST12345698765432',
    );
    expect(
      await page
        .getByRole('group', { name: t('contacts.address.billing') })
        .getByLabel(t('contacts.address.fields.city'), { exact: true })
        .inputValue(),
    ).toBe('Winchester');
    await screenshots(page, 'company-edit');
  });

  it('shows the new company in the list and in the top-bar company switcher', async () => {
    await visit(page, '/manage-company');
    // The list follows the top-bar company; "all companies" shows every company of the user.
    const switcher = page.getByTestId('company-area').getByRole('button');
    const options = page.getByRole('option');
    await openPopup(switcher, options);
    expect(await options.allInnerTexts()).toContain(COMPANY);
    const chosen = page.waitForResponse((r) => r.url().includes('/actions/select-company'));
    await page.getByRole('option', { name: t('shell.all_companies') }).click();
    await chosen;
    await visit(page, '/manage-company');
    const row = page.getByRole('row', { name: new RegExp(COMPANY) });
    await row.waitFor();
    expect(await row.innerText()).toContain(t('companies.gateways.barclaycard_epdq'));
    await screenshots(page, 'company-list');
  });

  it('exports the filtered company list to Excel', async () => {
    // "All companies" is still chosen in the top bar (the test before), so the list has three.
    await visit(page, '/manage-company');
    await applyFilters(page, { [t('companies.search')]: 'Wessex' });
    await expect.poll(() => page.getByRole('row', { name: /Albion Student Insurance/ }).count()).toBe(0);
    await page.getByRole('row', { name: new RegExp(COMPANY) }).waitFor();

    const { href, fileName, rows } = await exportRows(page);
    expect(href).toMatch(/^\/manage-company\/export\.xlsx\?/);
    expect(fileName).toBe('companies.xlsx');
    expect(rows[0]).toEqual([
      ...['name', 'country_id', 'registration_number', 'currency', 'payment_gateway'].map((key) =>
        t(`companies.fields.${key}`),
      ),
      t('companies.summary.users'),
      t('companies.summary.clients'),
      t('companies.fields.status'),
      t('companies.fields.created_at'),
    ]);
    expect(rows).toHaveLength(2);
    expect(rows[1].slice(0, 5)).toEqual([
      COMPANY,
      'United Kingdom',
      '01234567',
      'GBP',
      t('companies.gateways.barclaycard_epdq'),
    ]);
    expect(rows[1][7]).toBe(t('companies.statuses.active'));
  });
});

describe('countries', () => {
  it('adds a tax rate to a country and activates it', async () => {
    await visit(page, '/manage-countries?search=portugal');
    await page.getByRole('link', { name: 'Portugal', exact: true }).click();
    await waitForPath(page, /^\/manage-countries\/\d+$/);
    await hydrated(page);

    // An out-of-range rate is refused with the spec's text.
    await page.getByLabel(t('countries.tax_rate_percent'), { exact: true }).fill('150');
    await page.getByLabel(t('countries.start_date'), { exact: true }).fill('01/01/2026');
    await page.getByRole('button', { name: t('countries.add_tax_rate') }).click();
    await expect
      .poll(() => page.getByText('Tax rate must be a number between 0 and 100').count())
      .toBeGreaterThan(0);

    await page.getByLabel(t('countries.tax_rate_percent'), { exact: true }).fill('23');
    await page.getByRole('button', { name: t('countries.add_tax_rate') }).click();
    await expectAnnounced(page, t('countries.tax_rate_added'));
    const row = page.getByTestId('tax-rate-row').filter({ hasText: '23.00%' });
    await row.waitFor();
    expect(await row.innerText()).toContain(t('countries.rate_statuses.inactive'));

    await row.getByRole('button', { name: t('countries.activate') }).click();
    await expect.poll(() => row.innerText()).toContain(t('countries.rate_statuses.active'));
    await expectAnnounced(page, t('countries.tax_rate_activated'));
    await screenshots(page, 'country-tax-rates');

    await visit(page, '/manage-countries?search=portugal');
    expect(await page.getByRole('row', { name: /Portugal/ }).innerText()).toContain('23.00%');
  });

  it('exports the filtered country list to Excel, in the language of the address', async () => {
    await visit(page, '/de/manage-countries');
    await applyFilters(
      page,
      { [t('countries.search', 'de')]: 'USD', [t('countries.region', 'de')]: 'OC' },
      'de',
    );
    await page.getByRole('link', { name: 'Guam', exact: true }).waitFor();
    const shown = await page.locator('tbody tr td:first-child').allInnerTexts();

    const { href, fileName, rows } = await exportRows(page, 'de');
    expect(href).toMatch(/^\/de\/manage-countries\/export\.xlsx\?/);
    expect(href).toContain('region_code=OC');
    expect(fileName).toBe('countries.xlsx');
    expect(rows[0]).toEqual(
      [
        'name',
        'abbreviation',
        'code',
        'dial_code',
        'capital',
        'region',
        'currency_code',
        'currency_name',
        'tax',
        'age_min',
        'age_max',
        'stamp_duty_applicable',
        'requires_passport_number',
        'status',
      ].map((key) => t(`countries.${key}`, 'de')),
    );
    // The rows the page shows, and only countries of Oceania paying in US dollars.
    const data = rows.slice(1);
    expect(data.map((r) => r[0]).sort()).toEqual(shown.map((n) => n.trim()).sort());
    expect(data.map((r) => r[0])).toContain('Guam');
    expect(data.every((r) => r[5] === 'OC' && r[6] === 'USD')).toBe(true);
  });
});

describe('insurers', () => {
  it('exports the filtered insurer list to Excel', async () => {
    const header = ['name', 'code', 'email', 'phone', 'website', 'company', 'status'].map((key) =>
      t(`insurers.${key}`),
    );
    await visit(page, '/manage-insurers');
    await applyFilters(page, { [t('insurers.search')]: 'Albion' });
    await page.getByRole('row', { name: /Albion Underwriting Partners/ }).waitFor();
    let sheet = await exportRows(page);
    expect(sheet.href).toMatch(/^\/manage-insurers\/export\.xlsx\?/);
    expect(sheet.href).toContain('search=Albion');
    expect(sheet.fileName).toBe('insurers.xlsx');
    expect(sheet.rows[0]).toEqual(header);
    expect(sheet.rows.slice(1).map((r) => [r[0], r[5], r[6]])).toEqual([
      ['Albion Underwriting Partners', 'Albion Student Insurance Ltd', t('insurers.statuses.active')],
    ]);

    // The demo insurer is active: the archived ones are none, and so is the file.
    await applyFilters(page, { [t('insurers.status')]: 'archived' });
    await expect.poll(() => page.getByRole('row', { name: /Albion Underwriting/ }).count()).toBe(0);
    sheet = await exportRows(page);
    expect(sheet.href).toContain('status=archived');
    expect(sheet.rows).toEqual([header]);
  });
});
