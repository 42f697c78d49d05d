/**
 * The messages an action leaves (docs/page-kit.md, "A toast"): without JavaScript the message sits in the
 * page's flow under its heading, lets the field under it be clicked and can be dismissed; a message that
 * comes with data (a new API key's "copy it now") shows on the page that carries the key, not one page
 * later. With JavaScript the floating message lets every click through.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { hydrated, launchBrowser, newPage, PHONE, signIn, visit, plainPageLike } from './support/browser';
import { t } from './support/i18n';
import { UK_URL } from './support/servers';

const SCHOOL = 'school.admin@demo.test';
const tag = `MSG${Date.now().toString(36).toUpperCase().slice(-6)}`;

let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  page = await newPage(browser, UK_URL);
  await signIn(page, SCHOOL);
  await visit(page, '/api-keys');
});
afterAll(async () => {
  await browser?.close();
});

/** A page of a browser without JavaScript, signed in as the same person. */
const withoutScripts = (viewport = { width: 1366, height: 900 }) => plainPageLike(page, viewport);

/** Fills the "generate a key" form with one permission and sends it. */
async function generateKey(p: Page, name: string) {
  await p.getByLabel(t('api_keys.fields.name'), { exact: true }).fill(name);
  await p.getByRole('checkbox').first().check();
  await p.getByRole('button', { name: t('api_keys.generate'), exact: true }).click();
}

const flowToast = (p: Page) => p.getByTestId('flow-toast');

describe('messages without JavaScript', () => {
  it('shows a new key and its "copy it now" on the same page, once', async () => {
    const plain = await withoutScripts();
    await plain.goto('/api-keys');
    await generateKey(plain, `${tag} plain`);
    await plain.getByTestId('new-api-key').waitFor();
    expect(await plain.getByTestId('new-api-key').getByRole('textbox').inputValue()).toMatch(/\S{20,}/);
    expect(await flowToast(plain).getByRole('status').innerText()).toBe(t('api_keys.generated'));
    // The next page does not say it again.
    await plain.goto('/api-keys');
    expect(await flowToast(plain).count()).toBe(0);
    expect(await plain.getByText(t('api_keys.generated')).count()).toBe(0);
    await plain.context().close();
  });

  it('puts the message in the page flow, under the heading, where the field under it can be clicked and it can be dismissed', async () => {
    for (const viewport of [{ width: 1366, height: 900 }, PHONE]) {
      const plain = await withoutScripts(viewport);
      await plain.goto('/api-keys');
      await generateKey(plain, `${tag} ${viewport.width}`);
      const message = flowToast(plain);
      await message.waitFor();
      expect(await message.evaluate((e) => getComputedStyle(e).position)).toBe('static');
      const heading = (await plain.getByRole('heading', { level: 1 }).boundingBox())!;
      const box = (await message.boundingBox())!;
      expect(box.y).toBeGreaterThanOrEqual(heading.y + heading.height);
      // Scrolled to the top, the message sits where the page put it and the field under it takes a click
      // (Playwright refuses to click an element that another one covers).
      const name = plain.getByLabel(t('api_keys.fields.name'), { exact: true });
      await name.click();
      await name.fill('typed');
      expect(await name.inputValue()).toBe('typed');

      const dismiss = plain.getByTestId('flow-toast-dismiss');
      expect(await dismiss.innerText()).toContain(t('shell.dismiss_message'));
      await dismiss.click();
      expect(await message.getByRole('status').isVisible()).toBe(false);
      expect(await dismiss.isVisible()).toBe(false);
      // The key stays on the page.
      expect(await plain.getByTestId('new-api-key').getByRole('textbox').isVisible()).toBe(true);
      await plain.context().close();
    }
  });
});

describe('messages with JavaScript', () => {
  it('floats the message of a form the page sent without catching a click', async () => {
    await visit(page, '/api-keys');
    await generateKey(page, `${tag} scripted`);
    await page.getByTestId('new-api-key').waitFor();
    const snack = page
      .locator('[aria-live="polite"] [role="status"]')
      .filter({ hasText: t('api_keys.generated') });
    // Read while it shows (a few seconds): it is not in the flow and takes no click or tap.
    const styles = await snack
      .first()
      .evaluate((e) => [
        getComputedStyle(e).pointerEvents,
        getComputedStyle(e.parentElement!).pointerEvents,
        getComputedStyle(e.parentElement!).position,
      ]);
    expect(styles).toEqual(['none', 'none', 'fixed']);
    expect(await flowToast(page).count()).toBe(0);
    await hydrated(page);
  });
});
