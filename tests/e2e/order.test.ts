/**
 * Ordering one by one in the browser, as a school user and as provider staff: the order page (campus
 * and product), two applicants (the first typed with a mistake, then fixed), the fees, a group leader,
 * the review with the welcome-email choice, the cart with its badge, and deleting one applicant there.
 * Staff order the same way on behalf of a client they choose.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  clickAndConfirm,
  hydrated,
  launchBrowser,
  newPage,
  screenshots,
  selectCompany,
  signIn,
  visit,
  waitForPath,
  expectAnnounced,
} from './support/browser';
import { t } from './support/i18n';
import { UK_URL } from './support/servers';
import { typed } from './support/dates';

const BASE = process.env.ORDER_E2E_URL ?? UK_URL;
const suffix = Date.now().toString(36).replace(/\d/g, '');

let browser: Browser;
let school: Page;

/** YYYY-MM-DD `days` from today. */
const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** The form control with exactly this label. */
const field = (page: Page, key: string) => page.getByLabel(t(`order.fields.${key}`), { exact: true });

/** The number on the top bar's cart badge (0 when it shows none). */
async function badge(page: Page): Promise<number> {
  const label = (await page.getByTestId('cart-icon').getAttribute('aria-label')) ?? '';
  return Number(/(\d+)/.exec(label)?.[1] ?? 0);
}

/** Money as the page shows it (£1,234.50) to a number. */
const amount = (text: string) => Number(text.replace(/[^\d.]/g, ''));

async function fillApplicant(
  page: Page,
  a: { type?: string; first: string; last: string; dob: string; start: number; end: number },
) {
  if (a.type) await field(page, 'type').selectOption(a.type);
  await field(page, 'first_name').fill(a.first);
  await field(page, 'last_name').fill(a.last);
  await field(page, 'date_of_birth').fill(typed(a.dob));
  await field(page, 'residence_country_id').selectOption({ label: 'France' });
  await field(page, 'destination_country_id').selectOption({ label: 'United Kingdom' });
  await field(page, 'start_date').fill(typed(day(a.start)));
  await field(page, 'end_date').fill(typed(day(a.end)));
}

async function chooseCampus(page: Page, campus: string) {
  await page.getByLabel(t('order.campus'), { exact: true }).selectOption({ label: campus });
  await page.getByRole('button', { name: new RegExp(t('order.one_by_one')) }).waitFor();
  await hydrated(page);
}

beforeAll(async () => {
  browser = await launchBrowser();
  school = await newPage(browser, BASE);
  await signIn(school, 'school.admin@demo.test');
});
afterAll(async () => {
  await browser?.close();
});

