/**
 * Invoices in the browser: finance filters the invoices list, ticks two and downloads them
 * as PDF (one ZIP holding two PDFs named by their numbers); opens an invoice whose page shows its tax lines
 * and totals and downloads its PDF; issues a credit note for one line; voids an unpaid invoice with a
 * reason. Works on the demo billing data (drizzle/seed/billing.ts).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { entryContents, readCentralDirectory } from '../../workers/platform/zip';
import { pdfText } from '../support/pdf-text';
import {
  bulkAction,
  bulkBar,
  clickAndConfirm,
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
let browser: Browser;
let page: Page;

async function downloaded(click: () => Promise<unknown>): Promise<{ name: string; bytes: Uint8Array }> {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  return { name: download.suggestedFilename(), bytes: new Uint8Array(readFileSync(await download.path())) };
}

const table = () => page.getByRole('table', { name: t('invoices.title') });

/** Opens the first invoice of the list at `query`; answers its number. */
async function openFirst(query: string): Promise<string> {
  await visit(page, `/invoices?${query}`);
  await hydrated(page);
  const link = table().locator('tbody a').first();
  const number = (await link.innerText()).trim();
  await link.click();
  await waitForPath(page, /^\/clients\/[a-z0-9]+\/invoices\/[a-z0-9]+$/);
  await hydrated(page);
  return number;
}

beforeAll(async () => {
  browser = await launchBrowser();
  page = await newPage(browser, UK_URL);
  await signIn(page, FINANCE);
});
afterAll(async () => {
  await browser?.close();
});

