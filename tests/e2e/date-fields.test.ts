/**
 * Date fields as a person meets them (docs/decisions/platform.md, "One date format"): a field shows and
 * takes DD/MM/YYYY whatever the browser's language, a calendar beside it picks a day with the keyboard,
 * a saved day shows back as DD/MM/YYYY, and without scripts a day that does not exist is refused with
 * the spec's message, the field keeping what was typed. Tried on a school's API key expiry.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage, SCREENSHOT_DIR, signIn, visit } from './support/browser';
import { expectAccessible } from './support/axe';
import { typed } from './support/dates';
import { t } from './support/i18n';
import { UK_URL } from './support/servers';

const SCHOOL = 'school.admin@demo.test';
const tag = Date.now().toString(36).toUpperCase().slice(-6);

let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  page = await newPage(browser, UK_URL);
  await signIn(page, SCHOOL);
});
afterAll(async () => {
  await browser?.close();
});

/** The 10th of the month `months` from now, YYYY-MM-DD. */
function tenthIn(months: number): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + months, 10)).toISOString().slice(0, 10);
}

/** The day the calendar's focus is on, once it has moved there. */
async function focusedDay(p: Page, day: string) {
  await p.waitForFunction((d) => document.activeElement?.getAttribute('data-day') === d, day);
}

const expiry = (p: Page) => p.getByLabel(t('api_keys.fields.expires_on'), { exact: true });

async function fillKey(p: Page, name: string) {
  await p.getByLabel(t('api_keys.fields.name'), { exact: true }).fill(name);
  await p.locator('input[name="permissions"][value="read_campus"]').check();
}

describe('date fields', () => {
  it('take DD/MM/YYYY, pick a day from the calendar with the keyboard, and show the saved day so', async () => {
    await visit(page, '/api-keys');
    const field = expiry(page);
    expect(await field.getAttribute('type')).toBe('text');
    expect(await field.getAttribute('inputmode')).toBe('numeric');
    // The hint describes the field.
    const hintId = (await field.getAttribute('aria-describedby'))!.split(' ').pop();
    expect(await page.locator(`[id="${hintId}"]`).innerText()).toBe(t('common.date.hint'));

    await fillKey(page, `Dates ${tag}`);
    const start = tenthIn(2);
    await field.fill(typed(start));

    // The calendar opens on the typed day, Monday first, with focus on that day.
    const open = page.getByRole('button', { name: t('common.date.choose') });
    await open.click();
    const calendar = page.getByRole('dialog');
    await calendar.waitFor();
    const grid = calendar.getByRole('grid');
    expect((await grid.getByRole('columnheader').first().getAttribute('abbr'))?.toLowerCase()).toBe('monday');
    await focusedDay(page, start);
    await expectAccessible(page);
    await screenshotsAt(page, 'date-field-calendar');

    // A day on, a week on, a month on: the 18th of the next month; Enter picks it.
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('PageDown');
    const picked = `${tenthIn(3).slice(0, 8)}18`;
    await focusedDay(page, picked);
    expect(await calendar.locator('p[aria-live]').innerText()).toBe(
      new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
        new Date(`${picked}T12:00:00Z`),
      ),
    );
    await page.keyboard.press('Enter');
    await calendar.waitFor({ state: 'detached' });
    expect(await field.inputValue()).toBe(typed(picked));
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('expires_on');

    // Escape closes without picking.
    await open.click();
    await focusedDay(page, picked);
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Escape');
    await calendar.waitFor({ state: 'detached' });
    expect(await field.inputValue()).toBe(typed(picked));

    await page.getByRole('button', { name: t('api_keys.generate') }).click();
    await page.getByTestId('new-api-key').waitFor();
    const row = page.getByRole('row').filter({ hasText: `Dates ${tag}` });
    expect(await row.innerText()).toContain(typed(picked));
  });

  it("filter a list by a typed day, which the list's address keeps as typed", async () => {
    await visit(page, '/insureds');
    await page.getByText(t('insureds.filters.more'), { exact: true }).click();
    const from = page.getByLabel(t('insureds.filters.start_from'), { exact: true });
    expect(await from.getAttribute('placeholder')).toBe(t('common.date.placeholder'));
    await from.fill('1/1/2020');
    await page.getByRole('button', { name: t('table.apply_filters') }).click();
    await page.waitForURL((url) => url.searchParams.get('start_from') === '1/1/2020');
    const rows = page.getByRole('table', { name: t('insureds.title') }).locator('tbody tr');
    await rows.first().waitFor();
    expect(await page.getByLabel(t('insureds.filters.start_from'), { exact: true }).inputValue()).toBe(
      '1/1/2020',
    );
    // A typed day far ahead leaves no insured: the filter is read, not dropped as unreadable.
    await visit(page, '/insureds?start_from=1/12/2999');
    expect(await page.getByText(t('insureds.empty')).count()).toBeGreaterThan(0);
  });

  it('refuse a day that does not exist without scripts, keeping what was typed', async () => {
    const context = await browser.newContext({
      baseURL: UK_URL,
      javaScriptEnabled: false,
      locale: 'en-US',
      viewport: { width: 1366, height: 900 },
    });
    await context.addCookies(await page.context().cookies());
    const plain = await context.newPage();
    await plain.goto('/api-keys');
    // No calendar without scripts: the field alone, with its hint.
    expect(await plain.getByRole('button', { name: t('common.date.choose') }).count()).toBe(0);
    await fillKey(plain, `No date ${tag}`);
    await expiry(plain).fill('31/02/2031');
    await plain.getByRole('button', { name: t('api_keys.generate') }).click();
    await plain.waitForLoadState();
    const field = expiry(plain);
    await plain.locator('[aria-invalid="true"][name="expires_on"]').waitFor();
    expect(await field.inputValue()).toBe('31/02/2031');
    const ids = (await field.getAttribute('aria-describedby'))!.split(' ');
    const described = await Promise.all(ids.map((id) => plain.locator(`[id="${id}"]`).innerText()));
    expect(described).toContain('Date is not valid');
    await context.close();
  });
});

/** The page at 1366 px and on a phone (390 px), the calendar open at both widths. */
async function screenshotsAt(p: Page, name: string) {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const original = p.viewportSize();
  for (const [suffix, size] of [
    ['desktop', { width: 1366, height: 900 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    await p.setViewportSize(size);
    await expiry(p).scrollIntoViewIfNeeded();
    // The calendar follows its field as the page scrolls and the window changes; let it settle.
    await p.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await p.screenshot({ path: join(SCREENSHOT_DIR, `${name}-${suffix}.png`) });
  }
  if (original) await p.setViewportSize(original);
}
