/**
 * Billing in the browser: a school user checks out by bank transfer (an unpaid invoice), then finance opens
 * /billing, whose chart is SVG in the page's HTML (no JavaScript needed) with the client in the aging table,
 * and follows the client to its receivables and statement; the school user's billing page is its own
 * statement of account, which it downloads as PDF (the client's name and the invoice number read back) and
 * as Excel. Finance then gives back the credit a credit note left on a paid invoice through the
 * record-refund form (docs/decisions/billing.md "Credit notes and refunds: the model").
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { pdfText } from '../support/pdf-text';
import {
  clickAndConfirm,
  DESKTOP,
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

const BASE = UK_URL;
const SCHOOL = 'school.admin@demo.test';
const FINANCE = 'finance@demo.test';
const CLIENT = 'Oakwood International School';

let browser: Browser;
let school: Page;
let invoiceNumber: string;

function devSecret(): string {
  const vars = readFileSync(join(inject('appDir'), '.dev.vars'), 'utf8');
  return vars.match(/^SESSION_SECRET=(.*)$/m)![1].trim();
}

async function downloaded(page: Page, click: () => Promise<void>) {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  return { name: download.suggestedFilename(), bytes: new Uint8Array(readFileSync(await download.path())) };
}

beforeAll(async () => {
  browser = await launchBrowser();
  school = await newPage(browser, BASE);
  await signIn(school, SCHOOL);
  const res = await fetch(`${BASE}/__dev/ordering/open-batch`, {
    method: 'POST',
    headers: { 'x-dev-secret': devSecret(), 'content-type': 'application/json' },
    body: JSON.stringify({ email: SCHOOL, applicants: 2, first_names: ['Zoë', 'Seán'], with_email: true }),
  });
  expect(res.ok).toBe(true);
  await visit(school, '/cart/checkout');
  await school.locator('input[name="payment_method"][value="bank_transfer"]').check();
  await school.getByRole('button', { name: t('checkout.confirm') }).click();
  await waitForPath(school, /^\/payment\/bank-transfer\/pay-invoice\/[a-z0-9]+\/start$/);
});
afterAll(async () => {
  await browser?.close();
});

describe('billing summary and statements', () => {
  it('a school user sees its own statement and downloads it as PDF and Excel', async () => {
    await visit(school, '/billing');
    await waitForPath(school, '/billing/statement');
    await hydrated(school);
    expect(pathOf(school)).toBe('/billing/statement');
    expect(await school.getByRole('heading', { level: 1 }).textContent()).toBe(t('billing.statement.title'));
    // The checkout's invoice is the statement's last invoice line (today's, the newest number).
    const invoiceRows = school
      .locator('tbody tr:not([data-summary])')
      .filter({ has: school.getByRole('cell', { name: t('billing.statement.kinds.invoice'), exact: true }) });
    invoiceNumber = (await invoiceRows.last().locator('td').nth(2).textContent())!.trim();
    expect(invoiceNumber).toMatch(/\d/);
    await screenshots(school, 'billing-statement');
    const pdf = await downloaded(school, () =>
      school.getByRole('link', { name: t('billing.statement.download_pdf') }).click(),
    );
    expect(pdf.name).toMatch(/^statement-Oakwood-International-School-\d{4}-01-01-\d{4}-\d{2}-\d{2}\.pdf$/);
    mkdirSync(join('test-output', 'screenshots'), { recursive: true });
    writeFileSync(join('test-output', 'screenshots', 'billing-statement.pdf'), pdf.bytes);
    const text = (await pdfText(pdf.bytes)).join('\n');
    expect(text).toContain(CLIENT);
    expect(text).toContain(invoiceNumber);
    const xlsx = await downloaded(school, () =>
      school.getByRole('link', { name: t('billing.statement.download_xlsx') }).click(),
    );
    expect(xlsx.name).toMatch(/\.xlsx$/);
    expect(Array.from(xlsx.bytes.slice(0, 2))).toEqual([0x50, 0x4b]);
    // A period that ends before it starts says so.
    await visit(school, '/billing/statement?from=2026-05-01&to=2026-04-01');
    expect(await school.getByRole('alert').first().textContent()).toContain(t('billing.errors.period'));
  });
  it('finance opens /billing: tiles, the chart drawn in the HTML, the aging with the client', async () => {
    const finance = await newPage(browser, BASE);
    await signIn(finance, FINANCE);
    // The HTML as served, before any JavaScript: the chart is already there.
    const html = await (await finance.request.get(`${BASE}/billing`)).text();
    expect(html).toMatch(/<svg[^>]*role="img"[^>]*data-chart="invoiced-collected"/);
    expect(html).toContain('<title');
    expect(html).toContain(CLIENT);
    await visit(finance, '/billing');
    await hydrated(finance);
    expect(await finance.getByRole('heading', { level: 1 }).textContent()).toBe(t('billing.title'));
    await expect
      .poll(() => finance.getByText(t('billing.tiles.outstanding', 'en', { currency: 'GBP' })).count())
      .toBe(1);
    expect(
      await finance.getByRole('img', { name: t('billing.chart.title', 'en', { currency: 'GBP' }) }).count(),
    ).toBe(1);
    // The figures of the chart are also a table for screen readers.
    const table = finance.getByRole('table', { name: t('billing.chart.title', 'en', { currency: 'GBP' }) });
    expect(await table.locator('tbody tr').count()).toBe(12);
    await screenshots(finance, 'billing-summary');
    await expectFitsPhone(finance, '/billing');
    await finance.getByRole('link', { name: CLIENT }).first().click();
    await waitForPath(finance, /^\/clients\/[a-z0-9]+\/receivables$/);
    await expect.poll(() => finance.getByRole('cell', { name: invoiceNumber }).count()).toBe(1);
    await expectFitsPhone(finance, 'receivables');
    await screenshots(finance, 'billing-receivables', ['desktop']);
    await finance.getByRole('link', { name: t('billing.statement.link') }).click();
    await waitForPath(finance, /^\/clients\/[a-z0-9]+\/statement$/);
    await expect.poll(() => finance.getByRole('cell', { name: invoiceNumber }).count()).toBe(1);
    await expectFitsPhone(finance, 'statement');
    await finance.close();
  });
});

describe('a refund of the credit on a paid invoice', () => {
  it('finance credits a line, records the refund from the invoice and sees it and the new balance', async () => {
    // Two policies paid by card: the invoice is paid at once.
    const res = await fetch(`${BASE}/__dev/amendments/issue`, {
      method: 'POST',
      headers: { 'x-dev-secret': devSecret(), 'content-type': 'application/json' },
      body: JSON.stringify({ email: SCHOOL, applicants: 2, payment_method: 'credit_card' }),
    });
    expect(res.ok).toBe(true);
    const [issued] = ((await res.json()) as { policies: { invoice_id: string; client_id: string }[] })
      .policies;
    const invoicePage = `/clients/${issued.client_id}/invoices/${issued.invoice_id}`;
    const finance = await newPage(browser, BASE);
    await signIn(finance, FINANCE);
    const figure = async (label: string) => {
      const row = finance
        .getByTestId('invoice-totals')
        .locator(':scope > div')
        .filter({ has: finance.getByText(label, { exact: true }) });
      return minor(await row.locator('dd').innerText());
    };

    // The card order is invoiced, not yet paid: finance records the client's payment of all of it.
    await visit(finance, invoicePage);
    const due = await figure(t('invoices.totals.balance'));
    expect(due).toBeGreaterThan(0);
    await finance.getByRole('link', { name: t('invoices.actions.record_payment'), exact: true }).click();
    await waitForPath(finance, `/invoices/${issued.invoice_id}/record-payment`);
    await hydrated(finance);
    await clickAndConfirm(finance.getByRole('button', { name: t('payments.record.payment_submit') }));
    await waitForPath(finance, invoicePage);
    await finance
      .getByRole('status')
      .filter({ hasText: t('payments.toasts.payment_recorded') })
      .first()
      .waitFor();
    expect(await figure(t('invoices.totals.paid'))).toBe(-due);
    expect(await figure(t('invoices.totals.balance'))).toBe(0);
    const paid = due;

    // Paid in full, nothing to give back yet; finance credits one line of it.
    await finance.locator('summary', { hasText: t('invoices.actions.credit_note') }).click();
    await finance.locator('tbody input[type=checkbox][name=items]').first().check();
    await finance.getByLabel(t('invoices.fields.reason')).first().fill('The student did not travel');
    await finance.getByRole('button', { name: t('invoices.actions.credit_lines') }).click();
    await finance.getByTestId('credit-notes').waitFor();
    const credit = await figure(t('invoices.totals.account_credit'));
    expect(credit).toBeGreaterThan(0);
    expect(credit).toBeLessThan(paid);

    // The refund form, from the invoice: it offers the credit, and refuses more than that.
    await finance.getByRole('link', { name: t('invoices.actions.record_refund'), exact: true }).click();
    await waitForPath(finance, `/invoices/${issued.invoice_id}/record-refund`);
    await hydrated(finance);
    expect(await finance.locator('h1').innerText()).toBe(t('payments.record.refund_title'));
    const amount = finance.getByLabel(t('payments.fields.amount', 'en', { currency: 'GBP' }));
    expect(minor(await amount.inputValue())).toBe(credit);
    await amount.fill(((credit + 100) / 100).toFixed(2));
    await finance.getByLabel(t('payments.fields.method')).selectOption('bank_transfer');
    await finance.getByLabel(t('payments.fields.note')).fill('Returned to the school');
    await clickAndConfirm(finance.getByRole('button', { name: t('payments.record.refund_submit') }));
    await finance
      .getByText(/^Refund cannot be more than the credit on this invoice/)
      .first()
      .waitFor();
    await screenshots(finance, 'payments-record-refund-refused', ['phone']);
    await amount.fill((credit / 100).toFixed(2));
    await screenshots(finance, 'payments-record-refund');
    await clickAndConfirm(finance.getByRole('button', { name: t('payments.record.refund_submit') }));

    // Back on the invoice: the refund listed, the credit given back, still nothing owed.
    await waitForPath(finance, invoicePage);
    await finance
      .getByRole('status')
      .filter({ hasText: t('payments.toasts.refund_recorded') })
      .first()
      .waitFor();
    const refund = finance
      .getByTestId('invoice-payments')
      .locator('li')
      .filter({ hasText: t('invoices.transaction_kinds.refund') });
    expect(await refund.count()).toBe(1);
    expect(minor(await refund.locator('span.font-medium').innerText())).toBe(-credit);
    expect(await figure(t('invoices.totals.refunded'))).toBe(credit);
    expect(await figure(t('invoices.totals.balance'))).toBe(0);
    expect(
      await finance
        .getByTestId('invoice-totals')
        .getByText(t('invoices.totals.account_credit'), { exact: true })
        .count(),
    ).toBe(0);
    await screenshots(finance, 'invoice-refunded');
    // Nothing is left to give back.
    await visit(finance, `/invoices/${issued.invoice_id}/record-refund`);
    await finance.getByText(t('payments.errors.nothing_to_refund')).first().waitFor();
    await finance.close();
  });
});

/** "£1,234.56" → 123456; "-£12.00" → -1200 */
const minor = (text: string) => Math.round(Number(text.replace(/[^0-9.-]/g, '')) * 100);

/** At phone width the page itself does not scroll sideways (the chart and tables scroll in their boxes). */
async function expectFitsPhone(page: Page, what: string) {
  await page.setViewportSize(PHONE);
  expect(await page.evaluate(() => document.documentElement.scrollWidth), what).toBeLessThanOrEqual(
    PHONE.width,
  );
  await page.setViewportSize(DESKTOP);
}
