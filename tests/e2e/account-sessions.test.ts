/**
 * Account details' sessions and the support view, as people use them: one person signed in twice ends
 * the other session; a password change signs the other sessions out; a senior admin views the portal as
 * a school user and stops.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  forgetSessions,
  hydrated,
  launchBrowser,
  newPage,
  screenshots,
  signIn,
  visit,
  waitForPath,
} from './support/browser';
import { t } from './support/i18n';
import { DEMO_PASSWORD, UK_URL } from './support/servers';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** The address shown on this device's row of the sessions list. */
async function ownAddress(page: Page): Promise<string> {
  await visit(page, '/account-details');
  await hydrated(page);
  const row = page.locator('[data-testid="session-row"][data-current]');
  const text = await row.innerText();
  const match = /(\d+\.\d+\.\d+\.\d+)/.exec(text);
  if (!match) throw new Error(`no address on this device's row: ${text}`);
  return match[1];
}

function sessionRow(page: Page, address: string) {
  return page.getByTestId('session-row').filter({ hasText: address });
}

async function changePassword(page: Page, from: string, to: string, signOutOthers: boolean) {
  await visit(page, '/account-details');
  await hydrated(page);
  await page.getByLabel(t('account.current_password')).fill(from);
  await page.getByLabel(t('account.new_password'), { exact: true }).fill(to);
  await page.getByLabel(t('account.confirm_password')).fill(to);
  const box = page.getByLabel(t('account.sign_out_others'));
  if ((await box.isChecked()) !== signOutOthers) await box.click();
  await page.getByRole('button', { name: t('account.update_password') }).click();
  await page
    .getByText(signOutOthers ? t('account.password_saved') : t('account.password_saved_kept'))
    .waitFor();
}

describe('account details: where you are signed in', () => {
  it('ends the session of another browser from the list; that browser’s next page goes to sign-in', async () => {
    const a = await newPage(browser, UK_URL);
    const b = await newPage(browser, UK_URL);
    // B signs in from an address of its own, so A can tell its row apart.
    await b.context().setExtraHTTPHeaders({ 'cf-connecting-ip': '10.231.7.42' });
    await signIn(a, 'executive@demo.test', { fresh: true });
    await signIn(b, 'executive@demo.test', { fresh: true });
    const addressOfB = await ownAddress(b);
    expect(addressOfB).toBe('10.231.7.42');

    await visit(a, '/account-details');
    await hydrated(a);
    expect(await a.locator('[data-testid="session-row"][data-current]').innerText()).toContain(
      t('account.sessions.this_device'),
    );
    const rowOfB = sessionRow(a, addressOfB);
    expect(await rowOfB.innerText()).toContain(
      t('account.sessions.device', 'en', { browser: 'Chrome', os: 'Linux' }),
    );
    await screenshots(a, 'account-details');
    await rowOfB.getByTestId('end-session').click();
    await a.getByText(t('account.sessions.ended')).waitFor();
    expect(await sessionRow(a, addressOfB).count()).toBe(0);

    await b.reload();
    await waitForPath(b, '/auth/login');
    // A's own session goes on.
    await visit(a, '/account-details');
    expect(new URL(a.url()).pathname).toBe('/account-details');
    await a.context().close();
    await b.context().close();
  });

  it('turns message-centre emails off and on again in the profile', async () => {
    const page = await newPage(browser, UK_URL);
    await signIn(page, 'finance@demo.test', { fresh: true });
    for (const wanted of [false, true]) {
      await visit(page, '/account-details');
      await hydrated(page);
      const box = page.getByLabel(t('account.message_emails'));
      expect(await box.isChecked()).toBe(!wanted);
      await box.click();
      await page
        .getByRole('button', { name: t('common.save') })
        .first()
        .click();
      await page.getByText(t('account.profile_saved')).waitFor();
      await visit(page, '/account-details');
      expect(await page.getByLabel(t('account.message_emails')).isChecked()).toBe(wanted);
    }
    await screenshots(page, 'account-details-message-emails');
    await page.context().close();
  });

  it('changes the password choosing to sign out the other sessions', async () => {
    const a = await newPage(browser, UK_URL);
    const b = await newPage(browser, UK_URL);
    await signIn(a, 'executive@demo.test', { fresh: true });
    await signIn(b, 'executive@demo.test', { fresh: true });
    await visit(b, '/home');
    const changed = 'Changed-Passw0rd!';
    await changePassword(a, DEMO_PASSWORD, changed, true);
    // Every other session of the account has ended, a session kept by an earlier file too.
    forgetSessions('executive@demo.test');
    await b.reload();
    await waitForPath(b, '/auth/login');
    // And back, keeping the other sessions this time: the demo password stays as the README says.
    await changePassword(a, changed, DEMO_PASSWORD, false);
    expect(new URL(a.url()).pathname).toBe('/account-details');
    await a.context().close();
    await b.context().close();
  });
});

