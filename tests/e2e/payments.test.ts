/**
 * Recorded payments in the browser, as finance works: a school checks out an order paying by bank
 * transfer (an unpaid invoice); finance opens the invoice's record-payment page, records a part payment
 * with a receipt (a date in the future first, refused with the spec's message), sees it on the client's
 * transactions tab with its receipt, finds nothing to refund on it (a refund gives back credit only), and
 * corrects the payment.
 *
 * The open batch is put in the cart through the ordering domain by the development route
 * /__dev/ordering/open-batch (the order pages are tested on their own).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
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
import { typed } from './support/dates';

const BASE = UK_URL;
const SCHOOL = 'school.admin@demo.test';
const FINANCE = 'finance@demo.test';

let browser: Browser;
let finance: Page;
let invoiceId = '';
let clientId = '';

function devSecret(): string {
  const vars = readFileSync(join(inject('appDir'), '.dev.vars'), 'utf8');
  return vars.match(/^SESSION_SECRET=(.*)$/m)![1].trim();
}

async function fillCart(email: string, applicants: number) {
  const res = await fetch(`${BASE}/__dev/ordering/open-batch`, {
    method: 'POST',
    headers: { 'x-dev-secret': devSecret(), 'content-type': 'application/json' },
    body: JSON.stringify({ email, applicants }),
  });
  if (!res.ok) throw new Error(`open-batch answered ${res.status}: ${await res.text()}`);
}

/** Today in the browser's date input format (the server's today, UTC). */
const today = () => new Date().toISOString().slice(0, 10);
const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

async function snack(p: Page, text: string) {
  await p.getByRole('status').filter({ hasText: text }).first().waitFor();
}

/** A receipt file as the browser uploads it. */
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

beforeAll(async () => {
  browser = await launchBrowser();
  // The school checks out by bank transfer: the invoice waits for its money.
  const school = await newPage(browser, BASE);
  await signIn(school, SCHOOL);
  await fillCart(SCHOOL, 2);
  await visit(school, '/cart/checkout');
  await school.locator('input[name="payment_method"][value="bank_transfer"]').check();
  await school.getByRole('button', { name: t('checkout.confirm') }).click();
  await waitForPath(school, /^\/payment\/bank-transfer\/pay-invoice\/[a-z0-9]+\/start$/);
  invoiceId = new URL(school.url()).pathname.split('/')[4];
  await school.close();

  finance = await newPage(browser, BASE);
  await signIn(finance, FINANCE);
  await visit(finance, '/clients');
  await finance.getByRole('link', { name: 'Oakwood International School' }).first().click();
  await waitForPath(finance, /^\/clients\/[a-z0-9]+$/);
  clientId = new URL(finance.url()).pathname.split('/')[2];
});
afterAll(async () => {
  await browser?.close();
});

