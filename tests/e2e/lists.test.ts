/**
 * Lists that show what matters: the insureds list at 1366 px keeps Status and Group name in view in
 * dense rows; on a 390 px phone a statement's lines are cards that show their amounts, with the filters
 * folded behind one button; applying filters gives an address with only the filters in use, with
 * JavaScript and without it. Reads the demo data (drizzle/seed).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import {
  PHONE,
  hydrated,
  launchBrowser,
  newPage,
  screenshots,
  signIn,
  visit,
  waitForPath,
  plainPageLike,
} from './support/browser';
import { expectAccessible } from './support/axe';
import { t } from './support/i18n';
import { UK_URL } from './support/servers';

const WIDE_DESKTOP = { width: 1366, height: 800 };

let browser: Browser;
let admin: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await newPage(browser, UK_URL);
  await signIn(admin, 'admin@demo.test');
});
afterAll(async () => {
  await browser?.close();
});

/** Whether the element lies wholly inside the box that scrolls the table, as it is scrolled now. */
async function inView(box: Locator, element: Locator): Promise<boolean> {
  const [outer, inner] = await Promise.all([box.boundingBox(), element.boundingBox()]);
  if (!outer || !inner) return false;
  return inner.x >= outer.x - 1 && inner.x + inner.width <= outer.x + outer.width + 1;
}

describe('the insureds list at 1366 px', () => {
  it('shows Status right after the name and Group name in view, in dense one-line-name rows', async () => {
    await admin.setViewportSize(WIDE_DESKTOP);
    await visit(admin, '/insureds');
    const table = admin.getByRole('table', { name: t('insureds.title') });
    const box = admin.getByRole('region', { name: t('insureds.title') });
    expect(await box.evaluate((el) => el.scrollLeft)).toBe(0);
    const headers = await table.getByRole('columnheader').allInnerTexts();
    const names = headers.map((h) => h.replace(/[↕▲▼]/g, '').trim().toLowerCase());
    expect(names.indexOf(t('insureds.fields.status').toLowerCase())).toBe(
      names.indexOf(t('insureds.fields.name').toLowerCase()) + 1,
    );
    for (const header of [t('insureds.fields.status'), t('insureds.fields.group_name')])
      expect(await inView(box, table.getByRole('columnheader', { name: header })), header).toBe(true);

    // Each row: its name on one line, client and campus on a quiet line under it, the status in view.
    const rows = table.locator('tbody tr');
    expect(await rows.count()).toBe(25);
    const first = rows.first();
    const name = first.getByRole('link').nth(1);
    expect(
      await name.evaluate(
        (a) => a.getBoundingClientRect().height < 1.5 * parseFloat(getComputedStyle(a).lineHeight),
      ),
    ).toBe(true);
    expect(await first.innerText()).toContain('Oakwood International School · Oakwood North Campus');
    expect(await inView(box, first.locator('td').nth(3))).toBe(true);
    // A dense admin table: a name and its second line, not three wrapped lines (80 px before).
    for (const height of await rows.evaluateAll((trs) => trs.map((tr) => tr.getBoundingClientRect().height)))
      expect(height).toBeLessThanOrEqual(60);
    await screenshots(admin, 'lists-insureds', ['desktop']);
  });

  it('shows a school user the client and campus too, under the name', async () => {
    const school = await newPage(browser, UK_URL);
    await signIn(school, 'school.admin@demo.test');
    await school.setViewportSize(WIDE_DESKTOP);
    await visit(school, '/insureds');
    const first = school
      .getByRole('table', { name: t('insureds.title') })
      .locator('tbody tr')
      .first();
    expect(await first.locator('td').nth(2).innerText()).toContain('Oakwood International School ·');
    await school.close();
  });
});

