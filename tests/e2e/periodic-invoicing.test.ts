/**
 * Periodic invoicing in the browser: the demo school (Oakwood, on monthly terms) checks out choosing
 * the invoice and is told its policies are issued on account and when they will be invoiced; finance
 * opens the client's generate-invoices page, previews what is on account this month per campus, issues
 * the invoices, and the preview is then empty (a policy is invoiced once). Then the school orders on
 * account for its south campus, and finance invoices that campus alone from the campus's own
 * generate-invoices page (campuses/{id}/generate-invoices), reached from the campus's invoices.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { hydrated, launchBrowser, newPage, screenshots, signIn, visit, waitForPath } from './support/browser';
import { t } from './support/i18n';
import { UK_URL } from './support/servers';

const BASE = UK_URL;
const SCHOOL = 'school.admin@demo.test';
const FINANCE = 'finance@demo.test';

let browser: Browser;

function devSecret(): string {
  const vars = readFileSync(join(inject('appDir'), '.dev.vars'), 'utf8');
  return vars.match(/^SESSION_SECRET=(.*)$/m)![1].trim();
}

async function fillCart(email: string, applicants: number, firstNames: string[], campus?: string) {
  const res = await fetch(`${BASE.replace('localhost', '127.0.0.1')}/__dev/ordering/open-batch`, {
    method: 'POST',
    headers: { 'x-dev-secret': devSecret(), 'content-type': 'application/json' },
    body: JSON.stringify({ email, applicants, first_names: firstNames, campus }),
  });
  if (!res.ok) throw new Error(`open-batch answered ${res.status}: ${await res.text()}`);
}

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('periodic invoicing', () => {
  let school: Page;
  let finance: Page;

  it('a school on monthly terms checks out on account and is told when it will be invoiced', async () => {
    school = await newPage(browser, BASE);
    await signIn(school, SCHOOL);
    await fillCart(SCHOOL, 2, ['Periodo', 'Mensual']);
    await visit(school, '/cart/checkout');
    const invoice = school.locator('input[name="payment_method"][value="invoiced_directly"]');
    expect(await invoice.isChecked()).toBe(true);
    const option = school.locator('label[for="payment_method_invoiced_directly"]');
    expect(await option.innerText()).toContain(t('checkout.payment.on_account').split('{{')[0]);
    await school.getByRole('button', { name: t('checkout.confirm') }).click();
    await waitForPath(school, '/cart/checkout');
    await hydrated(school);
    await school.getByRole('heading', { name: t('checkout.on_account.title') }).waitFor();
    const batches = await school.getByTestId('on-account-batches').innerText();
    expect(batches).toContain('Oakwood');
    expect(batches).toMatch(/\d{2}\/\d{2}\/\d{4}/);
    await screenshots(school, 'checkout-on-account');
  });

  it('finance previews what is on account for the month and issues the invoices once', async () => {
    finance = await newPage(browser, BASE);
    await signIn(finance, FINANCE);
    await visit(finance, '/clients?tab=active');
    await finance.getByRole('link', { name: 'Oakwood International School' }).first().click();
    await waitForPath(finance, /^\/clients\/[a-z0-9]+/);
    const clientId = new URL(finance.url()).pathname.split('/')[2];
    await visit(finance, `/clients/${clientId}/generate-invoices`);
    expect(await finance.locator('h1').innerText()).toBe(t('taxes.generate.title'));
    const table = finance.getByRole('table', { name: t('taxes.generate.caption') });
    await table.waitFor();
    expect(await table.innerText()).toContain('Oakwood');
    expect(await finance.getByText(t('taxes.generate.rules.by_location')).count()).toBe(1);
    await screenshots(finance, 'generate-invoices');

    await finance
      .getByRole('button', {
        name: new RegExp(t('taxes.generate.confirm', 'en', { count: 0 }).split(' (')[0]),
      })
      .click();
    await finance.getByText(t('taxes.generate.issued')).waitFor();
    await hydrated(finance);
    await finance.getByText(t('taxes.generate.empty')).waitFor();
    expect(
      await finance
        .getByRole('button', {
          name: new RegExp(t('taxes.generate.confirm', 'en', { count: 0 }).split(' (')[0]),
        })
        .count(),
    ).toBe(0);
  });

  it("finance invoices one campus's policies on account from the campus's own page", async () => {
    await fillCart(SCHOOL, 2, ['Sudcampus', 'Segundo'], 'Oakwood South Campus');
    await visit(school, '/cart/checkout');
    expect(await school.locator('input[name="payment_method"][value="invoiced_directly"]').isChecked()).toBe(
      true,
    );
    await school.getByRole('button', { name: t('checkout.confirm') }).click();
    await school.getByRole('heading', { name: t('checkout.on_account.title') }).waitFor();

    await visit(finance, '/clients?tab=active');
    await finance.getByRole('link', { name: 'Oakwood International School' }).first().click();
    await waitForPath(finance, /^\/clients\/[a-z0-9]+/);
    const clientId = new URL(finance.url()).pathname.split('/')[2];
    await visit(finance, `/clients/${clientId}/campuses`);
    await finance.getByRole('link', { name: 'Oakwood South Campus' }).first().click();
    await waitForPath(finance, /\/campuses\/[a-z0-9]+$/);
    const campusId = new URL(finance.url()).pathname.split('/')[4];
    await visit(finance, `/campuses/${campusId}/invoices`);
    await finance.getByRole('link', { name: t('invoices.actions.generate') }).click();
    await waitForPath(finance, `/campuses/${campusId}/generate-invoices`);
    await hydrated(finance);
    expect(await finance.locator('h1').innerText()).toBe(t('taxes.generate.title'));
    expect(await finance.locator('main').innerText()).toContain(
      t('taxes.generate.intro_campus', 'en', {
        campus: 'Oakwood South Campus',
        client: 'Oakwood International School',
      }),
    );
    const table = finance.getByRole('table', { name: t('taxes.generate.caption') });
    const rows = await table.innerText();
    expect(rows).toContain('Oakwood South Campus');
    expect(rows).not.toContain('Oakwood North Campus');
    await screenshots(finance, 'generate-invoices-campus');

    await finance
      .getByRole('button', {
        name: new RegExp(t('taxes.generate.confirm', 'en', { count: 0 }).split(' (')[0]),
      })
      .click();
    await finance.getByText(t('taxes.generate.issued')).waitFor();
    await hydrated(finance);
    await finance.getByText(t('taxes.generate.empty')).waitFor();
    await finance.getByRole('link', { name: t('taxes.generate.back_campus') }).click();
    await waitForPath(finance, `/clients/${clientId}/campuses/${campusId}`);
  });
});
