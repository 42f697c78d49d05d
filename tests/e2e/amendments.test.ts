/**
 * Amendments in the browser, as a school works: extend three insureds and see the supplementary invoice;
 * shorten a trip and see the credit note; cancel a student with a dependant and see the counts. The
 * insureds are issued through the real checkout by the development route /__dev/amendments/issue; the
 * pages are reached as the insured page links them (`/insureds/amend/{kind}?ids=...`).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import { issuePolicies } from './support/dev';
import { t } from './support/i18n';
import { UK_URL } from './support/servers';
import { typed } from './support/dates';

const SCHOOL = 'school.admin@demo.test';

let browser: Browser;
let page: Page;

const issue = (body: Record<string, unknown>) => issuePolicies({ email: SCHOOL, ...body });

const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

/** From the insured page's link straight on to the quote page, which lists the insureds first. */
async function startAmendment(kind: string, ids: string[]) {
  await visit(page, `/insureds/amend/${kind}?${ids.map((id) => `ids=${id}`).join('&')}`);
  await waitForPath(page, /^\/insureds\/amendments\/[a-z0-9]+$/);
  await hydrated(page);
}

async function quote(fields: Record<string, string>) {
  for (const [label, value] of Object.entries(fields)) await page.getByLabel(label).fill(value);
  await page.getByRole('button', { name: t('amendments.quote.get') }).click();
  await page.getByTestId('quote-totals').waitFor();
  await hydrated(page);
}

async function confirm() {
  await clickAndConfirm(page.getByRole('button', { name: t('amendments.quote.confirm'), exact: true }));
  await page.getByTestId('amendment-result').waitFor();
}

beforeAll(async () => {
  browser = await launchBrowser();
  page = await newPage(browser, UK_URL);
  await signIn(page, SCHOOL);
});
afterAll(async () => {
  await browser?.close();
});

