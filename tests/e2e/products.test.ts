/**
 * Products as a person sets them up: a new product with two prices, a document, found in the list,
 * archived and activated again; and a product group of the demo catalogue, reached from the Products
 * page. Texts are found by what the page says (app/locales/en/products.json).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  clickAndConfirm,
  headingText,
  hydrated,
  launchBrowser,
  newPage,
  screenshots,
  selectCompany,
  signIn,
  visit,
  waitForPath,
} from './support/browser';
import { exportRows } from './support/export';
import { t } from './support/i18n';
import { UK_URL } from './support/servers';
import { typed } from './support/dates';

const SENIOR = 'senior.admin@demo.test';
const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
const code = `E2E${Date.now().toString(36).toUpperCase().slice(-8)}`;
const name = `Study Abroad Cover ${code}`;

let browser: Browser;
let page: Page;
let productPath: string;

beforeAll(async () => {
  browser = await launchBrowser();
  page = await newPage(browser, UK_URL);
  await signIn(page, SENIOR);
  // The top-bar company is stored on the user: start from the seeded one, whatever ran before.
  await selectCompany(page);
});
afterAll(async () => {
  await browser?.close();
});

/** Submits a form by its button and waits for the answer to be on the page. */
async function submit(button: string) {
  const answered = page.waitForResponse((r) => r.request().method() === 'POST');
  await page.getByRole('button', { name: button, exact: true }).click();
  await answered;
  await hydrated(page);
}

async function addPrice(min: string, max: string, net: string, sale: string) {
  await page.getByLabel(t('products.prices.min_days'), { exact: true }).fill(min);
  await page.getByLabel(t('products.prices.max_days'), { exact: true }).fill(max);
  await page.getByLabel(`${t('products.prices.net')} (GBP)`, { exact: true }).fill(net);
  await page.getByLabel(`${t('products.prices.sale')} (GBP)`, { exact: true }).fill(sale);
  await submit(t('products.prices.add'));
}