describe('the support view', () => {
  it('a senior admin views the portal as a school user: the banner shows, the menu is theirs, stopping returns', async () => {
    const page = await newPage(browser, UK_URL);
    await signIn(page, 'senior.admin@demo.test', { fresh: true });
    await visit(page, '/home');
    const menu = page.getByTestId('side-menu');
    expect(await menu.locator('[data-menu-group="configurations"]').count(), 'admin menu').toBe(1);

    // From the school user's page in the users screens, its "View as" link.
    const schoolUserId = await schoolUserPublicId(page, 'campus.employee@demo.test');
    await visit(page, `/manage-users/school/${schoolUserId}`);
    await page.getByTestId('view-as-link').click();
    await waitForPath(page, `/support/view-as/${schoolUserId}`);
    await hydrated(page);
    expect(await page.locator('h1').innerText()).toBe(t('support.title'));
    await page.getByTestId('start-support-view').click();

    const banner = page.getByTestId('support-banner');
    await banner.waitFor();
    await hydrated(page);
    expect(await banner.innerText()).toContain(
      t('support.banner', 'en', { user: 'Carl Campus', client: 'Oakwood International School' }),
    );
    expect(await banner.innerText()).toContain(t('support.banner_detail', 'en', { admin: 'Sarah Senior' }));
    expect(await menu.locator('[data-menu-group="configurations"]').count(), 'school menu').toBe(0);
    expect(await menu.locator('[data-menu-item="clients"]').count()).toBe(0);
    expect(await page.getByTestId('avatar').innerText()).toBe('CC');
    await screenshots(page, 'support-banner');

    // Scrolled, the banner stays in view above the top bar; the watermark (top on a desktop, the end of
    // the page on a phone) covers neither the banner's words nor its button, nor the top bar.
    await visit(page, '/insureds');
    await hydrated(page);
    for (const [size, viewport] of [
      ['desktop', { width: 1366, height: 600 }],
      ['phone', { width: 390, height: 600 }],
    ] as const) {
      await page.setViewportSize(viewport);
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(50);
      const box = (await banner.boundingBox())!;
      expect(Math.round(box.y), `${size}: the banner at the top`).toBe(0);
      const header = (await page.locator('header').first().boundingBox())!;
      expect(Math.round(header.y), `${size}: the top bar right under it`).toBe(Math.round(box.height));
      const mark = page.getByTestId('watermark');
      if (await mark.count()) {
        if (size === 'phone')
          expect(
            await mark.evaluate((el) => getComputedStyle(el).position),
            'phone: the watermark in the flow of the page, over nothing',
          ).toBe('static');
        const m = (await mark.boundingBox())!;
        for (const part of [
          banner.locator('p'),
          page.getByTestId('stop-support-view'),
          page.locator('header').first(),
        ]) {
          const b = (await part.boundingBox())!;
          const overlaps =
            m.x < b.x + b.width && b.x < m.x + m.width && m.y < b.y + b.height && b.y < m.y + m.height;
          expect(overlaps, `${size}: the watermark over the banner or top bar`).toBe(false);
        }
      }
      await page.screenshot({
        path: `test-output/screenshots/support-banner-scrolled-${viewport.width}.png`,
      });
    }
    await page.setViewportSize({ width: 1280, height: 800 });

    // The user's account page can be looked at, not changed.
    await visit(page, '/account-details');
    await hydrated(page);
    expect(await page.getByText(t('account.support_view_notice')).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: t('account.update_password') }).count()).toBe(0);
    await screenshots(page, 'support-account-details', ['phone']);

    await page.getByTestId('stop-support-view').click();
    await waitForPath(page, `/support/view-as/${schoolUserId}`);
    await hydrated(page);
    expect(await page.getByTestId('support-banner').count()).toBe(0);
    expect(await page.getByTestId('avatar').innerText()).toBe('SS');
    expect(await menu.locator('[data-menu-group="configurations"]').count(), 'admin menu again').toBe(1);

    // The audit trail names what was done in the view as the admin on behalf of the user, in words.
    await visit(page, '/audit-trail?action=support_view_ended');
    const row = page
      .getByRole('row')
      .filter({ hasText: t('audit.actions.support_view_ended') })
      .first();
    await row.waitFor();
    expect(await row.textContent()).toContain(
      t('audit.on_behalf_of', 'en', { actor: 'Sarah Senior', user: 'Carl Campus' }),
    );
    expect(await row.textContent()).toContain('Carl Campus');
    await page.context().close();
  });
});

/**
 * A school user's public id, read as the client's users tab reads it (the tab's loader data, through the
 * admin's own session): Oakwood from the clients list, then the user by email among its users.
 */
async function schoolUserPublicId(page: Page, email: string): Promise<string> {
  return page.evaluate(async (wanted) => {
    type Row = Record<string, unknown>;
    const find = (value: unknown, test: (row: Row) => boolean): Row | null => {
      if (!value || typeof value !== 'object') return null;
      if (!Array.isArray(value) && test(value as Row)) return value as Row;
      for (const child of Object.values(value as Row)) {
        const found = find(child, test);
        if (found) return found;
      }
      return null;
    };
    const data = async (path: string, route: string) =>
      (await fetch(`${path}?_data=${encodeURIComponent(route)}`)).json();
    const clients = await data('/clients', 'routes/($lang)._main.clients._index');
    const oakwood = find(
      clients,
      (r) => r.name === 'Oakwood International School' && typeof r.id === 'string',
    );
    const users = await data(`/clients/${oakwood?.id}/users`, 'routes/($lang)._main.clients.$id._tabs.users');
    const user = find(users, (r) => r.email === wanted && typeof r.id === 'string');
    return String(user?.id ?? '');
  }, email);
}
