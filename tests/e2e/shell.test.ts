import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { HTML_LANG, LANGUAGES, localePath } from '../../app/i18n/config';
import {
  selectCompany,
  DESKTOP,
  PHONE,
  headingText,
  hydrated,
  launchBrowser,
  newContext,
  newPage,
  openAccountMenu,
  openPopup,
  pathOf,
  screenshots,
  signIn,
  visit,
  waitForPath,
} from './support/browser';
import { t } from './support/i18n';
import { UK_URL } from './support/servers';

const SENIOR = 'senior.admin@demo.test';
const ADMIN = 'admin@demo.test';
// drizzle/seed/demo.ts: senior.admin holds both UK companies, admin only the first.
const FIRST_COMPANY = 'Albion Student Insurance Ltd';
const SECOND_COMPANY = 'Britannia Travel Cover Ltd';
const WELCOME = 'Welcome to the portal';

let browser: Browser;
/** senior.admin, signed in once for the whole file. */
let senior: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  senior = await newPage(browser, UK_URL);
  await signIn(senior, SENIOR);
});
afterAll(async () => {
  await browser?.close();
});

describe('company area', () => {
  it('offers a user with two companies a dropdown led by "all companies", and keeps the choice', async () => {
    const page = senior;
    await visit(page, '/home');
    const switcher = page.getByTestId('company-area').getByRole('button');
    const options = page.getByRole('option');
    await openPopup(switcher, options);
    // Other browser tests may add companies to this user (a company a user creates includes them), so
    // the list is checked for its head and the seeded companies in order, not for its full length.
    const texts = await options.allInnerTexts();
    expect(texts[0]).toBe(t('shell.all_companies'));
    expect(texts.filter((x) => x === FIRST_COMPANY || x === SECOND_COMPANY)).toEqual([
      FIRST_COMPANY,
      SECOND_COMPANY,
    ]);
    const second = options.filter({ hasText: SECOND_COMPANY });

    const saved = page.waitForResponse((r) => r.url().includes('/actions/select-company'));
    await second.click();
    expect((await saved).ok()).toBe(true);
    await expect.poll(() => switcher.innerText()).toContain(SECOND_COMPANY);

    await page.reload();
    await hydrated(page);
    expect(await switcher.innerText()).toContain(SECOND_COMPANY);
    await openPopup(switcher, options);
    expect(await second.getAttribute('aria-selected')).toBe('true');
    expect(await options.nth(0).getAttribute('aria-selected')).toBe('false');
    await page.keyboard.press('Escape');
    await screenshots(page, 'shell-home-senior');
    // Back to the seeded choice for the browser tests that follow.
    await selectCompany(page, FIRST_COMPANY);
  });

  it('shows a user with one company its name as text, without a dropdown', async () => {
    const page = await newPage(browser, UK_URL);
    await signIn(page, ADMIN);
    await visit(page, '/home');
    const area = page.getByTestId('company-area');
    expect(await area.innerText()).toContain(FIRST_COMPANY);
    expect(await area.getByRole('button').count()).toBe(0);
    expect(await page.getByRole('listbox').count()).toBe(0);
    await page.context().close();
  });
});

describe('notifications', () => {
  it('shows the unread badge, lists the notification when opened, and drops the badge after reload', async () => {
    const page = senior;
    await visit(page, '/home');
    const bell = page.getByTestId('notifications-button');
    const badge = bell.locator('span');
    expect(await badge.innerText(), 'unread badge (the seed sends a welcome notification)').toMatch(
      /^[1-9]\d*$/,
    );
    const unread = Number(await badge.innerText());
    expect(await bell.getAttribute('aria-label')).toBe(
      t('shell.notifications_unread', 'en', { shown: unread }),
    );

    const marked = page.waitForResponse((r) => r.url().includes('/actions/notifications-read'));
    const list = page.getByTestId('notifications-list');
    await openPopup(bell, list);
    expect(await list.innerText()).toContain(WELCOME);
    expect((await marked).ok()).toBe(true);
    await screenshots(page, 'shell-notifications', ['desktop']);

    await page.reload();
    await hydrated(page);
    expect(await badge.count(), 'no badge once read').toBe(0);
    expect(await bell.getAttribute('aria-label')).toBe(t('shell.notifications_unread', 'en', { shown: 0 }));
  });
});

