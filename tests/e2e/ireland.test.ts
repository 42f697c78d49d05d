/**
 * Ireland as an Irish school finds it, in the Ireland portal (its demo: drizzle/seed/ireland.ts): the
 * school's master user orders two students for its Galway campus, checks out on account and sees the
 * invoice with Ireland's 3 % levy and €1 stamp duty per policy; cancels one of them, whose credit note
 * credits premium and levy and says that stamp duty is not refundable; then the invoice and the statement
 * of account show what is still owed: the other student's cover and the cancelled one's stamp duty.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { pdfText } from '../support/pdf-text';
import {
  clickAndConfirm,
  hydrated,
  launchBrowser,
  newPage,
  pathOf,
  screenshots,
  signIn,
  visit,
  waitForPath,
} from './support/browser';
import { t } from './support/i18n';
import { IE_URL } from './support/servers';
import { typed } from './support/dates';

const SCHOOL = 'school.admin@demo.test';
const CAMPUS = 'Liffeyside Galway Campus';
const suffix = Date.now().toString(36).replace(/\d/g, '');
const students = [`Siobhan${suffix}`, `Tadhg${suffix}`];
const SHOTS = join(process.cwd(), 'test-output', 'screenshots');

let browser: Browser;
let page: Page;

const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
/** Money as the page shows it (€1,234.50, -€97.85) in cents. */
const cents = (text: string) => Math.round(Number(text.replace(/[^\d.-]/g, '')) * 100);
const field = (key: string) => page.getByLabel(t(`order.fields.${key}`), { exact: true });

/** The value of a totals row of the invoice page, by its label. */
async function totalRow(label: string): Promise<string> {
  const row = page.getByTestId('invoice-totals').locator('div').filter({ hasText: label }).first();
  return (await row.locator('dd').innerText()).trim();
}

/** The statement's closing balance (the euro section's last summary row). */
async function closingBalance(): Promise<number> {
  await visit(page, '/billing/statement');
  await hydrated(page);
  const closing = page.locator('tr[data-summary="closing"]');
  expect(await closing.count()).toBe(1);
  return cents((await closing.locator('td').last().innerText()).trim());
}

/** The 1366 and 390 wide pictures of a whole page, to look at. */
async function pictures(name: string) {
  mkdirSync(SHOTS, { recursive: true });
  const original = page.viewportSize();
  for (const [width, height] of [
    [1366, 900],
    [390, 844],
  ]) {
    await page.setViewportSize({ width, height });
    await page.evaluate(() => document.fonts.ready);
    await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: true });
  }
  if (original) await page.setViewportSize(original);
}

async function downloaded(click: () => Promise<unknown>): Promise<{ name: string; bytes: Uint8Array }> {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  return { name: download.suggestedFilename(), bytes: new Uint8Array(readFileSync(await download.path())) };
}

beforeAll(async () => {
  browser = await launchBrowser();
  page = await newPage(browser, IE_URL);
  await signIn(page, SCHOOL);
});
afterAll(async () => {
  await browser?.close();
});

