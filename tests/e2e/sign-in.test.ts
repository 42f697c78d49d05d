import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  accountMenuEntry,
  enterEmail,
  enterPassword,
  enterPin,
  hydrated,
  launchBrowser,
  newestMessage,
  newPage,
  openAccountMenu,
  pathOf,
  readPin,
  screenshots,
  visit,
  waitForPath,
} from './support/browser';
import { t } from './support/i18n';
import { DEMO_PASSWORD, UK_URL } from './support/servers';

const SENIOR = 'senior.admin@demo.test';

let browser: Browser;
let page: Page;
beforeAll(async () => {
  browser = await launchBrowser();
  page = await newPage(browser, UK_URL);
});
afterAll(async () => {
  await browser?.close();
});

// One browser session through the whole story: the steps depend on each other.
describe('signing in with email, password and the emailed PIN', () => {
  let pin = '';

  it('asks for the email, then the password, then the PIN sent by email', async () => {
    await visit(page, '/auth/login');
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(t('auth.login_title'));
    await screenshots(page, 'auth-login');

    await enterEmail(page, SENIOR);
    expect(pathOf(page)).toBe('/auth/login-pwd');
    expect(await page.getByText(SENIOR).first().isVisible()).toBe(true);
    await screenshots(page, 'auth-login-pwd');

    pin = await enterPassword(page, SENIOR);
    expect(pin).toMatch(/^\d{6}$/);
    expect(pathOf(page)).toBe('/auth/pin-otp');
    await screenshots(page, 'auth-pin-otp');
  });

  it('refuses a wrong PIN with an error and stays on the PIN step', async () => {
    const wrong = pin.slice(0, 5) + String((Number(pin[5]) + 1) % 10);
    await enterPin(page, wrong);
    const error = page.getByText(t('auth.pin_invalid'));
    await error.waitFor();
    expect(await error.isVisible()).toBe(true);
    expect(pathOf(page)).toBe('/auth/pin-otp');
    expect(await page.getByLabel(t('auth.pin')).getAttribute('aria-invalid')).toBe('true');
  });

  it('accepts the right PIN and lands on /home', async () => {
    await enterPin(page, pin);
    await waitForPath(page, '/home');
    await hydrated(page);
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).innerText())
      .toBe(t('home.welcome', 'en', { name: 'Sarah' }));
    expect(await page.getByTestId('avatar').innerText()).toBe('SS');
    await screenshots(page, 'home');
  });

  it('sends a signed-in visitor of /auth/login to /home', async () => {
    await page.goto('/auth/login');
    expect(pathOf(page)).toBe('/home');
  });

  it('signs out from the avatar menu, after which /home goes to the login page', async () => {
    await hydrated(page);
    await openAccountMenu(page);
    await accountMenuEntry(page, t('shell.logout')).click();
    await waitForPath(page, '/auth/login');
    await page.goto('/home');
    expect(pathOf(page)).toBe('/auth/login');
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(t('auth.login_title'));
  });
});

describe('the sign-in pages without scripts', () => {
  it('serve the three sign-in steps as plain HTML: no script at all', async () => {
    const guest = await newPage(browser, UK_URL);
    try {
      await visit(guest, '/auth/login');
      expect(await guest.locator('script').count()).toBe(0);
      expect(await guest.locator('link[rel="modulepreload"]').count()).toBe(0);
      await enterEmail(guest, SENIOR);
      expect(await guest.locator('script').count()).toBe(0);
      await enterPassword(guest, SENIOR);
      expect(pathOf(guest)).toBe('/auth/pin-otp');
      expect(await guest.locator('script').count()).toBe(0);
    } finally {
      await guest.context().close();
    }
  });

  it('says what is wrong from the server, in place (a wrong password)', async () => {
    const guest = await newPage(browser, UK_URL);
    try {
      // An address with no account: the same answer as a wrong password, and no one's attempts counted.
      await enterEmail(guest, 'nobody@demo.test');
      await guest.getByLabel(t('auth.password'), { exact: true }).fill('not-the-password-1');
      await guest.getByRole('button', { name: t('auth.sign_in') }).click();
      const error = guest.getByText(t('auth.invalid_credentials'));
      await error.waitFor();
      await hydrated(guest);
      expect(pathOf(guest)).toBe('/auth/login-pwd');
      expect(await guest.getByLabel(t('auth.password'), { exact: true }).getAttribute('aria-invalid')).toBe(
        'true',
      );
      await screenshots(guest, 'auth-login-pwd-error');
    } finally {
      await guest.context().close();
    }
  });

  it('opens the help in place with its choices and the contact form, by links', async () => {
    const guest = await newPage(browser, UK_URL);
    try {
      await visit(guest, '/auth/login');
      const help = guest.getByRole('region', { name: t('login_help.title') });
      expect(await help.count()).toBe(0);
      await guest.getByRole('link', { name: t('login_help.button') }).click();
      await help.waitFor();
      await hydrated(guest);
      expect(await help.getByText(t('login_help.contact_us'), { exact: true }).isVisible()).toBe(true);
      await help.getByRole('link', { name: new RegExp(t('login_help.contact_us')) }).click();
      await guest.getByLabel(t('login_help.reason')).waitFor();
      await hydrated(guest);
      await screenshots(guest, 'auth-login-help');
      await help.getByRole('link', { name: t('common.close') }).click();
      await help.waitFor({ state: 'detached' });
      expect(pathOf(guest)).toBe('/auth/login');
    } finally {
      await guest.context().close();
    }
  });

  it('switches the language with a disclosure of plain forms', async () => {
    const guest = await newPage(browser, UK_URL);
    try {
      await visit(guest, '/auth/login');
      await guest.locator('summary', { hasText: 'EN' }).click();
      await guest.locator('button[data-lang="de"]').click();
      await waitForPath(guest, '/de/auth/login');
      await hydrated(guest);
      expect(await guest.getByRole('heading', { level: 1 }).innerText()).toBe(t('auth.login_title', 'de'));
    } finally {
      await guest.context().close();
    }
  });
});

