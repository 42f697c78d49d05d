import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { headingText, launchBrowser, newPage, screenshots } from './support/browser';
import { t } from './support/i18n';
import { MAINTENANCE_URL, UK_URL } from './support/servers';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('error pages', () => {
  // Spec texts, asserted exactly.
  const NOT_FOUND = 'Page Not Found!';
  const GO_HOME = 'Go to HomePage';
  const MAINTENANCE_PAGE =
    'Our website is currently undergoing scheduled maintenance. Please check back later.';
  const MAINTENANCE_API = 'Service is currently under maintenance. Please try again later.';

  for (const [name, path] of [
    ['not-found', '/this-does-not-exist'],
    ['not-found-nested', '/this/does-not-exist'],
    // A guest at a page under a prefix that is no language: not found, not sent to the login page.
    ['not-found-prefix', '/xx/home'],
  ] as const) {
    it(`answers ${path} with "${NOT_FOUND}", a way home, and status 404`, async () => {
      const page = await newPage(browser, UK_URL);
      const response = await page.goto(path);
      await screenshots(page, name);
      expect(response?.status()).toBe(404);
      expect(await headingText(page)).toBe(NOT_FOUND);
      const home = page.getByRole('link', { name: GO_HOME });
      expect(await home.isVisible(), `the "${GO_HOME}" link`).toBe(true);
      expect(new URL((await home.getAttribute('href'))!, UK_URL).pathname).toBe('/home');
      await page.context().close();
    });
  }

  it('answers every page with the 503 maintenance page while the switch is on', async () => {
    const page = await newPage(browser, MAINTENANCE_URL);
    for (const path of ['/', '/auth/login', '/home', '/de/home']) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(503);
      // English pages carry the spec's text; a language prefix gets that language's text.
      const expected = path.startsWith('/de/') ? t('error.maintenance', 'de') : MAINTENANCE_PAGE;
      expect(await page.locator('body').innerText(), path).toContain(expected);
    }
    await page.goto('/auth/login');
    await screenshots(page, 'maintenance');
    await page.context().close();
  });

  it('answers the API with the maintenance message and 503 while the switch is on', async () => {
    const page = await newPage(browser, MAINTENANCE_URL);
    const response = await page.context().request.get('/api/company/auth/get');
    expect(response.status()).toBe(503);
    expect((await response.json()).message).toBe(MAINTENANCE_API);
    await page.context().close();
  });
});