describe('ordering one by one as a school user', () => {
  const ama = `Ama${suffix}`;
  const kwame = `Kwame${suffix}`;
  const kofi = `Kofi${suffix}`;
  let before = 0;

  it('chooses the campus and the product and starts an order one by one', async () => {
    await visit(school, '/insureds/order');
    expect(await school.locator('h1').innerText()).toBe(t('order.title'));
    before = await badge(school);
    // The client of a school user is fixed: no client to choose.
    expect(await school.getByLabel(t('order.client'), { exact: true }).count()).toBe(0);
    await chooseCampus(school, 'Oakwood North Campus');
    await school.getByText(t('order.products_for', 'en', { campus: 'Oakwood North Campus' })).waitFor();
    expect(await school.locator('input[name="contract_id"]:checked').count()).toBe(1);
    await screenshots(school, 'order-choose');
    await school.getByRole('button', { name: new RegExp(t('order.one_by_one')) }).click();
    await waitForPath(school, '/insureds/new/add');
    await hydrated(school);
    expect(await school.locator('h1').innerText()).toBe(t('order.add.title'));
    // The campus is remembered: the order page starts from it after a reload.
    await visit(school, '/insureds/order');
    expect(await school.getByLabel(t('order.campus'), { exact: true }).inputValue()).not.toBe('');
    await school.goBack();
    await waitForPath(school, '/insureds/new/add');
    await hydrated(school);
  });

  it('refuses an applicant typed with a mistake, keeps what was typed, and adds it once fixed', async () => {
    await fillApplicant(school, { first: `${ama}2`, last: 'Mensah', dob: '2006-09-10', start: 10, end: 40 });
    await school.getByRole('button', { name: t('order.add.submit') }).click();
    await school.getByText(t('validation.name_invalid')).first().waitFor();
    expect(await field(school, 'first_name').inputValue()).toBe(`${ama}2`);
    expect(await field(school, 'last_name').inputValue()).toBe('Mensah');
    expect(await school.getByTestId('applicant-row').count()).toBe(0);
    await screenshots(school, 'order-add-error');

    await field(school, 'first_name').fill(ama);
    await school.getByRole('button', { name: t('order.add.submit') }).click();
    await school.getByTestId('applicant-row').filter({ hasText: ama }).waitFor();
    await expectAnnounced(school, t('order.add.added'));
    // The form is empty again for the next applicant.
    expect(await field(school, 'first_name').inputValue()).toBe('');

    await fillApplicant(school, {
      type: 'group_leader',
      first: kwame,
      last: 'Boateng',
      dob: '1980-01-02',
      start: 10,
      end: 40,
    });
    await school.getByRole('button', { name: t('order.add.submit') }).click();
    await school.getByTestId('applicant-row').filter({ hasText: kwame }).waitFor();
    await fillApplicant(school, { first: kofi, last: 'Asante', dob: '2007-02-03', start: 12, end: 45 });
    await school.getByRole('button', { name: t('order.add.submit') }).click();
    await school.getByTestId('applicant-row').filter({ hasText: kofi }).waitFor();
    expect(await school.getByTestId('applicant-row').count()).toBe(3);
    await screenshots(school, 'order-add-list');
  });

  it('shows the fee of each applicant and the total', async () => {
    await school.getByRole('link', { name: t('order.add.continue') }).click();
    await waitForPath(school, '/insureds/new/fees');
    await hydrated(school);
    const rows = school.getByTestId('fee-row');
    expect(await rows.count()).toBe(3);
    let sum = 0;
    for (let i = 0; i < 3; i++) {
      const total = amount(await rows.nth(i).locator('td').nth(4).innerText());
      expect(total).toBeGreaterThan(0);
      sum += total;
    }
    const footer = school.getByTestId('fees-total');
    expect(await footer.innerText()).toContain(t('order.fees.sum', 'en', { count: 3 }));
    expect(amount(await footer.locator('td').nth(2).innerText())).toBeCloseTo(sum, 2);
    expect(await footer.innerText()).toContain('GBP');
    await screenshots(school, 'order-fees');
  });

  it('assigns the group leader to the student', async () => {
    await school.getByRole('link', { name: t('order.fees.continue') }).click();
    await waitForPath(school, '/insureds/new/group-leader');
    await hydrated(school);
    expect(
      await school.getByLabel(t('order.group_leader.leader')).locator('option:checked').innerText(),
    ).toContain(kwame);
    await school.getByRole('checkbox', { name: new RegExp(`^${ama} Mensah`) }).check();
    await screenshots(school, 'order-group-leader');
    await school.getByRole('button', { name: t('order.group_leader.submit') }).click();
    await school.getByText(t('order.group_leader.current', 'en', { name: `${kwame} Boateng` })).waitFor();
  });

  it('reviews the order, asks for welcome emails and puts it in the cart', async () => {
    await school.getByRole('link', { name: t('order.group_leader.continue') }).click();
    await waitForPath(school, '/insureds/new/review');
    await hydrated(school);
    const row = school.getByTestId('applicant-row').filter({ hasText: ama });
    expect(await row.innerText()).toContain(t('order.table.leader', 'en', { name: `${kwame} Boateng` }));
    await school.getByLabel(t('order.review.welcome')).check();
    await screenshots(school, 'order-review');
    await school.getByRole('button', { name: t('order.review.add_to_cart') }).click();
    await waitForPath(school, '/cart');
    await hydrated(school);
    await expectAnnounced(school, t('cart.added'));
    expect(await badge(school)).toBe(before + 3);
    const rows = school.getByTestId('cart-row');
    await rows.filter({ hasText: ama }).waitFor();
    await rows.filter({ hasText: kwame }).waitFor();
    expect(await school.getByTestId('cart-batches').innerText()).toContain(
      `${t('cart.batches.welcome')}: ${t('cart.batches.sent')}`,
    );
    await school.getByText(t('cart.clearing', 'en', { time: '23:00', when: '' }).split('.')[0]!).waitFor();
    await screenshots(school, 'cart');
  });

  it('deletes one applicant from the cart, and the badge follows', async () => {
    await school
      .getByRole('checkbox', { name: t('cart.enrollments.select', 'en', { name: `${kwame} Boateng` }) })
      .check();
    await clickAndConfirm(school.getByRole('button', { name: t('cart.enrollments.delete') }));
    await school
      .getByText(t('cart.deleted', 'en', { count: 1 }))
      .first()
      .waitFor();
    await expect.poll(() => school.getByTestId('cart-row').filter({ hasText: kwame }).count()).toBe(0);
    expect(await school.getByTestId('cart-row').filter({ hasText: ama }).count()).toBe(1);
    expect(await badge(school)).toBe(before + 2);
    await screenshots(school, 'cart-after-delete');
  });

  it('checks out the two applicants paying by bank transfer and sees where to pay', async () => {
    await school
      .getByRole('link', { name: t('cart.checkout') })
      .first()
      .click();
    await waitForPath(school, '/cart/checkout');
    await hydrated(school);
    await school.locator('input[name="payment_method"][value="bank_transfer"]').check();
    await school.getByRole('button', { name: t('checkout.confirm') }).click();
    await waitForPath(school, /^\/payment\/bank-transfer\/pay-invoice\/[a-z0-9]+\/start$/);
    await hydrated(school);
    await school.getByTestId('bank-transfer-pending').waitFor();
    expect(await school.getByTestId('bank-reference').innerText()).toMatch(/^INV\d{7}-[A-Z0-9]{4}$/);
    expect(await badge(school)).toBe(0);
    await school.getByRole('link', { name: t('checkout.bank.view_order') }).click();
    await waitForPath(school, /^\/insureds\/[a-z0-9]+\/confirmation$/);
    await hydrated(school);
    const number = await school.getByTestId('invoice-number').innerText();
    await school.getByText(t('checkout.confirmation.intro', 'en', { number, count: 2 })).waitFor();
    const policies = await school.getByRole('table', { name: t('checkout.policies.caption') }).innerText();
    expect(policies).toContain(ama);
    expect(policies).toContain(kofi);
    expect(policies).not.toContain(kwame);
  });
});

