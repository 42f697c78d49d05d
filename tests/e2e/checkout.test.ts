/**
 * Checkout in the browser, as a school and its provider work: a school user with applicants in the cart
 * checks out paying by card on the (simulated) card provider's page, first with a card that is declined,
 * then with one that is paid, and sees the confirmation and downloads its summary; checks out another
 * order paying by bank transfer and sees where to pay; then finance approves the transfer with a date.
 *
 * The open batches are put in the cart through the ordering domain by the development route
 * /__dev/ordering/open-batch (the order pages are tested on their own).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { hydrated, launchBrowser, newPage, screenshots, signIn, visit, waitForPath } from './support/browser';
import { t } from './support/i18n';
import { UK_URL } from './support/servers';
import { typed } from './support/dates';

const BASE = UK_URL;
const SCHOOL = 'school.admin@demo.test';
const FINANCE = 'finance@demo.test';

let browser: Browser;
let school: Page;
let bankInvoicePath = '';

function devSecret(): string {
  const vars = readFileSync(join(inject('appDir'), '.dev.vars'), 'utf8');
  return vars.match(/^SESSION_SECRET=(.*)$/m)![1].trim();
}

/** Puts `applicants` valid applicants into the user's cart as one open batch. */
async function fillCart(email: string, applicants: number, firstNames?: string[]) {
  const res = await fetch(`${BASE.replace('localhost', '127.0.0.1')}/__dev/ordering/open-batch`, {
    method: 'POST',
    headers: { 'x-dev-secret': devSecret(), 'content-type': 'application/json' },
    body: JSON.stringify({ email, applicants, first_names: firstNames }),
  });
  const body = await res.text();
  if (!res.ok) throw new Error(`open-batch answered ${res.status}: ${body}`);
  return JSON.parse(body) as { batch_id: string; inserted: number };
}

beforeAll(async () => {
  browser = await launchBrowser();
  school = await newPage(browser, BASE);
  await signIn(school, SCHOOL);
});
afterAll(async () => {
  await browser?.close();
});

async function confirmWith(page: Page, method: string) {
  await visit(page, '/cart/checkout');
  expect(await page.locator('h1').innerText()).toBe(t('checkout.title'));
  await page.locator(`input[name="payment_method"][value="${method}"]`).check();
  await page.getByRole('button', { name: t('checkout.confirm') }).click();
}

async function payOnSimulator(page: Page, card: string) {
  await page.waitForURL(/\/dev\/epdq\/orderstandard_utf8\.asp$/);
  await page.getByLabel('Card number').fill(card);
  await page.getByLabel('Expiry date (MM/YY)').fill('12/30');
  await page.getByLabel('Security code').fill('123');
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  await waitForPath(page, /^\/insureds\/[a-z0-9]+\/confirmation$/);
  await hydrated(page);
}