describe('languages', () => {
  it('switches through all eight languages with the globe button: prefix, html lang and texts change', async () => {
    const page = senior;
    await page.setViewportSize(DESKTOP);
    await visit(page, '/notifications');
    let current = 'en';
    try {
      for (const lng of [...LANGUAGES.filter((l) => l !== 'en'), 'en'] as const) {
        const choice = page.locator(`button[data-lang="${lng}"]`);
        await openPopup(page.getByRole('button', { name: t('shell.language', current) }), choice);
        await choice.click();
        try {
          await waitForPath(page, localePath(lng, '/notifications'), 20_000);
        } catch {
          throw new Error(
            `Choosing ${lng} in the language menu on ${pathOf(page)} did not reload the page under /${lng}`,
          );
        }
        await hydrated(page);
        expect(await page.locator('html').getAttribute('lang'), lng).toBe(HTML_LANG[lng]);
        expect(await headingText(page), lng).toBe(t('notifications.title', lng));
        current = lng;
      }
      expect(pathOf(page)).toBe('/notifications');
    } finally {
      // Leave senior.admin in English for the other tests whatever happened.
      if (current !== 'en') await page.goto('/notifications');
    }
  });

  it('serves every page under each language prefix with its html lang and texts', async () => {
    const page = senior;
    for (const lng of LANGUAGES) {
      const response = await page.goto(localePath(lng, '/notifications'));
      expect(response?.status(), lng).toBe(200);
      expect(pathOf(page), lng).toBe(localePath(lng, '/notifications'));
      expect(await page.locator('html').getAttribute('lang'), lng).toBe(HTML_LANG[lng]);
      expect(await headingText(page), lng).toBe(t('notifications.title', lng));
      expect(
        await page
          .getByRole('button', { name: `${t('shell.language', lng)}: ${lng.toUpperCase()}`, exact: true })
          .count(),
        lng,
      ).toBe(1);
    }
  });

  it('answers an unknown language prefix with the 404 page when signed in', async () => {
    const response = await senior.goto('/xx/home');
    expect(response?.status()).toBe(404);
    expect(await headingText(senior)).toBe('Page Not Found!');
  });

  it('answers an unknown language prefix with the 404 page to a visitor who is not signed in', async () => {
    const page = await newPage(browser, UK_URL);
    const response = await page.goto('/xx/home');
    expect(pathOf(page), 'stays on the unknown address').toBe('/xx/home');
    expect(response?.status()).toBe(404);
    expect(await headingText(page)).toBe('Page Not Found!');
    await page.context().close();
  });

  it('sends / to the language remembered in the i18n_redirected cookie', async () => {
    const context = await newContext(browser, UK_URL);
    await context.addCookies([{ name: 'uk_i18n_redirected', value: 'de', url: UK_URL }]);
    const guest = await context.newPage();
    await guest.goto('/');
    expect(pathOf(guest)).toBe('/de/auth/login');
    expect(await guest.locator('html').getAttribute('lang')).toBe(HTML_LANG.de);
    await context.close();

    await senior.context().addCookies([{ name: 'uk_i18n_redirected', value: 'de', url: UK_URL }]);
    await senior.goto('/');
    expect(pathOf(senior)).toBe('/de/home');
    await senior.context().addCookies([{ name: 'uk_i18n_redirected', value: 'en', url: UK_URL }]);
  });
});

describe('account controls', () => {
  it('puts the account controls in the drawer at phone size', async () => {
    const page = senior;
    await page.setViewportSize(PHONE);
    await visit(page, '/home');
    expect(await page.getByTestId('avatar').isVisible(), 'no avatar in the phone top bar').toBe(false);
    // The drawer is a dialog; the desktop sidebar (hidden at this size) holds another drawer-account.
    const drawer = page.getByRole('dialog').getByTestId('drawer-account');
    await openPopup(page.getByTestId('menu-toggle'), drawer);
    const text = await drawer.innerText();
    expect(text).toContain('Sarah Senior');
    expect(text).toContain(SENIOR);
    for (const name of [t('shell.go_to_ireland'), t('shell.logout')]) {
      expect(await drawer.getByRole('button', { name }).isVisible(), name).toBe(true);
    }
    expect(await drawer.getByRole('link', { name: t('shell.account_details') }).isVisible()).toBe(true);
    expect(await page.getByRole('dialog').getByTestId('side-menu').isVisible()).toBe(true);
    await screenshots(page, 'shell-drawer', ['phone']);
    await page.setViewportSize(DESKTOP);
  });

  it('offers the avatar menu entries as menu items (screen readers, arrow keys)', async () => {
    const page = senior;
    await page.setViewportSize(DESKTOP);
    await visit(page, '/home');
    const menu = await openAccountMenu(page);
    const items = await menu.getByRole('menuitem').allInnerTexts();
    expect(items.map((s) => s.trim())).toEqual([
      t('shell.go_to_ireland'),
      t('shell.account_details'),
      t('shell.my_documents'),
      t('shell.logout'),
    ]);
    await page.keyboard.press('Escape');
  });
});