describe('ordering on behalf of a client as staff', () => {
  let staff: Page;
  const name = `Nia${suffix}`;

  beforeAll(async () => {
    staff = await newPage(browser, BASE);
    await signIn(staff, 'senior.admin@demo.test');
    // The top-bar company is stored on the user: start from the seeded one, whatever ran before.
    await selectCompany(staff);
  });

  it('chooses the client, its campus and a product, and orders an applicant into the cart', async () => {
    await visit(staff, '/insureds/order');
    const before = await badge(staff);
    await staff
      .getByLabel(t('order.client'), { exact: true })
      .selectOption({ label: 'Oakwood International School' });
    await staff
      .getByLabel(t('order.campus'), { exact: true })
      .locator('option', { hasText: 'Oakwood South Campus' })
      .waitFor({ state: 'attached' });
    await hydrated(staff);
    await chooseCampus(staff, 'Oakwood South Campus');
    await screenshots(staff, 'order-staff-choose');
    await staff.getByRole('button', { name: new RegExp(t('order.one_by_one')) }).click();
    await waitForPath(staff, '/insureds/new/add');
    await hydrated(staff);
    expect(await staff.getByText('Oakwood South Campus').first().isVisible()).toBe(true);
    await fillApplicant(staff, { first: name, last: 'Owusu', dob: '2005-03-04', start: 5, end: 60 });
    await staff.getByRole('button', { name: t('order.add.submit') }).click();
    await staff.getByTestId('applicant-row').filter({ hasText: name }).waitFor();
    await staff.getByRole('link', { name: t('order.add.continue') }).click();
    await waitForPath(staff, '/insureds/new/fees');
    await staff.getByRole('link', { name: t('order.fees.continue') }).click();
    await waitForPath(staff, '/insureds/new/group-leader');
    await staff.getByText(t('order.group_leader.none')).waitFor();
    await staff.getByRole('link', { name: t('order.group_leader.continue') }).click();
    await waitForPath(staff, '/insureds/new/review');
    await hydrated(staff);
    await staff.getByRole('button', { name: t('order.review.add_to_cart') }).click();
    await waitForPath(staff, '/cart');
    await hydrated(staff);
    const row = staff.getByTestId('cart-row').filter({ hasText: name });
    await row.waitFor();
    expect(await row.innerText()).toContain('Oakwood South Campus');
    expect(await badge(staff)).toBe(before + 1);
    await screenshots(staff, 'cart-staff');
  });

  it('checks out for the client, whose monthly terms issue on account, invoiced when the month ends', async () => {
    await visit(staff, '/cart/checkout');
    await staff
      .getByText(t('checkout.for_client', 'en', { client: 'Oakwood International School' }))
      .waitFor();
    // The client pays monthly by invoice: the invoice choice is offered first, and issues on account
    // (periodic invoicing), invoiced with the month's other policies.
    expect(await staff.locator('input[name="payment_method"]:checked').getAttribute('value')).toBe(
      'invoiced_directly',
    );
    await staff.getByRole('button', { name: t('checkout.confirm') }).click();
    await waitForPath(staff, '/cart/checkout');
    await hydrated(staff);
    await staff.getByRole('heading', { name: t('checkout.on_account.title') }).waitFor();
    expect(await staff.getByTestId('on-account-batches').innerText()).toContain('Oakwood South Campus');
    await screenshots(staff, 'confirmation-staff');
  });
});