describe('checkout', () => {
  it('pays by card on the card provider page: declined first, then paid, and shows what was bought', async () => {
    await fillCart(SCHOOL, 2, ['Amelie', 'Bruno']);
    await visit(school, '/cart/checkout');
    const summary = school.getByTestId('checkout-summary').first();
    await summary.waitFor();
    expect(await summary.innerText()).toContain('Oakwood');
    await screenshots(school, 'checkout-review');

    await confirmWith(school, 'credit_card');
    await school.waitForURL(/\/dev\/epdq\/orderstandard_utf8\.asp$/);
    const order = await school.getByTestId('sim-order').innerText();
    expect(order).toMatch(/^INV\d{7}$/);
    await screenshots(school, 'checkout-card-simulator', ['desktop']);

    // A declined card: the policies are issued, the invoice stays unpaid, and the page says so.
    await payOnSimulator(school, '4000 0000 0000 0002');
    expect(await school.getByTestId('payment-outcome').innerText()).toBe(t('checkout.outcome.failed'));
    expect(await school.getByTestId('invoice-number').innerText()).toBe(order);
    await screenshots(school, 'checkout-card-declined', ['desktop']);

    // Pay again by card from the confirmation, with the card that is paid.
    await school.getByRole('link', { name: t('checkout.confirmation.pay_card') }).click();
    await payOnSimulator(school, '4111 1111 1111 1111');
    expect(await school.getByTestId('payment-outcome').innerText()).toBe(t('checkout.outcome.succeeded'));
    expect(
      await school.getByText(t('checkout.invoice_status.paid'), { exact: true }).count(),
    ).toBeGreaterThan(0);
    const policies = school.getByRole('table', { name: t('checkout.policies.caption') });
    const text = await policies.innerText();
    expect(text).toContain('Amelie');
    expect(text).toContain('Bruno');
    expect(text).toMatch(/P\d{8}/);
    // Both answers of the card provider are listed, each once (the notification and the browser brought each).
    const transactions = await school.getByTestId('transactions').innerText();
    expect(transactions).toContain(t('checkout.transaction_status.failed'));
    expect(transactions).toContain(t('checkout.transaction_status.succeeded'));
    expect(await school.getByTestId('transactions').locator('li').count()).toBe(2);
    await screenshots(school, 'checkout-confirmation');

    // The summary downloads as an .xlsx named by the invoice number.
    const [download] = await Promise.all([
      school.waitForEvent('download'),
      school.getByRole('link', { name: t('checkout.confirmation.download') }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${order}.xlsx`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(await download.path());
    const sheet = workbook.worksheets[0];
    expect(sheet.getRow(1).getCell(1).text).toBe(t('checkout.summary.policy_number'));
    const names: string[] = [];
    sheet.eachRow((row, n) => {
      if (n > 1) names.push(row.getCell(2).text);
    });
    expect(names).toEqual(expect.arrayContaining(['Amelie', 'Bruno']));

    // The cart is empty now.
    await visit(school, '/cart/checkout');
    expect(await school.getByText(t('checkout.errors.empty')).count()).toBe(1);
  });

  it('pays by bank transfer: the page shows the bank details and the payment reference', async () => {
    await fillCart(SCHOOL, 3, ['Clara', 'Dmitri', 'Eva']);
    await confirmWith(school, 'bank_transfer');
    await waitForPath(school, /^\/payment\/bank-transfer\/pay-invoice\/[a-z0-9]+\/start$/);
    await hydrated(school);
    expect(await school.locator('h1').innerText()).toBe(t('checkout.bank.title'));
    await school.getByTestId('bank-transfer-pending').waitFor();
    expect(await school.getByTestId('bank-iban').innerText()).toBe('GB33BUKB20201555555555');
    expect(await school.getByTestId('bank-reference').innerText()).toMatch(/^INV\d{7}-[A-Z0-9]{4}$/);
    await screenshots(school, 'checkout-bank-transfer');
    await school.getByRole('link', { name: t('checkout.bank.view_order') }).click();
    await waitForPath(school, /^\/insureds\/[a-z0-9]+\/confirmation$/);
    bankInvoicePath = new URL(school.url()).pathname;
    expect(
      await school.getByText(t('checkout.invoice_status.pending'), { exact: true }).count(),
    ).toBeGreaterThan(0);
  });

  it('lets finance approve the transfer with the date the money arrived', async () => {
    expect(bankInvoicePath).not.toBe('');
    const finance = await newPage(browser, BASE);
    await signIn(finance, FINANCE);
    await visit(finance, bankInvoicePath);
    const date = finance.getByLabel(t('checkout.confirmation.payment_date'));
    // A date in the future is refused with the spec's message; nothing changes.
    const tomorrow = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    await date.fill(typed(tomorrow));
    await finance.getByRole('button', { name: t('checkout.confirmation.approve') }).click();
    await finance.getByText(t('validation.payment_date_future')).first().waitFor();
    expect(
      await finance.getByText(t('checkout.invoice_status.pending'), { exact: true }).count(),
    ).toBeGreaterThan(0);
    await screenshots(finance, 'checkout-approve-refused', ['desktop']);

    const today = new Date().toISOString().slice(0, 10);
    await date.fill(typed(today));
    await finance.getByRole('button', { name: t('checkout.confirmation.approve') }).click();
    await finance.getByText(t('checkout.confirmation.approved')).waitFor();
    // The page's data is read again after the approval; the alert can show a moment before it.
    await expect
      .poll(() => finance.getByText(t('checkout.invoice_status.paid'), { exact: true }).count())
      .toBeGreaterThan(0);
    expect(await finance.getByTestId('transactions').innerText()).toContain(
      t('checkout.transaction_status.succeeded'),
    );
    await screenshots(finance, 'checkout-approved');
    await finance.context().close();
  });
});