describe('a forgotten password', () => {
  it('sends a pin for an email and goes on to the pin step, which names the email', async () => {
    const guest = await newPage(browser, UK_URL);
    try {
      await visit(guest, '/auth/forgot-password');
      expect(await guest.getByRole('heading', { level: 1 }).innerText()).toBe(
        t('password_reset.forgot_title'),
      );
      await guest.getByLabel(t('auth.email'), { exact: true }).fill(SENIOR);
      await guest.getByRole('button', { name: t('password_reset.send_pin') }).click();
      await waitForPath(guest, '/auth/reset-password');
      await hydrated(guest);
      expect(await guest.getByRole('heading', { level: 1 }).innerText()).toBe(
        t('password_reset.reset_title'),
      );
      expect(await guest.getByText(SENIOR).first().isVisible()).toBe(true);
    } finally {
      await guest.context().close();
    }
  });
});

describe('the security policy of pages and static files', () => {
  it("runs the page's scripts under a per-page nonce with no policy violation", async () => {
    const fresh = await newPage(browser, UK_URL);
    const violations: string[] = [];
    fresh.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    const first = await fresh.goto('/auth/login');
    await hydrated(fresh);
    const csp = first?.headers()['content-security-policy'] ?? '';
    const scripts = /script-src ([^;]*)/.exec(csp)?.[1] ?? '';
    expect(scripts).toMatch(/^'self' 'nonce-[A-Za-z0-9+/=]+'$/);
    expect(/form-action ([^;]*)/.exec(csp)?.[1]).not.toMatch(/https?:(\s|$)/);
    const second = await fresh.request.get('/auth/login');
    expect(second.headers()['content-security-policy']).not.toBe(csp);
    await enterEmail(fresh, SENIOR);
    expect(pathOf(fresh)).toBe('/auth/login-pwd');
    expect(violations).toEqual([]);
    await fresh.context().close();
  });

  it('serves static files (the favicon, /build/*) with the security headers of pages', async () => {
    const fresh = await newPage(browser, UK_URL);
    // A page with scripts (the sign-in steps have none).
    await fresh.goto('/privacy-notice');
    const script = await fresh
      .locator('link[rel="modulepreload"][href^="/build/"]')
      .first()
      .getAttribute('href');
    for (const path of ['/favicon.svg', script!]) {
      const headers = (await fresh.request.get(path)).headers();
      expect([path, headers['x-content-type-options']]).toEqual([path, 'nosniff']);
      expect([path, headers['x-frame-options']]).toEqual([path, 'DENY']);
      expect([path, headers['referrer-policy']]).toEqual([path, 'strict-origin-when-cross-origin']);
      expect(headers['content-security-policy']).toMatch(/default-src 'none'/);
    }
    await fresh.context().close();
  });
});

describe('resetting a forgotten password', () => {
  const WHO = 'external@demo.test';

  it('sends a PIN by email, sets the new password, and the sign-in page says it is done', async () => {
    const guest = await newPage(browser, UK_URL);
    try {
      await visit(guest, '/auth/forgot-password');
      const origin = new URL(guest.url()).origin;
      const before = await newestMessage(guest.context(), origin, WHO);
      await guest.getByLabel(t('auth.email')).fill(WHO);
      await guest.getByRole('button', { name: t('password_reset.send_pin') }).click();
      await waitForPath(guest, '/auth/reset-password');
      await hydrated(guest);
      const pin = await readPin(guest.context(), origin, WHO, before);
      await enterPin(guest, pin);
      await waitForPath(guest, '/auth/set-new-password');
      await hydrated(guest);
      // The demo password again, so the other tests still sign in as this user.
      await guest.getByLabel(t('password_reset.new_password'), { exact: true }).fill(DEMO_PASSWORD);
      await guest.getByLabel(t('password_reset.confirm_password')).fill(DEMO_PASSWORD);
      await guest.getByRole('button', { name: t('password_reset.save_password') }).click();
      await waitForPath(guest, '/auth/login');
      const done = guest.getByText(t('password_reset.done'));
      await done.waitFor();
      expect(await done.isVisible()).toBe(true);
      // The address carries no marker: the message came once, with the redirect.
      expect(new URL(guest.url()).search).toBe('');
      await enterEmail(guest, WHO);
      expect(await enterPassword(guest, WHO)).toMatch(/^\d{6}$/);
    } finally {
      await guest.context().close();
    }
  });
});