describe('a statement on a 390 px phone', () => {
  it('shows each line as a card with its amounts, the filters folded behind one button', async () => {
    const school = await newPage(browser, UK_URL);
    await signIn(school, 'school.admin@demo.test');
    await school.setViewportSize(PHONE);
    await visit(school, '/billing/statement?from=2020-01-01');
    expect(await school.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      PHONE.width,
    );

    // One button says how many filters are in use; the fields are out of sight until it is pressed.
    const filters = school.getByRole('search').locator('details[data-filters] > summary');
    expect(await filters.isVisible()).toBe(true);
    expect((await filters.innerText()).replace('▾', '').trim()).toBe(
      t('table.filters_in_use', 'en', { count: 1 }),
    );
    const from = school.getByLabel(t('billing.statement.from'));
    expect(await from.isVisible()).toBe(false);

    // Every line is a card as wide as the screen allows, its amounts in view with their labels.
    const table = school.getByRole('table').first();
    const lines = table.locator('tbody tr:not([data-summary])');
    expect(await lines.count()).toBeGreaterThan(0);
    const card = lines.first();
    const cardBox = (await card.boundingBox())!;
    expect(cardBox.x).toBeGreaterThanOrEqual(0);
    expect(cardBox.x + cardBox.width).toBeLessThanOrEqual(PHONE.width);
    const balance = card.locator('[data-label]', { hasText: /\d/ }).last();
    expect(await balance.getAttribute('data-label')).toBe(t('billing.statement.columns.balance'));
    const label = await balance.evaluate((cell) => getComputedStyle(cell, '::before').content);
    expect(label).toContain(t('billing.statement.columns.balance'));
    const amount = (await balance.boundingBox())!;
    expect(amount.x + amount.width).toBeLessThanOrEqual(cardBox.x + cardBox.width);
    // The table keeps its semantics: the card is a row of cells, read with their column headers.
    expect(
      await table.getByRole('columnheader', { name: t('billing.statement.columns.balance') }).count(),
    ).toBe(1);
    expect(await card.getByRole('cell').count()).toBeGreaterThanOrEqual(3);

    // The closing balance reads as a card too: its label, then the amount.
    const closing = table.locator('tfoot tr[data-summary="closing"]');
    expect(await closing.isVisible()).toBe(true);
    const closingBox = (await closing.boundingBox())!;
    expect(closingBox.x + closingBox.width).toBeLessThanOrEqual(PHONE.width);
    expect(await closing.innerText()).toMatch(/£[\d,]+\.\d\d/);
    await screenshots(school, 'lists-statement', ['phone']);

    // Pressed, the button shows the fields.
    await filters.click();
    await from.waitFor({ state: 'visible' });
    await expectAccessible(school);
    await school.close();
  });

  it('shows the filters open from 640 px, with no button to press', async () => {
    await admin.setViewportSize(WIDE_DESKTOP);
    await visit(admin, '/insureds');
    expect(await admin.getByRole('search').locator('details[data-filters] > summary').isVisible()).toBe(
      false,
    );
    expect(await admin.getByLabel(t('insureds.fields.last_name'), { exact: true }).isVisible()).toBe(true);
  });
});

describe('filter addresses', () => {
  it('carry only the filters in use when applied with JavaScript', async () => {
    await admin.setViewportSize(WIDE_DESKTOP);
    await visit(admin, '/insureds');
    await admin.getByLabel(t('insureds.fields.last_name'), { exact: true }).fill('Kowal');
    await admin.getByRole('button', { name: t('table.apply_filters') }).click();
    await admin.waitForURL((url) => url.search !== '');
    await hydrated(admin);
    expect(new URL(admin.url()).search).toBe('?last_name=Kowal');
    const rows = admin.getByRole('table', { name: t('insureds.title') }).locator('tbody tr');
    expect(await rows.count()).toBeGreaterThan(0);
    for (const text of await rows.allInnerTexts()) expect(text).toContain('Kowal');
  });

  it('carry only the filters in use without JavaScript too', async () => {
    const plain = await plainPageLike(admin, WIDE_DESKTOP);
    await plain.goto('/insureds');
    // Without scripts the filters are in a closed disclosure that the page's styles show from 640 px.
    const lastName = plain.getByLabel(t('insureds.fields.last_name'), { exact: true });
    expect(await lastName.isVisible()).toBe(true);
    await lastName.fill('Kowal');
    await plain.getByRole('button', { name: t('table.apply_filters') }).click();
    await waitForPath(plain, '/insureds');
    await plain.waitForURL((url) => url.search !== '');
    expect(new URL(plain.url()).search).toBe('?last_name=Kowal');
    const rows = plain.getByRole('table', { name: t('insureds.title') }).locator('tbody tr');
    for (const text of await rows.allInnerTexts()) expect(text).toContain('Kowal');

    // An address written by hand with empty filters is sent on to the clean one.
    await plain.goto('/insureds?policy_id=&status=&last_name=Kowal&page=');
    expect(new URL(plain.url()).search).toBe('?last_name=Kowal');
    await plain.context().close();
  });
});
