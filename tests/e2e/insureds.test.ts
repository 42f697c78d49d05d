/**
 * The insureds list and an insured's page as a person uses them: an administrator lands on /insureds
 * after signing in, narrows the list with the status chips and the filters (kept in the address), opens
 * an insured, reads the tabs, edits a personal detail and adds a note to selected insureds; the same at
 * phone width (no page wider than the screen). Reads the demo data (drizzle/seed/policies.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  bulkAction,
  bulkBar,
  DESKTOP,
  headingText,
  hydrated,
  launchBrowser,
  newPage,
  pathOf,
  PHONE,
  screenshots,
  signIn,
  visit,
  waitForPath,
} from './support/browser';
import { t } from './support/i18n';
import { UK_URL } from './support/servers';

let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  page = await newPage(browser, UK_URL);
  await signIn(page, 'admin@demo.test');
});
afterAll(async () => {
  await browser?.close();
});

async function snack(text: string) {
  await page.getByRole('status').filter({ hasText: text }).first().waitFor();
}

/** The policy numbers and statuses of the rows shown. */
async function rows() {
  const table = page.getByRole('table', { name: t('insureds.title') });
  return table.locator('tbody tr').evaluateAll((trs) =>
    trs.map((tr) => ({
      number: tr.querySelector('td a')?.textContent?.trim() ?? '',
      text: (tr as HTMLElement).innerText,
    })),
  );
}

describe('the insureds list', () => {
  it('is where an administrator lands after signing in, with the summary by status', async () => {
    await visit(page, '/home');
    expect(pathOf(page)).toBe('/insureds');
    expect(await headingText(page)).toBe(t('insureds.title'));
    const chips = page.getByTestId('status-chips');
    for (const s of ['all', 'active', 'not_started', 'expired', 'cancelled'])
      expect(
        await chips.getByRole('link', { name: new RegExp(`^${t(`insureds.statuses.${s}`)}`) }).count(),
      ).toBe(1);
    expect((await rows()).length).toBe(25);
    await screenshots(page, 'insureds-list');
  });

  it('filters by status from a chip, and by name with the filters bar (kept in the address)', async () => {
    await page
      .getByTestId('status-chips')
      .getByRole('link', { name: new RegExp(`^${t('insureds.statuses.cancelled')}`) })
      .click();
    await waitForPath(page, '/insureds');
    await expect.poll(() => new URL(page.url()).searchParams.get('status')).toBe('cancelled');
    await hydrated(page);
    const cancelled = await rows();
    expect(cancelled.length).toBeGreaterThan(0);
    for (const r of cancelled) expect(r.text).toContain(t('insureds.statuses.cancelled'));

    await visit(page, '/insureds?page=1');
    await page.getByLabel(t('insureds.fields.last_name'), { exact: true }).fill('Kowal');
    await page.getByRole('button', { name: t('table.apply_filters') }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('last_name')).toBe('Kowal');
    await hydrated(page);
    const found = await rows();
    expect(found.length).toBeGreaterThan(0);
    for (const r of found) expect(r.text).toMatch(/Kowalski/);
  });

  it('opens an insured from the list and reads their tabs', async () => {
    await visit(page, '/insureds?policy_id=P00000001');
    const [first] = await rows();
    expect(first.number).toBe('P00000001');
    await page.getByRole('link', { name: 'P00000001' }).click();
    await waitForPath(page, /^\/insureds\/\w+\/insured_details$/);
    await hydrated(page);
    expect(await headingText(page)).toContain('Łukasz Kowalski');
    expect(await page.getByTestId('policy-number').innerText()).toBe('P00000001');
    await screenshots(page, 'insureds-detail');
    await page.getByRole('link', { name: t('insureds.tabs.logs'), exact: true }).click();
    await waitForPath(page, /\/insured_details\/logs$/);
    await page.getByText(t('insureds.logs.kinds.issue'), { exact: true }).first().waitFor();
    await page.getByRole('link', { name: t('insureds.tabs.mfa_logs'), exact: true }).click();
    await page.getByText(t('insureds.detail.mfa_empty')).waitFor();
  });

  it('edits a personal detail and shows it on the page', async () => {
    const detail = pathOf(page).replace(/\/mfa-logs$/, '');
    await page.getByRole('link', { name: t('insureds.actions.edit_details') }).click();
    await waitForPath(page, /\/edit-details$/);
    await hydrated(page);
    await page.getByLabel(t('order.fields.passport_number'), { exact: true }).fill('PL7654321');
    await page.getByRole('button', { name: t('insureds.edit.save') }).click();
    await waitForPath(page, detail);
    await snack(t('insureds.edit.saved'));
    await page.getByText('PL7654321').waitFor();
  });

  it('adds a note to the selected insureds from the bulk actions', async () => {
    await visit(page, '/insureds?policy_id=P0000000');
    await hydrated(page);
    const boxes = page
      .getByRole('table', { name: t('insureds.title') })
      .locator('tbody input[type=checkbox]');
    await boxes.nth(0).check();
    await boxes.nth(1).check();
    const bar = bulkBar(page);
    await bulkAction(page, t('insureds.bulk.add_note'));
    for (const action of [
      'extend',
      'trip_dates',
      'group_name',
      'group_leader',
      'cancel',
      'documents',
      'welcome_email',
    ])
      expect(await bar.getByRole('button', { name: t(`insureds.bulk.${action}`) }).count(), action).toBe(1);
    await bar.getByRole('button', { name: t('insureds.bulk.add_note') }).click();
    await waitForPath(page, '/insureds/add-note');
    await hydrated(page);
    await page.getByText(t('insureds.add_note.for_selected', 'en', { count: 2 })).waitFor();
    await page.getByLabel(t('notes.fields.title'), { exact: true }).fill('Arrival confirmed');
    await page.getByLabel(t('notes.fields.note'), { exact: true }).fill('Both arrived at the campus.');
    await page.getByRole('button', { name: t('notes.add') }).click();
    await waitForPath(page, '/insureds');
    await snack(t('insureds.add_note.added', 'en', { count: 2 }));
  });
});

describe('at phone width', () => {
  it('shows the list and an insured no wider than the screen', async () => {
    await page.setViewportSize(PHONE);
    for (const path of ['/insureds', '/insureds?status=active']) {
      await visit(page, path);
      await hydrated(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(
        PHONE.width,
      );
    }
    // The summary by status is a tidy grid: "All" across the top, then two chips a row, of one width.
    const chips = page.getByTestId('status-chips');
    const all = (await chips.boundingBox())!;
    const boxes = await Promise.all(
      (await chips.getByRole('link').all()).map(async (c) => (await c.boundingBox())!),
    );
    expect(boxes).toHaveLength(5);
    expect(boxes[0].width).toBeCloseTo(all.width, 0);
    expect(new Set(boxes.slice(1).map((b) => Math.round(b.x))).size).toBe(2);
    expect(new Set(boxes.slice(1).map((b) => Math.round(b.width))).size).toBe(1);
    await screenshots(page, 'insureds-list-phone', ['phone']);
    await page
      .getByRole('table', { name: t('insureds.title') })
      .locator('tbody tr td a')
      .first()
      .click();
    await waitForPath(page, /\/insured_details$/);
    await hydrated(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await screenshots(page, 'insureds-detail-phone', ['phone']);
    await page.setViewportSize(DESKTOP);
  });
});
