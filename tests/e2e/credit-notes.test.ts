/**
 * A school cancels one policy of an invoiced order (docs/decisions/billing.md "Credit notes and refunds:
 * the model"): the credit note names the invoice (a link to it), the invoice page shows what is still
 * owed, the school's statement lists the credit note, its "Credits INV…" a link, and closes lower by it, and finance's /billing shows the
 * client owing less by it. The policies are issued through the real checkout by the development route
 * /__dev/amendments/issue (by card, so the order is invoiced at once).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
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

const SCHOOL = 'school.admin@demo.test';
const FINANCE = 'finance@demo.test';
const CLIENT = 'Oakwood International School';

let browser: Browser;
let page: Page;

interface Issued {
  id: string;
  invoice_id: string;
  client_id: string;
}

function devSecret(): string {
  const vars = readFileSync(join(inject('appDir'), '.dev.vars'), 'utf8');
  return vars.match(/^SESSION_SECRET=(.*)$/m)![1].trim();
}

async function issue(applicants: number): Promise<Issued[]> {
  const res = await fetch(`${UK_URL}/__dev/amendments/issue`, {
    method: 'POST',
    headers: { 'x-dev-secret': devSecret(), 'content-type': 'application/json' },
    body: JSON.stringify({ email: SCHOOL, applicants, payment_method: 'credit_card' }),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`issue answered ${res.status}: ${text}`);
  return (JSON.parse(text) as { policies: Issued[] }).policies;
}

/** "£1,234.56" → 123456 */
const minor = (text: string) => Math.round(Number(text.replace(/[^0-9.-]/g, '')) * 100);

/** A figure of the invoice page's totals, by its label. */
async function total(label: string): Promise<number> {
  const row = page
    .getByTestId('invoice-totals')
    .locator(':scope > div')
    .filter({ has: page.getByText(label, { exact: true }) });
  return minor(await row.locator('dd').innerText());
}

/** The statement's closing balance (the last cell of its closing row). */
async function closing(): Promise<number> {
  const label = t('billing.statement.closing', 'en', { date: '|' }).split('|')[0];
  const row = page.getByRole('row').filter({ hasText: label }).first();
  return minor((await row.getByRole('cell').allInnerTexts()).at(-1)!);
}

/** Finance's /billing: the demo school's total in the aging table (GBP). */
async function agingTotal(finance: Page): Promise<number> {
  await visit(finance, '/billing');
  const row = finance
    .getByRole('row')
    .filter({ has: finance.getByRole('link', { name: CLIENT }) })
    .first();
  const cells = await row.getByRole('cell').allInnerTexts();
  return minor(cells.at(-1)!);
}

beforeAll(async () => {
  browser = await launchBrowser();
  page = await newPage(browser, UK_URL);
  await signIn(page, SCHOOL);
});
afterAll(async () => {
  await browser?.close();
});

describe('a cancelled policy on an invoiced order', () => {
  it('lowers what the invoice, the statement and /billing show as owed by its credit note', async () => {
    const [first] = await issue(2);
    const invoicePage = `/clients/${first.client_id}/invoices/${first.invoice_id}`;
    const finance = await newPage(browser, UK_URL);
    await signIn(finance, FINANCE);
    const owedBefore = await agingTotal(finance);

    await visit(page, invoicePage);
    const total0 = await total(t('invoices.totals.balance'));
    await visit(page, '/billing/statement');
    const closing0 = await closing();

    // Cancel the first policy, as the insured page links it: straight on to the quote page.
    await visit(page, `/insureds/amend/cancel?ids=${first.id}`);
    await waitForPath(page, /^\/insureds\/amendments\/[a-z0-9]+$/);
    await hydrated(page);
    await page.getByLabel(t('amendments.fields.reason')).fill('The student did not travel');
    await page.getByRole('button', { name: t('amendments.quote.get') }).click();
    await page.getByTestId('quote-totals').waitFor();
    await hydrated(page);
    await clickAndConfirm(page.getByRole('button', { name: t('amendments.quote.confirm'), exact: true }));
    const doc = page.getByTestId('amendment-invoice');
    await doc.waitFor();
    const number = (await doc.innerText()).match(/CN\d{7}/)![0];
    const credit = minor(await doc.getByTestId('invoice-amount').innerText());
    expect(credit).toBeGreaterThan(0);
    expect(credit).toBeLessThan(total0);

    // The invoice: the credit note listed, credited, what is still owed.
    await visit(page, invoicePage);
    expect(await page.getByTestId('credit-notes').innerText()).toContain(number);
    expect(await total(t('invoices.totals.credited'))).toBe(-credit);
    expect(await total(t('invoices.totals.balance'))).toBe(total0 - credit);
    const invoiceNumber = await page.getByTestId('invoice-number').innerText();

    // The credit note: names the invoice, what the invoice still owes.
    const href = await page
      .getByTestId('credit-notes')
      .getByRole('link', { name: number })
      .getAttribute('href');
    await visit(page, href!);
    await hydrated(page);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toContain(number);
    expect(await page.getByRole('link', { name: invoiceNumber }).count()).toBeGreaterThan(0);
    // It reads as a credit: one state, "Credit note", and its own figures negative.
    expect(await page.getByText(t('invoices.types.credit_note'), { exact: true }).count()).toBe(1);
    expect(await page.getByText(t('invoices.statuses.paid'), { exact: true }).count()).toBe(0);
    expect(await total(t('invoices.totals.total'))).toBe(-credit);
    expect(await total(t('invoices.totals.invoice_balance', 'en', { number: invoiceNumber }))).toBe(
      total0 - credit,
    );
    await screenshots(page, 'credit-note');
    // "Credits invoice" is a link to the invoice it corrects.
    await page.getByTestId('credit-for').getByRole('link', { name: invoiceNumber }).click();
    await waitForPath(page, invoicePage);

    // The statement: the credit note as a credit, closing lower by it.
    await visit(page, '/billing/statement');
    expect(await page.getByRole('cell', { name: number }).count()).toBeGreaterThan(0);
    expect(await closing()).toBe(closing0 - credit);
    await screenshots(page, 'statement-with-credit-note');
    // Its line says "Credits INV…", the number a link to the invoice.
    await page
      .getByRole('row')
      .filter({ has: page.getByRole('cell', { name: number }) })
      .getByRole('link', { name: invoiceNumber })
      .click();
    await waitForPath(page, invoicePage);

    // /billing: the client owes less by the credit.
    expect(await agingTotal(finance)).toBe(owedBefore - credit);
    await finance.close();
  });
});