describe('recorded payments', () => {
  it('records a part payment with a receipt, offers no refund of it, and corrects the payment', async () => {
    const back = `/clients/${clientId}/transactions`;
    const invoicePage = `/clients/${clientId}/invoices/${invoiceId}`;
    // From the invoice's page, as finance finds it.
    await visit(finance, invoicePage);
    await hydrated(finance);
    await finance.getByRole('link', { name: t('invoices.actions.record_payment'), exact: true }).click();
    await waitForPath(finance, `/invoices/${invoiceId}/record-payment`);
    await hydrated(finance);
    expect(await finance.locator('h1').innerText()).toBe(t('payments.record.payment_title'));
    const number = (await finance.locator('dd').first().innerText()).trim();
    expect(number).toMatch(/^INV\d{7}$/);
    const balance = await finance.getByTestId('invoice-balance').innerText();
    const total = Number(balance.replace(/[^0-9.]/g, ''));
    expect(total).toBeGreaterThan(50);
    await screenshots(finance, 'payments-record-payment');

    // A date in the future is refused with the spec's message; nothing is recorded.
    await finance.getByLabel(t('payments.fields.amount', 'en', { currency: 'GBP' })).fill('50.00');
    await finance.getByLabel(t('payments.fields.paid_on')).fill(typed(tomorrow()));
    await finance.getByLabel(t('payments.fields.method')).selectOption('cheque');
    await finance.getByLabel(t('payments.fields.receipt')).setInputFiles({
      name: 'cheque-1001.pdf',
      mimeType: 'application/pdf',
      buffer: PDF,
    });
    await clickAndConfirm(finance.getByRole('button', { name: t('payments.record.payment_submit') }));
    await finance.getByText('Payment date cannot be in future').waitFor();
    await screenshots(finance, 'payments-record-payment-refused', ['phone']);

    await finance.getByLabel(t('payments.fields.paid_on')).fill(typed(today()));
    await finance.getByLabel(t('payments.fields.receipt')).setInputFiles({
      name: 'cheque-1001.pdf',
      mimeType: 'application/pdf',
      buffer: PDF,
    });
    await finance.getByLabel(t('payments.fields.note')).fill('Cheque 1001');
    await clickAndConfirm(finance.getByRole('button', { name: t('payments.record.payment_submit') }));
    await waitForPath(finance, invoicePage);
    await snack(finance, t('payments.toasts.payment_recorded'));
    await visit(finance, back);
    // The client's transactions (the demo data has others): this invoice's rows.
    const rows = finance.locator('tbody tr').filter({ hasText: number });
    const paymentRow = rows.filter({ hasText: 'cheque-1001.pdf' });
    await paymentRow.waitFor();
    expect(await paymentRow.innerText()).toContain('£50.00');
    expect(await paymentRow.innerText()).toContain(t('payments.methods.cheque'));
    // The receipt downloads as it was uploaded.
    const receiptHref = await paymentRow.getByRole('link', { name: /cheque-1001\.pdf/ }).getAttribute('href');
    const receipt = await finance.request.get(receiptHref!);
    expect(receipt.status()).toBe(200);
    expect(receipt.headers()['content-type']).toBe('application/pdf');
    expect(Buffer.from(await receipt.body()).equals(PDF)).toBe(true);

    // The audit trail tells the payment in words: the amounts as money, the method and the invoice's
    // state by their names, a value first set without an empty "before". At 1366 a table row; on a
    // phone a card.
    const admin = await newPage(browser, BASE);
    await signIn(admin, 'senior.admin@demo.test');
    await admin.setViewportSize({ width: 1366, height: 900 });
    await visit(admin, '/audit-trail?entity_type=invoice&action=payment_recorded');
    const entry = admin.getByRole('row').filter({ hasText: 'Cheque 1001' }).first();
    await entry.waitFor();
    const value = (scope: Locator, label: string) =>
      scope.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd[1]');
    expect(await value(entry, t('activity.fields.amount')).innerText()).toBe('£50.00');
    expect(await value(entry, t('activity.fields.paid')).innerText()).toContain('£50.00');
    expect(await value(entry, t('activity.fields.method')).innerText()).toBe(t('payments.methods.cheque'));
    // The bank transfer the school started still awaits: the status did not change and reads once.
    expect(await value(entry, t('activity.fields.status')).innerText()).toBe(t('invoices.statuses.pending'));
    expect(await value(entry, t('activity.fields.paid_on')).innerText()).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
    expect(await entry.innerText()).not.toContain('5000');
    expect(await entry.locator('del').allInnerTexts()).not.toContain(t('activity.empty_value'));
    await admin.screenshot({ path: 'test-output/screenshots/audit-trail-payment-1366.png', fullPage: true });
    await screenshots(admin, 'audit-trail-payment');
    await admin.setViewportSize({ width: 390, height: 844 });
    const card = admin.getByTestId('activity-row').filter({ hasText: 'Cheque 1001' }).first();
    await card.waitFor();
    expect(await value(card, t('activity.fields.amount')).innerText()).toBe('£50.00');
    expect(await admin.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await admin.screenshot({ path: 'test-output/screenshots/audit-trail-payment-390.png', fullPage: true });
    // The entry's invoice number opens the invoice (the trail keeps the number: its address by number).
    await card.getByRole('link', { name: number, exact: true }).click();
    await waitForPath(admin, invoicePage);
    await admin.close();

    // A part payment leaves nothing owed back: a refund gives back credit only (an overpayment or a
    // credit note), so the refund form says so and how to give money back.
    await visit(finance, `/invoices/${invoiceId}/record-refund`);
    await finance.getByText(t('payments.errors.nothing_to_refund')).first().waitFor();
    await screenshots(finance, 'payments-record-refund-nothing');

    // Finance corrects the payment's amount from the list.
    await visit(finance, back);
    await paymentRow.getByRole('link', { name: new RegExp(t('payments.list.edit')) }).click();
    await waitForPath(finance, new RegExp(`^/invoices/${invoiceId}/transactions/[a-z0-9]+/edit$`));
    await hydrated(finance);
    await screenshots(finance, 'payments-edit');
    await finance.getByLabel(t('payments.fields.amount', 'en', { currency: 'GBP' })).fill('55.00');
    await finance.getByRole('button', { name: t('payments.edit.submit') }).click();
    await waitForPath(finance, back);
    await snack(finance, t('payments.toasts.edited'));
    await expect
      .poll(async () => await rows.filter({ hasText: 'cheque-1001.pdf' }).innerText())
      .toContain('£55.00');
    await screenshots(finance, 'payments-client-transactions');

    // Finance approves the client's bank transfer: it pays what is left (the total less 55.00).
    await visit(finance, `/invoices/${invoiceId}/approve-bank-transfer?back=${encodeURIComponent(back)}`);
    await hydrated(finance);
    expect(await finance.locator('h1').innerText()).toBe(t('payments.approve.title'));
    const left = Math.round((total - 55) * 100) / 100;
    expect(await finance.getByTestId('invoice-balance').innerText()).toBe(
      `£${left.toLocaleString('en-GB', { minimumFractionDigits: 2 })}`,
    );
    await screenshots(finance, 'payments-approve-bank-transfer');
    await finance.getByLabel(t('payments.approve.date')).fill(typed(today()));
    await finance.getByRole('button', { name: t('payments.approve.submit') }).click();
    await waitForPath(finance, back);
    await snack(finance, t('payments.toasts.approved'));
    const transfer = rows.filter({
      hasText: `£${left.toLocaleString('en-GB', { minimumFractionDigits: 2 })}`,
    });
    await transfer.first().waitFor();
    expect(await transfer.first().innerText()).toContain(t('payments.statuses.succeeded'));
    expect(await rows.filter({ hasText: t('payments.statuses.pending') }).count()).toBe(0);
    // Paid now: nothing is left to record.
    await visit(finance, `/invoices/${invoiceId}/record-payment`);
    await finance.getByText('Nothing is left to pay on this invoice.').waitFor();
    // The invoice's number above the form opens the invoice.
    await finance.getByRole('link', { name: number, exact: true }).click();
    await waitForPath(finance, invoicePage);

    // The payments tab shows the payments.
    await visit(finance, `/clients/${clientId}/payments`);
    const payments = finance.locator('tbody tr').filter({ hasText: number });
    await payments.filter({ hasText: 'cheque-1001.pdf' }).waitFor();
    // The cheque and the approved transfer.
    expect(await payments.count()).toBe(2);
  });
});

describe("the company's overdue reminder days", () => {
  it('are set on the company edit page', async () => {
    const admin = await newPage(browser, BASE);
    await signIn(admin, 'senior.admin@demo.test');
    await visit(admin, '/manage-company');
    await admin.getByRole('link', { name: 'Albion Student Insurance Ltd' }).first().click();
    await waitForPath(admin, /^\/manage-company\/[a-z0-9]+\/edit$/);
    await hydrated(admin);
    const days = admin.getByLabel(t('overdue.settings.days'));
    expect(await days.inputValue()).toBe('1, 7, 14');
    await days.fill('14, 3');
    await admin.getByRole('button', { name: t('companies.save') }).click();
    await snack(admin, t('companies.updated'));
    await admin.reload();
    await hydrated(admin);
    expect(await admin.getByLabel(t('overdue.settings.days')).inputValue()).toBe('3, 14');
    await days.scrollIntoViewIfNeeded();
    await screenshots(admin, 'payments-company-overdue-days');
    // Back as it was, for the other tests.
    await admin.getByLabel(t('overdue.settings.days')).fill('1, 7, 14');
    await admin.getByRole('button', { name: t('companies.save') }).click();
    await snack(admin, t('companies.updated'));
    await admin.close();
  });
});