describe('amendments', () => {
  it('extends three insureds and shows the supplementary invoice', async () => {
    const issued = await issue({ applicants: 3, first_names: ['Amara', 'Bjorn', 'Chiara'], days: 20 });
    await startAmendment(
      'extend',
      issued.map((p) => p.id),
    );
    const selected = page.getByTestId('selected-insureds');
    const british = (iso: string) => iso.split('-').reverse().join('/');
    const listed = await selected.locator('table').innerText();
    for (const p of issued) expect(listed).toContain(`${p.first_name} ${p.last_name}`);
    expect(listed).toContain(british(day(14 + 19)));
    await screenshots(page, 'amendment-selected');

    // A new end date before the current one is refused on its field, and nothing is quoted.
    await page.getByLabel(t('amendments.fields.new_end_date')).fill(typed(day(20)));
    await page.getByRole('button', { name: t('amendments.quote.get') }).click();
    const fieldError = page.locator('[id$="new_end_date-error"]');
    await fieldError.waitFor();
    expect(await fieldError.innerText()).toContain('The new end date must be after the current end date');
    expect(await page.getByTestId('quote-totals').count()).toBe(0);
    await screenshots(page, 'amendment-end-refused');

    await quote({ [t('amendments.fields.new_end_date')]: day(14 + 40) });
    const rows = page.locator('tbody tr');
    expect(await rows.count()).toBe(3);
    expect(await page.locator('tbody').innerText()).toContain('Amara');
    const charge = await page.getByTestId('total-charge').innerText();
    expect(charge).not.toBe('£0.00');
    await screenshots(page, 'amendment-quote');
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.screenshot({
      path: join('test-output', 'screenshots', 'amendment-quote-1366.png'),
      fullPage: true,
    });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({
      path: join('test-output', 'screenshots', 'amendment-quote-390.png'),
      fullPage: true,
    });
    await page.setViewportSize({ width: 1280, height: 800 });

    await confirm();
    const result = page.getByTestId('amendment-result');
    expect(await result.innerText()).toContain('Selected insured(s) have been updated successfully');
    const invoice = page.getByTestId('amendment-invoice');
    expect(await invoice.count()).toBe(1);
    expect(await invoice.innerText()).toMatch(/Supplementary invoice INV\d{7}/);
    expect(await invoice.getByTestId('invoice-amount').innerText()).toBe(charge);
    await screenshots(page, 'amendment-extended');

    // Paying it: the payment page offers the checkout's card and bank transfer paths.
    await invoice.getByRole('link', { name: t('amendments.result.pay') }).click();
    await waitForPath(page, '/insureds/payment');
    expect(await page.getByTestId('invoice-total').innerText()).toBe(charge);
    expect(await page.getByRole('link', { name: t('amendments.payment.bank') }).count()).toBe(1);
  });

  it('explains a quote of no charge for a longer trip by its price band', async () => {
    const [p] = await issue({ applicants: 1, first_names: ['Ines'], days: 20 });
    await startAmendment('extend', [p.id]);
    await quote({ [t('amendments.fields.new_end_date')]: day(14 + 20) });
    expect(await page.getByTestId('total-charge').innerText()).toBe('£0.00');
    expect(await page.getByTestId('same-band').innerText()).toMatch(
      /^No change in price: trips of \d+ to \d+ days are one price band\.$/,
    );
    await screenshots(page, 'amendment-same-band');
  });

  it('shortens a trip and shows the credit note', async () => {
    const [p] = await issue({ applicants: 1, first_names: ['Dmitri'], days: 40 });
    await startAmendment('trip-dates', [p.id]);
    await quote({
      [t('amendments.fields.new_start_date')]: day(14),
      [t('amendments.fields.new_end_date')]: day(14 + 6),
    });
    const credit = await page.getByTestId('total-credit').innerText();
    expect(credit).not.toBe('£0.00');
    await confirm();
    const invoice = page.getByTestId('amendment-invoice');
    expect(await invoice.innerText()).toMatch(/Credit note CN\d{7}/);
    expect(await invoice.getByTestId('invoice-amount').innerText()).toBe(credit);
  });

  it('cancels a student with a dependant and shows the counts', async () => {
    const issued = await issue({ applicants: 1, first_names: ['Esme'], family: true });
    const student = issued.find((p) => p.type === 'student')!;
    await startAmendment('cancel', [student.id]);
    await quote({ [t('amendments.fields.reason')]: 'The trip was called off' });
    expect(await page.getByTestId('count-selected').innerText()).toBe('1');
    expect(await page.getByTestId('count-dependants').innerText()).toBe('1');
    expect(await page.getByTestId('count-total').innerText()).toBe('2');
    expect(await page.locator('tbody').innerText()).toContain(`dependant of ${student.policy_number}`);
    await screenshots(page, 'amendment-cancel-quote');
    await confirm();
    expect(await page.getByTestId('amendment-invoice').innerText()).toMatch(/Credit note CN\d{7}/);
    expect(await page.getByTestId('count-total').innerText()).toBe('2');
  });

  it('refuses cancelling a cancelled insured in the quote, readable on a phone', async () => {
    const issued = await issue({ applicants: 1, first_names: ['Farid'] });
    await startAmendment('cancel', [issued[0].id]);
    await quote({ [t('amendments.fields.reason')]: 'First cancellation' });
    await confirm();
    await startAmendment('extend', [issued[0].id]);
    await quote({ [t('amendments.fields.new_end_date')]: day(60) });
    const errors = page.getByTestId('quote-errors');
    expect(await errors.innerText()).toContain('Cannot Edit Cancelled Insureds');
    expect(await page.getByTestId('line-errors').innerText()).toContain('You cannot edit cancelled insureds');
    expect(
      await page.getByRole('button', { name: t('amendments.quote.confirm'), exact: true }).isDisabled(),
    ).toBe(true);
    await screenshots(page, 'amendment-errors', ['phone']);
  });
});

describe('group changes', () => {
  it('refuses an invalid group name on its field, and assigns a group leader of the same client', async () => {
    const [p] = await issue({ applicants: 1, first_names: ['Gita'] });
    await visit(page, `/insureds/amend/group-name?ids=${p.id}`);
    await hydrated(page);
    await page.getByLabel(t('amendments.fields.group_name')).fill('Group #1');
    await page.getByRole('button', { name: t('amendments.start.save') }).click();
    await page.getByText('Invalid group name').waitFor();
    expect(await page.getByTestId('selection-count').innerText()).toContain('1');
    await screenshots(page, 'amendment-group-name');
    await visit(page, `/insureds/amend/group-leader?ids=${p.id}`);
    await hydrated(page);
    expect(await page.getByLabel(t('amendments.fields.group_leader')).isVisible()).toBe(true);
  });
});
