/**
 * The page kit as a person meets it (docs/page-kit.md): a refusal shows on its field, a success after a
 * redirect shows its toast once (not again on reload).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  hydrated,
  launchBrowser,
  newPage,
  selectCompany,
  signIn,
  visit,
  waitForPath,
  plainPageLike,
} from './support/browser';
import { expectPlainPageChecked } from './support/plain';
import { checkedBefore, expectAccessible } from './support/axe';
import { t } from './support/i18n';
import { findRawTexts } from './support/texts';
import { UK_URL } from './support/servers';
import { typed } from './support/dates';

const SENIOR = 'senior.admin@demo.test';
const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
const tag = `KIT${Date.now().toString(36).toUpperCase().slice(-7)}`;

let browser: Browser;
let page: Page;
/** The product the first test creates ("/products/{id}/pricing"). */
let productPath = '';

beforeAll(async () => {
  browser = await launchBrowser();
  page = await newPage(browser, UK_URL);
  await signIn(page, SENIOR);
  await selectCompany(page);
});
afterAll(async () => {
  await browser?.close();
});

/** The toasts on screen with this text (the snackbar's live region). */
function toasts(p: Page, text: string) {
  return p.locator('[aria-live="polite"] [role="status"]').filter({ hasText: text });
}

describe('page kit', () => {
  it('shows a refusal on its field, then the toast of the success after the redirect once', async () => {
    await visit(page, '/products/new');
    await page.getByLabel(t('products.fields.code'), { exact: true }).fill(`${tag}A`);
    await page.getByLabel(t('products.fields.name'), { exact: true }).fill(`Kit cover ${tag}A`);
    await page
      .getByLabel(t('products.fields.territorial_limit'), { exact: true })
      .selectOption('international');
    await page.getByLabel(t('products.fields.effective_start_date'), { exact: true }).fill(typed(day(-1)));
    await page.getByLabel(t('products.fields.effective_end_date'), { exact: true }).fill(typed(day(365)));
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

    await start.fill(typed(day(1)));
    await page.getByRole('button', { name: t('products.create'), exact: true }).click();
    await waitForPath(page, /^\/products\/(?!new$)[0-9a-z]+\/pricing$/);
    await toasts(page, t('products.messages.created')).first().waitFor();
    expect(page.url()).not.toContain('saved=');
    productPath = new URL(page.url()).pathname;

    await page.reload();
    await hydrated(page);
    expect(await toasts(page, t('products.messages.created')).count()).toBe(0);
  });

  it('loads every script of a page with route parameters at once, without a redirect', async () => {
    // Route modules are named after their files ("$id"); a "$" in a script address was answered 307 by
    // the static assets and asked again (scripts/asset-names.mjs).
    const scripts: { url: string; status: number }[] = [];
    const fresh = await newPage(browser, UK_URL, { servedAssets: true });
    await fresh.context().addCookies(await page.context().cookies());
    fresh.on('response', (r) => {
      if (new URL(r.url()).pathname.startsWith('/build/')) scripts.push({ url: r.url(), status: r.status() });
    });
    await visit(fresh, productPath);
    expect(scripts.some((s) => /\/routes\/.*_id/.test(s.url))).toBe(true);
    expect(scripts.filter((s) => s.status !== 200)).toEqual([]);
    await fresh.context().close();
  });

  it('fails a page state with an accessibility finding, each time it shows, and passes it once fixed', async () => {
    // axe runs on every state a test shows (support/axe.ts), once per run for a state that passed: a
    // finding must fail every time, and a state must not pass because a look-alike passed before.
    await visit(page, productPath);
    const addImage = () =>
      page.evaluate(() => {
        const img = document.createElement('img');
        img.id = 'kit-no-alt';
        img.src = '/favicon.svg';
        document.getElementsByTagName('main')[0].appendChild(img);
      });
    await addImage();
    await expect(expectAccessible(page)).rejects.toThrow(/image-alt/);
    await expect(expectAccessible(page)).rejects.toThrow(/image-alt/);
    await page.evaluate(() => document.getElementById('kit-no-alt')!.setAttribute('alt', 'Logo'));
    await expectAccessible(page);
    await page.evaluate(() => document.getElementById('kit-no-alt')!.removeAttribute('alt'));
    await expect(expectAccessible(page)).rejects.toThrow(/image-alt/);
    await page.evaluate(() => document.getElementById('kit-no-alt')!.remove());
  });

  it('checks a page shown without scripts as a copy in a scripted page, and fails on its findings', async () => {
    // axe cannot run in a page without scripts (its timers never fire): support/plain.ts copies the
    // document into a scripted page at the same address and checks it there.
    const plain = await plainPageLike(page);
    await plain.goto(productPath);
    await expectPlainPageChecked(plain);
    await plain.evaluate(() => {
      const img = document.createElement('img');
      img.src = '/favicon.svg';
      document.getElementsByTagName('main')[0].appendChild(img);
    });
    await expect(expectPlainPageChecked(plain)).rejects.toThrow(/image-alt/);
    await plain.context().close();
  });

  it('checks a page state once whatever its data, and each dialog, field error and language as a new state', async () => {
    // What counts as a new state (support/axe.ts): the same list with other rows is not; a dialog, a
    // field marked invalid or another language is.
    await visit(page, '/products');
    expect(await checkedBefore(page)).toBe(true);
    const rows = page.locator('tbody tr');
    expect(await rows.count()).toBeGreaterThan(0);
    await rows.first().evaluate((row) => {
      // Another name, amount and date in every text of the row.
      const texts = document.createTreeWalker(row, NodeFilter.SHOW_TEXT);
      for (let n = texts.nextNode(); n; n = texts.nextNode())
        if (n.textContent!.trim()) n.textContent = 'Kowalski 12 345,67 2031-02-29';
      for (const link of Array.from(row.querySelectorAll('a'))) link.setAttribute('href', '/products/zz9zz9');
      for (let i = 0; i < 30; i++) row.parentElement!.appendChild(row.cloneNode(true));
    });
    expect(await checkedBefore(page), 'other data, more rows').toBe(true);

    const invalid = page.locator('main input:not([type="hidden"]), main select').first();
    await invalid.evaluate((input) => input.setAttribute('aria-invalid', 'true'));
    expect(await checkedBefore(page), 'a field marked invalid').toBe(false);
    await invalid.evaluate((input) => input.removeAttribute('aria-invalid'));
    expect(await checkedBefore(page)).toBe(true);

    await page.evaluate(() => {
      const dialog = document.createElement('div');
      dialog.id = 'kit-dialog';
      dialog.setAttribute('role', 'dialog');
      dialog.setAttribute('aria-modal', 'true');
      document.body.appendChild(dialog);
    });
    expect(await checkedBefore(page), 'a dialog open').toBe(false);
    await page.evaluate(() => document.getElementById('kit-dialog')!.remove());

    await page.evaluate(() => (document.documentElement.lang = 'de'));
    expect(await checkedBefore(page), 'another language').toBe(false);
    await page.reload();
  });
});

describe('the check for untranslated text on every page', () => {
  it('finds a raw key and an unfilled placeholder, and leaves addresses and file names alone', () => {
    const found = findRawTexts(
      [
        'Reports: roles.verbs.read_monthly_policy',
        'Dear {{name}}, see invoices.status.part_paid.',
        'Write to billing@roles.example.com or open https://portal.test/invoices.pdf',
        'invoices.xlsx and roles.csv were downloaded',
      ],
      ['roles', 'invoices'],
    );
    expect(found.sort()).toEqual([
      'invoices.status.part_paid',
      'roles.verbs.read_monthly_policy',
      '{{name}}',
    ]);
  });
});
