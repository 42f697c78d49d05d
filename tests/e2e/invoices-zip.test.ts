/**
 * The ZIP of many invoices in the browser: finance filters the invoices to more than 200 (made
 * in the setup by the development route, as the reconciliation bench makes them), selects all matching,
 * downloads them as Excel: the list sends it to the job's page, /invoices/downloads/{job}, which shows the
 * progress while the queue renders them, then the ZIP, holding one file per invoice named by its number.
 * A second job the queue gives up on (the development route hands its message to the dead-letter
 * consumer, as Cloudflare Queues does after the last retry) says 'Error downloading invoice(s)'.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { readCentralDirectory } from '../../workers/platform/zip';
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

const FINANCE = 'finance@demo.test';
const MADE = 210;
let browser: Browser;
let page: Page;

function devSecret(): string {
  const vars = readFileSync(join(inject('appDir'), '.dev.vars'), 'utf8');
  return vars.match(/^SESSION_SECRET=(.*)$/m)![1].trim();
}

async function dev(path: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${UK_URL}/__dev${path}`, {
    method: 'POST',
    headers: { 'x-dev-secret': devSecret(), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.ok, `${path}: ${res.status}`).toBe(true);
  return (await res.json()) as Record<string, unknown>;
}

// Today's unpaid bank-transfer invoices: the setup's, and any another test checked out today.
const today = new Date().toISOString().slice(0, 10);
const FILTERS = `date_from=${today}&date_to=${today}&status=unpaid&payment_method=bank_transfer`;

/** Filters the list to today's unpaid invoices, selects all matching and asks for them as `format`. */
async function downloadAllMatching(format: 'pdf' | 'excel'): Promise<{ jobId: string; count: number }> {
  await visit(page, `/invoices?${FILTERS}`);
  await hydrated(page);
  await page.getByRole('checkbox', { name: t('table.select_page') }).check();
  const selectAll = page.getByRole('button', { name: /^Select all \d+ matching rows$/ });
  const count = Number((await selectAll.innerText()).match(/\d+/)![0]);
  expect(count).toBeGreaterThan(200);
  await selectAll.click();
  await page.getByText(t('table.all_matching_selected', 'en', { count })).waitFor();
  await (await bulkAction(page, t(`invoices.bulk.${format}`))).click();
  await waitForPath(page, /^\/invoices\/downloads\/[a-z0-9]+$/);
  return { jobId: new URL(page.url()).pathname.split('/').pop()!, count };
}

beforeAll(async () => {
  await dev('/reconciliation/invoices', { email: FINANCE, count: MADE });
  browser = await launchBrowser();
  page = await newPage(browser, UK_URL);
  await signIn(page, FINANCE);
});
afterAll(async () => {
  await browser?.close();
});

describe('the invoices ZIP job page', () => {
  it('selects all of more than 200 invoices, follows the job and downloads the ZIP', async () => {
    const { jobId, count } = await downloadAllMatching('excel');
    // Just arrived: the queue has only begun (the page shows its progress).
    await screenshots(page, 'invoices-zip-progress');
    const link = page.getByRole('link', { name: t('invoices.zip.download_zip') });
    // The queue renders 100 invoices a delivery; the page asks again every second.
    await link.waitFor({ timeout: 180_000 });
    await hydrated(page);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(t('invoices.zip.ready_title'));
    expect(await page.getByTestId('zip-summary').innerText()).toMatch(new RegExp(`^${count} invoices, `));
    await screenshots(page, 'invoices-zip-ready');
    await page.setViewportSize({ width: 1366, height: 800 });
    await page.screenshot({ path: join('test-output', 'screenshots', 'invoices-zip-ready-1366.png') });

    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toMatch(/^invoices-excel-\d{4}-\d{2}-\d{2}\.zip$/);
    const bytes = new Uint8Array(readFileSync(await download.path()));
    const entries = readCentralDirectory(bytes, 10_000);
    if (!Array.isArray(entries)) throw new Error('The download is not a ZIP');
    expect(entries).toHaveLength(count);
    for (const e of entries) expect(e.name).toMatch(/^INV\d{7}\.xlsx$/);
    expect(new Set(entries.map((e) => e.name)).size).toBe(count);

    // The address is the user's: after leaving, it still offers the ZIP.
    await visit(page, '/invoices');
    await visit(page, `/invoices/downloads/${jobId}`);
    await page.getByRole('link', { name: t('invoices.zip.download_zip') }).waitFor();
  });

  it("says 'Error downloading invoice(s)' when the queue gave up on the job", async () => {
    const { jobId } = await downloadAllMatching('excel');
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(t('invoices.zip.progress_title'));
    // The job is rendering its first hundred files (about 25 s locally): the queue gives up on it now.
    expect(await dev('/jobs/give-up', { job: jobId })).toEqual({ status: 'failed' });
    await page.getByText(t('invoices.errors.download_failed')).waitFor({ timeout: 30_000 });
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(t('invoices.zip.failed_title'));
    expect(await page.getByRole('link', { name: t('invoices.zip.download_zip') }).count()).toBe(0);
    await screenshots(page, 'invoices-zip-failed');
    await page.getByRole('link', { name: t('invoices.zip.back') }).click();
    await waitForPath(page, '/invoices');
  });
});