describe('products', () => {
  it('creates a product from the Products page, keeping what was typed when a date is refused', async () => {
    await visit(page, '/products');
    expect(await headingText(page)).toBe(t('products.title'));
    await screenshots(page, 'products-list-empty-or-not');
    await page.getByRole('link', { name: t('products.add'), exact: true }).click();
    await waitForPath(page, '/products/new');
    await hydrated(page);

    await page.getByLabel(t('products.fields.code'), { exact: true }).fill(code);
    await page.getByLabel(t('products.fields.name'), { exact: true }).fill(name);
    await page
      .getByLabel(t('products.fields.territorial_limit'), { exact: true })
      .selectOption('international');
    await page.getByLabel(t('products.fields.scheme'), { exact: true }).fill('Study abroad');
    await page.getByLabel(t('products.fields.effective_start_date'), { exact: true }).fill(typed(day(-1)));
    await page.getByLabel(t('products.fields.effective_end_date'), { exact: true }).fill(typed(day(365)));
    await submit(t('products.create'));
    expect(await page.getByText('Start date should not be in the past').count()).toBe(1);
    expect(await page.getByLabel(t('products.fields.code'), { exact: true }).inputValue()).toBe(code);
    expect(await page.getByLabel(t('products.fields.scheme'), { exact: true }).inputValue()).toBe(
      'Study abroad',
    );
    await screenshots(page, 'products-new-error');

    await page.getByLabel(t('products.fields.effective_start_date'), { exact: true }).fill(typed(day(1)));
    await page.getByRole('button', { name: t('products.create'), exact: true }).click();
    await waitForPath(page, /^\/products\/(?!new\/)[0-9a-z]+\/pricing$/);
    await hydrated(page);
    productPath = new URL(page.url()).pathname.replace(/\/pricing$/, '');
    expect(await headingText(page)).toContain(name);
    expect(
      await page
        .getByRole('link', { name: t('products.tabs.pricing'), exact: true })
        .getAttribute('aria-current'),
    ).toBe('page');
  });

  it('adds two prices on the pricing tab, refusing a sale price below the net price', async () => {
    await addPrice('6', '30', '10', '12.50');
    // The add form starts again empty for the next price.
    await expect.poll(() => page.getByTestId('price-row').count()).toBe(1);
    expect(await page.getByLabel(t('products.prices.min_days'), { exact: true }).inputValue()).toBe('');
    expect(
      await page
        .getByLabel(t('products.prices.region'), { exact: true })
        .locator('option:checked')
        .innerText(),
    ).toBe(t('products.prices.anywhere'));
    // The browser checks the form before sending it: the refused price never leaves the page.
    await page.getByLabel(t('products.prices.min_days'), { exact: true }).fill('31');
    await page.getByLabel(t('products.prices.max_days'), { exact: true }).fill('60');
    await page.getByLabel(`${t('products.prices.net')} (GBP)`, { exact: true }).fill('20');
    await page.getByLabel(`${t('products.prices.sale')} (GBP)`, { exact: true }).fill('19');
    await page.getByRole('button', { name: t('products.prices.add'), exact: true }).click();
    await expect
      .poll(() => page.getByText('Sale price must be the same or more than the net price').count())
      .toBe(1);
    expect(await page.getByTestId('price-row').count()).toBe(1);
    await page.getByLabel(`${t('products.prices.sale')} (GBP)`, { exact: true }).fill('24');
    await submit(t('products.prices.add'));
    const rows = page.getByTestId('price-row');
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.nth(0).innerText()).toContain('£12.50');
    expect(await rows.nth(1).innerText()).toContain('£24.00');
    expect(await rows.nth(0).innerText()).toContain(t('products.periods.default'));
    await screenshots(page, 'products-pricing');
  });

  it('uploads a document and lists it with its download link', async () => {
    await visit(page, `${productPath}/documents`);
    await page.getByLabel(t('products.documents.type'), { exact: true }).selectOption('policy_wording');
    await page.getByLabel(t('products.documents.title'), { exact: true }).fill('Policy wording 2026');
    await page.getByLabel(t('products.documents.file'), { exact: true }).setInputFiles({
      name: 'wording.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('%PDF-1.4\n% e2e policy wording\n%%EOF\n'),
    });
    await submit(t('products.documents.upload'));
    const row = page.getByTestId('document-row');
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.innerText()).toContain('Policy wording 2026');
    expect(
      await page
        .getByLabel(t('products.documents.type'), { exact: true })
        .locator('option:checked')
        .innerText(),
    ).toBe(t('products.choose'));
    const download = page.waitForEvent('download');
    await row.getByRole('link', { name: t('products.documents.download') }).click();
    expect((await download).suggestedFilename()).toBe('wording.pdf');
    await screenshots(page, 'products-documents');
  });

  it('shows the product in the list, archives it there and activates it again from its page', async () => {
    await visit(page, `/products?search=${code}`);
    const row = page.locator('tbody tr', { hasText: code });
    expect(await row.innerText()).toContain(name);
    expect(await row.innerText()).toContain(t('products.statuses.active'));
    await screenshots(page, 'products-list');

    const answered = page.waitForResponse((r) => r.request().method() === 'POST');
    await row.getByRole('button', { name: t('products.archive_named', 'en', { name }) }).click();
    await answered;
    await expect.poll(() => row.innerText()).toContain(t('products.statuses.archived'));

    await row.getByRole('link', { name }).click();
    await waitForPath(page, productPath);
    await hydrated(page);
    await submit(t('products.activate'));
    await expect.poll(() => page.locator('h1').innerText()).toContain(t('products.statuses.active'));

    // In bulk from the list's bar: archiving asks in the browser first, then acts; activating does not ask.
    await visit(page, `/products?search=${code}`);
    await row.locator('input[name="ids"]').check();
    const bar = page.getByTestId('bulk-bar');
    await bar.waitFor();
    const question = await clickAndConfirm(bar.getByRole('button', { name: t('products.bulk_archive') }));
    expect(question).toBe(t('products.bulk_archive_confirm'));
    await expect.poll(() => row.innerText()).toContain(t('products.statuses.archived'));
    await hydrated(page);
    await row.locator('input[name="ids"]').check();
    await bar.getByRole('button', { name: t('products.activate'), exact: true }).click();
    await expect.poll(() => row.innerText()).toContain(t('products.statuses.active'));

    // An address from before tabs were routes still opens its tab.
    await visit(page, `${productPath}?tab=logs`);
    expect(new URL(page.url()).pathname).toBe(`${productPath}/logs`);
    const logs = page.getByTestId('activity-row');
    const actions = await logs.allInnerTexts();
    expect(actions[0]).toContain(t('products.log_actions.activated'));
    expect(actions[1]).toContain(t('products.log_actions.archived'));
    expect(actions.some((a) => a.includes(t('products.log_actions.price_added')))).toBe(true);
    await screenshots(page, 'products-logs');
  });

  it('exports the filtered product list to Excel', async () => {
    await visit(page, '/products');
    const filters = page.getByRole('search');
    await filters.getByLabel(t('products.search'), { exact: true }).fill(code);
    await filters.getByRole('button', { name: t('table.apply_filters') }).click();
    await page.waitForURL((url) => url.searchParams.get('search') === code);
    await hydrated(page);
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    expect(await page.locator('tbody tr').innerText()).toContain(code);

    const { href, fileName, rows } = await exportRows(page);
    expect(href).toMatch(/^\/products\/export\.xlsx\?/);
    expect(href).toContain(`search=${code}`);
    expect(fileName).toBe('products.xlsx');
    expect(rows[0]).toEqual(
      [
        'fields.code',
        'fields.name',
        'fields.company',
        'fields.insurer',
        'fields.type',
        'fields.scheme',
        'fields.territorial_limit',
        'fields.currency',
        'fields.effective_start_date',
        'fields.effective_end_date',
        'list.prices',
        'fields.status',
      ].map((key) => t(`products.${key}`)),
    );
    // Only the product searched for (the demo seed has others), with its two prices.
    expect(rows.slice(1).map((r) => [r[0], r[1], r[10], r[11]])).toEqual([
      [code, name, '2', t('products.statuses.active')],
    ]);
  });

  it("opens a demo product group from the Products page's groups tab, with its products and history", async () => {
    // A query of its own, so the list's remembered filters (the search above) are not restored.
    await visit(page, '/products?page=1');
    await page.getByRole('link', { name: t('products.tabs_list.groups'), exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('view') === 'groups');
    await hydrated(page);
    const row = page.locator('tbody tr', { hasText: 'Student travel' });
    expect(await row.innerText()).toContain('International students');
    expect(await page.locator('tbody tr', { hasText: 'Work placements' }).count()).toBe(1);
    await screenshots(page, 'product-groups-list');

    await row.getByRole('link', { name: 'Student travel', exact: true }).click();
    await waitForPath(page, /^\/product-groups\/[0-9a-z]+$/);
    await hydrated(page);
    expect(await headingText(page)).toBe('Student travel');
    // Each of the group's products links to its page, named by code and name.
    const main = page.locator('main');
    for (const product of ['Student Travel Cover', 'Student Cover (weekly)', 'University Year Abroad Cover'])
      expect(
        await main
          .getByRole('link', { name: new RegExp(`^[A-Z_]+ ${product.replace(/[()]/g, '\\$&')}$`) })
          .count(),
      ).toBe(1);
    expect(await page.getByTestId('activity-row').first().innerText()).toContain(
      t('activity.actions.created'),
    );
    await screenshots(page, 'product-group');
  });
});
