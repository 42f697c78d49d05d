/**
 * The page kit as a person meets it (docs/page-kit.md): a refusal shows on its field, a success after a
 * redirect shows its toast once (not again on reload), with and without JavaScript, and a bulk action
 * applies to every row matching the filters ("all matching"), not only the page shown.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  hydrated,
  launchBrowser,
  newPage,
  screenshots,
  selectCompany,
  signIn,
  visit,
  waitForPath,
} from './support/browser';
import { t } from './support/i18n';
import { UK_URL } from './support/servers';

const SENIOR = 'senior.admin@demo.test';
const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
const tag = `KIT${Date.now().toString(36).toUpperCase().slice(-7)}`;

let browser: Browser;
let page: Page;
let noJs: BrowserContext;

beforeAll(async () => {
  browser = await launchBrowser();
  page = await newPage(browser, UK_URL);
  await signIn(page, SENIOR);
  await selectCompany(page);
  // The same session in a browser that runs no JavaScript.
  noJs = await browser.newContext({
    baseURL: UK_URL,
    javaScriptEnabled: false,
    storageState: await page.context().storageState(),
  });
});
afterAll(async () => {
  await noJs?.close();
  await browser?.close();
});

/** The toasts on screen with this text (the snackbar's live region). */
function toasts(p: Page, text: string) {
  return p.locator('[aria-live="polite"] [role="status"]').filter({ hasText: text });
}

async function createProduct(code: string) {
  await visit(page, '/products/new');
  await page.getByLabel(t('products.fields.code'), { exact: true }).fill(code);
  await page.getByLabel(t('products.fields.name'), { exact: true }).fill(`Kit cover ${code}`);
  await page
    .getByLabel(t('products.fields.territorial_limit'), { exact: true })
    .selectOption('international');
  await page.getByLabel(t('products.fields.effective_start_date'), { exact: true }).fill(day(1));
  await page.getByLabel(t('products.fields.effective_end_date'), { exact: true }).fill(day(365));
  await page.getByRole('button', { name: t('products.create'), exact: true }).click();
  await waitForPath(page, /^\/products\/(?!new$)[0-9a-z]+$/);
  await hydrated(page);
}

describe('page kit', () => {
  it('shows a refusal on its field, then the toast of the success after the redirect once', async () => {
    await visit(page, '/products/new');
    await page.getByLabel(t('products.fields.code'), { exact: true }).fill(`${tag}A`);
    await page.getByLabel(t('products.fields.name'), { exact: true }).fill(`Kit cover ${tag}A`);
    await page
      .getByLabel(t('products.fields.territorial_limit'), { exact: true })
      .selectOption('international');
    await page.getByLabel(t('products.fields.effective_start_date'), { exact: true }).fill(day(-1));
    await page.getByLabel(t('products.fields.effective_end_date'), { exact: true }).fill(day(365));
    const answered = page.waitForResponse((r) => r.request().method() === 'POST');
    await page.getByRole('button', { name: t('products.create'), exact: true }).click();
    await answered;
    await hydrated(page);
    // The server's refusal sits under the start date, described by it.
    const start = page.getByLabel(t('products.fields.effective_start_date'), { exact: true });
    expect(await start.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await start.getAttribute('aria-describedby'))!.split(' ')[0];
    expect(await page.locator(`[id="${describedBy}"]`).innerText()).toContain(
      'Start date should not be in the past',
    );

    await start.fill(day(1));
    await page.getByRole('button', { name: t('products.create'), exact: true }).click();
    await waitForPath(page, /^\/products\/(?!new$)[0-9a-z]+$/);
    await toasts(page, t('products.messages.created')).first().waitFor();
    expect(page.url()).not.toContain('saved=');

    await page.reload();
    await hydrated(page);
    expect(await toasts(page, t('products.messages.created')).count()).toBe(0);
  });

  it('does the same without JavaScript: the refusal on its field, the toast once after the redirect', async () => {
    const p = await noJs.newPage();
    p.setDefaultTimeout(30_000);
    await p.goto('/manage-insurers?add=1');
    await p.getByLabel(t('insurers.code'), { exact: true }).fill(`${tag}N`);
    await p.getByRole('button', { name: t('insurers.create'), exact: true }).click();
    await p.waitForLoadState();
    // No name: the server's answer shows under the field, and what was typed stays.
    const nameField = p.getByLabel(t('insurers.name'), { exact: true });
    expect(await nameField.getAttribute('aria-invalid')).toBe('true');
    expect(await p.getByLabel(t('insurers.code'), { exact: true }).inputValue()).toBe(`${tag}N`);

    await nameField.fill(`Kit Insurer ${tag}`);
    await p.getByRole('button', { name: t('insurers.create'), exact: true }).click();
    await p.waitForURL((url) => url.pathname === '/manage-insurers' && !url.searchParams.has('add'));
    expect(await toasts(p, t('insurers.created')).count()).toBe(1);
    await screenshots(p, 'kit-toast-without-javascript', ['desktop']);

    await p.reload();
    expect(await toasts(p, t('insurers.created')).count()).toBe(0);
    await p.close();
  });

  it('archives every product matching the filters with "all matching", then activates them again', async () => {
    await createProduct(`${tag}B`);
    // One row a page: the two products of this run are on two pages.
    await visit(page, `/products?items=1&search=${tag}`);
    await screenshots(page, 'kit-products-one-a-page');
    expect(await page.getByText(t('table.page_of', 'en', { page: 1, pages: 2 })).count()).toBe(1);
    page.on('dialog', (d) => void d.accept());
    for (const [button, done] of [
      [t('products.archive'), t('products.bulk_archived', 'en', { count: 2 })],
      [t('products.activate'), t('products.bulk_activated', 'en', { count: 2 })],
    ] as const) {
      await page.getByLabel(t('table.select_page'), { exact: true }).check();
      await page.getByRole('button', { name: t('table.select_all_matching', 'en', { count: 2 }) }).click();
      const bar = page.getByRole('region', { name: t('table.bulk_actions') });
      await bar.getByText(t('table.selected', 'en', { count: 2 })).waitFor();
      await bar.getByRole('button', { name: button, exact: true }).click();
      await toasts(page, done).first().waitFor();
      await hydrated(page);
    }
    await visit(page, `/products?search=${tag}&status=active`);
    expect(await page.getByText(`Kit cover ${tag}`).count()).toBe(2);
  });
});