describe('invoices', () => {
  it('filters the invoices and downloads two as PDF in one ZIP', async () => {
    await visit(page, '/invoices');
    await hydrated(page);
    expect(await page.locator('h1').innerText()).toBe(t('invoices.title'));
    await page.getByLabel(t('invoices.fields.status')).selectOption('paid');
    await page.getByRole('button', { name: t('table.apply_filters') }).click();
    await page.waitForURL(/status=paid/);
    await hydrated(page);
    const rows = table().locator('tbody tr');
    await rows.first().waitFor();
    for (const text of await table().locator('tbody').allInnerTexts())
      expect(text).toContain(t('invoices.statuses.paid'));
    await screenshots(page, 'invoices-list');
    // The number's link may carry a second line naming the kind ("Credit note").
    const numberOf = async (i: number) =>
      (await rows.nth(i).locator('a').first().innerText()).split('\n')[0].trim();
    const numbers = [await numberOf(0), await numberOf(1)];
    await rows.nth(0).locator('input[type=checkbox]').check();
    await rows.nth(1).locator('input[type=checkbox]').check();
    const pdf = await bulkAction(page, t('invoices.bulk.pdf'));
    const zip = await downloaded(() => pdf.click());
    expect(zip.name).toMatch(/^invoices-pdf-\d{4}-\d{2}-\d{2}\.zip$/);
    const entries = readCentralDirectory(zip.bytes, 10);
    if (!Array.isArray(entries)) throw new Error('The download is not a ZIP');
    expect(entries.map((e) => e.name).sort()).toEqual(numbers.map((n) => `${n}.pdf`).sort());
    const [first] = await pdfText(await entryContents(zip.bytes, entries[0], 10_000_000));
    expect(first).toContain(entries[0].name.replace('.pdf', ''));
  });

  it('shows each invoice in one state, an overdue one with how late it is as a note', async () => {
    await visit(page, '/invoices?status=overdue');
    const rows = table().locator('tbody tr');
    await rows.first().waitFor();
    const overdue = new RegExp(
      t('invoices.due_note.overdue_other', 'en', { count: 999 }).replace('999', '\\d+').replace(/s$/, 's?'),
    );
    for (const text of await rows.allInnerTexts()) {
      expect(text).toMatch(overdue);
      // One state, not "Unpaid", "Overdue" and "Partly paid" side by side.
      const states = ['unpaid', 'partly_paid', 'paid', 'pending'].filter((s) =>
        text.split(/\n|\t/).some((cell) => cell.trim() === t(`invoices.statuses.${s}`)),
      );
      expect(states.length, text).toBe(1);
      expect(text.split(/\n|\t/).map((c) => c.trim())).not.toContain(t('invoices.statuses.overdue'));
    }
  });

  it('shows an invoice with its tax lines and totals, downloads its PDF and credits one line', async () => {
    // The oldest paid invoice: one the demo issued and paid, which no other test of the run credits (a
    // cancellation's credit note can make today's invoices "paid" with nothing left to credit).
    const number = await openFirst('status=paid&type=invoice&order=date_asc');
    expect(await page.getByTestId('invoice-number').innerText()).toBe(number);
    const totals = await page.getByTestId('invoice-totals').innerText();
    expect(totals).toContain(t('invoices.totals.premium'));
    // The demo prices UK policies with the higher rate of insurance premium tax (drizzle/seed/issuing.ts).
    expect(totals).toContain(`${t('taxes.lines.ipt')} (20 %)`);
    expect(totals).toContain(t('invoices.totals.total'));
    expect(totals).toContain(t('invoices.totals.balance'));
    await screenshots(page, 'invoice-page');
    const pdf = await downloaded(() => page.getByRole('link', { name: t('invoices.actions.pdf') }).click());
    expect(pdf.name).toBe(`${number}.pdf`);
    // Kept beside the screenshots, to be looked at as an image (pdftoppm).
    mkdirSync(join(process.cwd(), 'test-output', 'screenshots'), { recursive: true });
    writeFileSync(join(process.cwd(), 'test-output', 'screenshots', 'invoice.pdf'), pdf.bytes);
    expect((await pdfText(pdf.bytes)).join('\n')).toContain(number);

    await page.locator('summary', { hasText: t('invoices.actions.credit_note') }).click();
    await page.locator('tbody input[type=checkbox][name=items]').first().check();
    await page.getByLabel(t('invoices.fields.reason')).first().fill('Wrong trip dates');
    await page.getByRole('button', { name: t('invoices.actions.credit_lines') }).click();
    await page.getByTestId('credit-notes').waitFor();
    expect(await page.getByTestId('credit-notes').innerText()).toMatch(/CN\d{7}/);
    expect(await page.getByTestId('invoice-totals').innerText()).toContain(t('invoices.totals.credited'));
    // The credit note is a link to it, and it links back to the invoice it corrects.
    const invoicePath = new URL(page.url()).pathname;
    const note = (await page.getByTestId('credit-notes').innerText()).match(/CN\d{7}/)![0];
    await page.getByTestId('credit-notes').getByRole('link', { name: note, exact: true }).click();
    await page.getByRole('heading', { level: 1, name: new RegExp(note) }).waitFor();
    await page.getByTestId('credit-for').getByRole('link', { name: number, exact: true }).click();
    await waitForPath(page, invoicePath);
  });

  // Counted texts (docs/page-kit.md): one invoice is "1 invoice", not "1 invoices", in each language.
  it.each(['en', 'fr'])('counts one invoice as one in the summary and the selection (%s)', async (lang) => {
    await visit(page, '/invoices?status=paid&type=invoice');
    const number = (await table().locator('tbody a').first().innerText()).split('\n')[0].trim();
    await visit(page, `${lang === 'en' ? '' : `/${lang}`}/invoices?number=${number}`);
    await hydrated(page);
    const list = page.getByRole('table', { name: t('invoices.title', lang) });
    expect(await list.locator('tbody tr').count()).toBe(1);
    const one = t('invoices.summary.invoices_hint', lang, { count: 1 });
    expect(one).not.toBe(t('invoices.summary.invoices_hint', lang, { count: 2 }).replace('2', '1'));
    // The "invoiced" tile counts the one invoice (the "overdue" one counts none of it: it is paid).
    expect(await page.getByText(one, { exact: true }).count()).toBe(1);
    await page.getByText(t('invoices.summary.invoices_hint', lang, { count: 0 }), { exact: true }).waitFor();
    await list.locator('tbody input[type=checkbox]').first().check();
    await bulkBar(page)
      .getByText(t('table.selected', lang, { count: 1 }), { exact: true })
      .waitFor();
  });

  it('voids an unpaid invoice with a reason', async () => {
    const number = await openFirst('status=open');
    await page.locator('summary', { hasText: t('invoices.actions.void_title') }).click();
    await page.locator('#void-reason').fill('Raised for the wrong campus');
    await clickAndConfirm(page.getByRole('button', { name: t('invoices.actions.void'), exact: true }));
    await page
      .getByText(/Raised for the wrong campus/)
      .first()
      .waitFor();
    expect(await page.getByTestId('invoice-number').innerText()).toBe(number);
    expect(await page.locator('main').innerText()).toContain(t('invoices.statuses.void'));
  });
});
