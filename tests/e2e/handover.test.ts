import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import {
  accountMenuEntry,
  headingText,
  hydrated,
  launchBrowser,
  newPage,
  openAccountMenu,
  pathOf,
  screenshots,
  signIn,
  visit,
  waitForPath,
} from './support/browser';
import { t } from './support/i18n';
import { IE_URL, UK_URL } from './support/servers';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('switching region (UK to Ireland)', () => {
  let handoverUrl = '';

  it('takes senior.admin from the UK avatar menu to Ireland, signed in, on the same page', async () => {
    const page = await newPage(browser, UK_URL);
    await signIn(page, 'senior.admin@demo.test');
    await visit(page, '/notifications');
    expect(await page.getByText(t('footer.uk')).isVisible(), 'UK footer before').toBe(true);

    await openAccountMenu(page);
    const goToIreland = accountMenuEntry(page, t('shell.go_to_ireland'));
    expect(await goToIreland.isVisible()).toBe(true);
    const tokenRequest = page.waitForRequest((r) => r.url().startsWith(`${IE_URL}/auth/token/`));
    await goToIreland.click();
    handoverUrl = (await tokenRequest).url();

    await page.waitForURL((url) => url.origin === IE_URL && url.pathname === '/notifications');
    await hydrated(page);
    expect(await headingText(page)).toBe(t('notifications.title'));
    expect(await page.getByTestId('avatar').innerText(), 'signed in on Ireland').toBe('SS');
    expect(await page.getByText(t('footer.ie')).isVisible(), 'Ireland footer').toBe(true);
    expect(await page.getByTestId('company-area').innerText()).toContain('Emerald Student Cover Ltd');

    await openAccountMenu(page);
    expect(await accountMenuEntry(page, t('shell.go_to_uk')).isVisible(), 'and back: "Go to UK"').toBe(true);
    await page.keyboard.press('Escape');
    await screenshots(page, 'handover-ireland-notifications');
    await page.context().close();
  });

  it('refuses the same hand-over address a second time with a clear message', async () => {
    expect(handoverUrl).toContain('otherUserToken=');
    const page = await newPage(browser, IE_URL);
    await page.goto(handoverUrl);
    await hydrated(page);
    expect(pathOf(page)).toMatch(/^\/auth\/token\//);
    expect(await headingText(page)).toBe(t('auth.handover_title'));
    expect(await page.getByRole('alert').innerText()).toBe(t('auth.handover_invalid'));
    expect(await page.getByRole('link', { name: t('auth.go_to_login') }).isVisible()).toBe(true);
    await screenshots(page, 'handover-reused');
    await page.goto('/home');
    await waitForPath(page, '/auth/login');
    await page.context().close();
  });

  it('offers no region switch to a user without access to the other region', async () => {
    const page = await newPage(browser, UK_URL);
    await signIn(page, 'admin@demo.test');
    await visit(page, '/home');
    const menu = await openAccountMenu(page);
    expect(await menu.innerText()).toContain(t('shell.account_details'));
    expect(await accountMenuEntry(page, t('shell.go_to_ireland')).count()).toBe(0);
    expect(await accountMenuEntry(page, t('shell.go_to_uk')).count()).toBe(0);
    expect(await page.locator('form[action="/actions/handover"]').count()).toBe(0);
    await page.context().close();
  });
});