describe('an Irish school orders, is invoiced with levy and stamp duty, and cancels one policy', () => {
  let before = 0;
  let invoiceNumber = '';
  let invoicePath = '';
  let total = 0;
  let credit = 0;

  it('orders two students for its Galway campus and checks out on account', async () => {
    before = await closingBalance();
    await visit(page, '/insureds/order');
    await page.getByLabel(t('order.campus'), { exact: true }).selectOption({ label: CAMPUS });
    const oneByOne = page.getByRole('button', { name: new RegExp(t('order.one_by_one')) });
    await oneByOne.waitFor();
    await hydrated(page);
    await oneByOne.click();
    await waitForPath(page, '/insureds/new/add');
    await hydrated(page);
    for (const first of students) {
      await field('first_name').fill(first);
      await field('last_name').fill('Ní Bhriain');
      await field('date_of_birth').fill('06/05/2007');
      await field('residence_country_id').selectOption({ label: 'Spain' });
      await field('destination_country_id').selectOption({ label: 'Ireland' });
      await field('start_date').fill(typed(day(12)));
      await field('end_date').fill(typed(day(72)));
      await page.getByRole('button', { name: t('order.add.submit') }).click();
      await page.getByTestId('applicant-row').filter({ hasText: first }).waitFor();
    }
    await page.getByRole('link', { name: t('order.add.continue') }).click();
    await waitForPath(page, '/insureds/new/fees');
    await hydrated(page);
    expect(await page.getByTestId('fees-total').innerText()).toContain('EUR');
    await page.getByRole('link', { name: t('order.fees.continue') }).click();
    await waitForPath(page, /\/insureds\/new\/(group-leader|review)$/);
    if (pathOf(page) === '/insureds/new/group-leader') {
      await hydrated(page);
      await page.getByRole('link', { name: t('order.group_leader.continue') }).click();
      await waitForPath(page, '/insureds/new/review');
    }
    await hydrated(page);
    await page.getByRole('button', { name: t('order.review.add_to_cart') }).click();
    await waitForPath(page, '/cart');
    await hydrated(page);

    await visit(page, '/cart/checkout');
    await hydrated(page);
    await page.locator('input[name="payment_method"][value="invoiced_directly"]').check();
    await page.getByRole('button', { name: t('checkout.confirm') }).click();
    await waitForPath(page, /^\/insureds\/[a-z0-9]+\/confirmation$/);
    await hydrated(page);
    invoiceNumber = await page.getByTestId('invoice-number').innerText();
    expect(await page.getByTestId('invoice-stamp-duty').innerText()).toBe('€2.00');
    total = cents(await page.getByTestId('invoice-total').innerText());
    // Two policies at €95: premium €190.00, levy 3 % €5.70, stamp duty €2.00.
    expect(total).toBe(19_770);
  });

  it('shows the invoice with the levy and the stamp duty, on the page and in its PDF', async () => {
    await visit(page, `/invoices?number=${invoiceNumber}`);
    await hydrated(page);
    await page
      .getByRole('table', { name: t('invoices.title') })
      .getByRole('link', { name: invoiceNumber })
      .first()
      .click();
    await waitForPath(page, /^\/clients\/[a-z0-9]+\/invoices\/[a-z0-9]+$/);
    await hydrated(page);
    invoicePath = new URL(page.url()).pathname;
    expect(await totalRow(`${t('taxes.lines.levy')} (3 %)`)).toBe('€5.70');
    expect(await totalRow(`${t('taxes.lines.stamp_duty')} (2)`)).toBe('€2.00');
    expect(await totalRow(t('invoices.totals.balance'))).toBe('€197.70');
    await screenshots(page, 'ireland-invoice');
    await pictures('ireland-invoice');
    const pdf = await downloaded(() => page.getByRole('link', { name: t('invoices.actions.pdf') }).click());
    expect(pdf.name).toBe(`${invoiceNumber}.pdf`);
    writeFileSync(join(SHOTS, 'ireland-invoice.pdf'), pdf.bytes);
    const text = (await pdfText(pdf.bytes)).join('\n');
    expect(text).toContain('Levy on premiums (3 %)');
    expect(text).toContain('Stamp duty (2)');
    expect(text).toContain('EUR 197.70');
  });

  it('cancels one student: the credit note credits premium and levy, and says stamp duty is not refundable', async () => {
    await visit(page, `/insureds?last_name=${encodeURIComponent('Ní Bhriain')}&first_name=${students[0]}`);
    await hydrated(page);
    await page
      .getByRole('link', { name: new RegExp(students[0]) })
      .first()
      .click();
    await waitForPath(page, /^\/insureds\/[a-z0-9]+\/insured_details$/);
    await hydrated(page);
    // The insured's Cancel makes the draft cancellation of this one policy and opens it.
    await page.getByRole('button', { name: t('insureds.actions.cancel') }).click();
    await waitForPath(page, /^\/insureds\/amendments\/[a-z0-9]+$/);
    await hydrated(page);
    await page.getByLabel(t('amendments.fields.reason')).fill('Visa refused');
    await page.getByRole('button', { name: t('amendments.quote.get') }).click();
    await page.getByTestId('quote-totals').waitFor();
    await hydrated(page);
    await clickAndConfirm(page.getByRole('button', { name: t('amendments.quote.confirm'), exact: true }));
    const note = page.getByTestId('amendment-invoice');
    await note.waitFor();
    expect(await note.innerText()).toMatch(/Credit note CN\d{7}/);
    credit = cents(await note.getByTestId('invoice-amount').innerText());
    // €95.00 and its levy €2.85; the €1.00 stamp duty is kept.
    expect(credit).toBe(9785);

    const number = /CN\d{7}/.exec(await note.innerText())![0];
    await visit(page, `/invoices?number=${number}`);
    await hydrated(page);
    await page
      .getByRole('table', { name: t('invoices.title') })
      .getByRole('link', { name: new RegExp(number) })
      .first()
      .click();
    await waitForPath(page, /^\/clients\/[a-z0-9]+\/invoices\/[a-z0-9]+$/);
    await hydrated(page);
    expect(await page.getByTestId('stamp-duty-not-refunded').innerText()).toBe(
      t('taxes.stamp_duty_not_refunded', 'en', { count: 1, amount: '€1.00' }),
    );
    // A credit note's own figures are credits: the levy it gives back reads negative.
    expect(await totalRow(`${t('taxes.lines.levy')} (3 %)`)).toBe('-€2.85');
    await screenshots(page, 'ireland-credit-note');
    await pictures('ireland-credit-note');
    const pdf = await downloaded(() => page.getByRole('link', { name: t('invoices.actions.pdf') }).click());
    writeFileSync(join(SHOTS, 'ireland-credit-note.pdf'), pdf.bytes);
    expect((await pdfText(pdf.bytes)).join('\n')).toContain(
      'Stamp duty is not refundable: the EUR 1.00 stamp duty charged on 1 cancelled policy is not credited.',
    );
  });

  it('the statement and the invoice show what is still owed: one cover and the cancelled one’s stamp duty', async () => {
    const after = await closingBalance();
    expect(after - before).toBe(total - credit);
    expect(await page.locator('main').innerText()).toContain(invoiceNumber);
    await screenshots(page, 'ireland-statement');
    await pictures('ireland-statement');

    // The credit note reduces the invoice it corrects: €197.70 less €97.85 leaves the other student's
    // €98.85 and the cancelled one's kept €1.00 stamp duty.
    await visit(page, invoicePath);
    await hydrated(page);
    expect(await totalRow(t('invoices.totals.balance'))).toBe('€99.85');
  });
});
