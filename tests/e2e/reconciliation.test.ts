/**
 * Bank reconciliation in the browser, as finance works: the school's unpaid invoices are issued through
 * the real checkout (/__dev/amendments/issue), the bank's statement of what came in is built from them
 * (/__dev/reconciliation/statement). Finance uploads the CSV export and matches its columns, then uploads
 * the camt.053 file, reviews the matches (a payment reference, a part payment by number, two invoices in
 * one transfer, a credit that matches nothing, one in dollars), finds an invoice and allocates the unmatched
 * credit to it by hand, ignores the credit in dollars, confirms, and uploading
 * the same file again opens the confirmed statement instead of recording anything twice; an invoice's
 * number on a credit opens the invoice.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
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

const SCHOOL = 'school.admin@demo.test';
const FINANCE = 'finance@demo.test';

let browser: Browser;
let page: Page;

function devSecret(): string {
  const vars = readFileSync(join(inject('appDir'), '.dev.vars'), 'utf8');
  return vars.match(/^SESSION_SECRET=(.*)$/m)![1].trim();
}

async function dev<T>(path: string, body: Record<string, unknown>): Promise<T> {
  const res = await fetch(`${UK_URL}${path}`, {
    method: 'POST',
    headers: { 'x-dev-secret': devSecret(), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${text}`);
  return JSON.parse(text) as T;
}

interface Statement {
  invoices: { number: string; balance_minor: number; currency: string }[];
  xml: string;
  csv: string;
}

let statement: Statement;

beforeAll(async () => {
  for (let i = 0; i < 4; i++) await dev('/__dev/amendments/issue', { email: SCHOOL, applicants: 1 + i });
  statement = await dev<Statement>('/__dev/reconciliation/statement', { email: FINANCE });
  browser = await launchBrowser();
  page = await newPage(browser, UK_URL);
  await signIn(page, FINANCE);
}, 300_000);

afterAll(async () => {
  await browser?.close();
});

async function upload(name: string, content: string) {
  await visit(page, '/invoices/reconciliation');
  await hydrated(page);
  await page.getByLabel(t('reconciliation.upload.file')).setInputFiles({
    name,
    mimeType: name.endsWith('.xml') ? 'application/xml' : 'text/csv',
    buffer: Buffer.from(content),
  });
  await page.getByRole('button', { name: t('reconciliation.upload.submit') }).click();
}

const credit = (amount: string) =>
  page.getByRole('listitem').filter({ has: page.getByText(amount, { exact: true }) });
const gbp = (minor: number) =>
  new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' }).format(minor / 100);

describe('finance reconciles a bank statement', () => {
  it("uploads the bank's CSV and matches its columns", async () => {
    expect(statement.invoices.length).toBeGreaterThanOrEqual(4);
    await upload('bank-export.csv', statement.csv);
    await waitForPath(page, /^\/invoices\/reconciliation\/[a-z0-9]+\/match-columns$/);
    await hydrated(page);
    // The suggestion from the headers is preselected; "Paid in" holds the credits.
    expect(await page.getByLabel(`${t('reconciliation.match.holds')}: Paid in`).inputValue()).toBe('credit');
    await page.getByRole('button', { name: t('reconciliation.match.submit') }).click();
    await waitForPath(page, /^\/invoices\/reconciliation\/[a-z0-9]+$/);
    await hydrated(page);
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).innerText())
      .toBe(t('reconciliation.review.title'));
    const [first] = statement.invoices;
    await credit(gbp(first.balance_minor)).first().getByText(first.number, { exact: true }).waitFor();
  });

  it('uploads the camt.053 file, reviews the matches, ignores a credit and confirms', async () => {
    await upload('statement.xml', statement.xml);
    await waitForPath(page, /^\/invoices\/reconciliation\/[a-z0-9]+$/);
    await hydrated(page);
    const [a, b, c, d] = statement.invoices;
    // Paid by its payment reference; half of b by its number; c and d in one transfer.
    await credit(gbp(a.balance_minor)).getByText(a.number, { exact: true }).waitFor();
    await credit(gbp(Math.floor(b.balance_minor / 2)))
      .getByText(b.number, { exact: true })
      .waitFor();
    const both = credit(gbp(c.balance_minor + d.balance_minor));
    await both.getByText(c.number, { exact: true }).waitFor();
    await both.getByText(d.number, { exact: true }).waitFor();
    // What cannot be matched says why.
    await credit(gbp(12_345)).getByText(t('reconciliation.problems.no_match')).waitFor();
    await credit('US$500.00').getByText(t('reconciliation.problems.wrong_currency')).waitFor();
    await screenshots(page, 'reconciliation-review');

    // Part of the unknown credit is allocated by hand to b, found by its number first.
    await page.getByLabel(t('reconciliation.review.find_invoice')).fill(b.number);
    await page.getByRole('button', { name: t('reconciliation.review.find'), exact: true }).click();
    await page
      .getByRole('list', { name: t('reconciliation.review.find_invoice') })
      .getByText(b.number, { exact: true })
      .waitFor();
    await hydrated(page);
    const unknown = credit(gbp(12_345));
    await unknown.getByLabel(t('reconciliation.review.invoice')).fill(b.number);
    // Part of it (what is left of b depends on the demo's invoices): £1.00.
    await unknown.getByLabel(t('reconciliation.review.amount_to_allocate')).fill('1.00');
    await unknown.getByRole('button', { name: t('reconciliation.review.allocate') }).click();
    await unknown.getByText(t('reconciliation.line_statuses.allocated'), { exact: true }).waitFor();
    await unknown.getByText(b.number, { exact: true }).waitFor();
    await hydrated(page);
    // The credit in dollars is not for an invoice of ours: ignored.
    await credit('US$500.00')
      .getByRole('button', { name: t('reconciliation.review.ignore') })
      .click();
    await credit('US$500.00')
      .getByRole('button', { name: t('reconciliation.review.restore') })
      .waitFor();
    await hydrated(page);
    // "Confirm and record the payments" sits under the matches it confirms.
    const confirm = page.getByRole('button', { name: t('reconciliation.review.confirm') });
    const credits = page.getByRole('list', { name: t('reconciliation.review.credits') });
    const [listBox, confirmBox] = [await credits.boundingBox(), await confirm.boundingBox()];
    expect(confirmBox!.y).toBeGreaterThan(listBox!.y + listBox!.height);
    await confirm.click();
    await expectAnnounced(page, t('reconciliation.toasts.confirmed'));
    await credit(gbp(a.balance_minor))
      .filter({ has: page.getByText(a.number, { exact: true }) })
      .getByText(t('reconciliation.line_statuses.recorded'), { exact: true })
      .waitFor();
    expect(await page.getByRole('button', { name: t('reconciliation.review.confirm') }).count()).toBe(0);
    const url = page.url();

    // The same file again opens the confirmed statement: nothing is recorded twice.
    await upload('statement-again.xml', statement.xml);
    await page.getByText(t('reconciliation.upload.existing')).first().waitFor();
    expect(page.url()).toBe(url);
    await screenshots(page, 'reconciliation-confirmed');

    // An invoice's number, where a credit pays it, opens the invoice.
    await credit(gbp(a.balance_minor)).getByRole('link', { name: a.number, exact: true }).first().click();
    await waitForPath(page, /^\/clients\/[a-z0-9]+\/invoices\/[a-z0-9]+$/);
    expect(await page.getByTestId('invoice-number').innerText()).toBe(a.number);
  });

  it('finds a statement in the list by its file name or its status', async () => {
    await visit(page, '/invoices/reconciliation?search=bank-export');
    await hydrated(page);
    const list = page.getByRole('table', { name: t('reconciliation.list.title') });
    await list.getByRole('link', { name: 'bank-export.csv', exact: true }).waitFor();
    expect(await list.getByRole('link', { name: 'statement.xml', exact: true }).count()).toBe(0);

    await page.getByLabel(t('reconciliation.list.search')).fill('');
    await page.getByLabel(t('reconciliation.list.status')).selectOption('confirmed');
    await page.getByRole('button', { name: t('table.apply_filters') }).click();
    await list.getByRole('link', { name: 'statement.xml', exact: true }).waitFor();
    expect(await list.getByRole('link', { name: 'bank-export.csv', exact: true }).count()).toBe(0);
    await screenshots(page, 'reconciliation-list-filtered');

    await page.getByLabel(t('reconciliation.list.search')).fill('no statement has this name');
    await page.getByRole('button', { name: t('table.apply_filters') }).click();
    await page.getByText(t('reconciliation.list.no_match')).waitFor();
  });
});
