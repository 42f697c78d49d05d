import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { activeMenuLink, isGroup, visibleMenu } from '../../app/lib/navigation';
import { DEFAULT_ROLES } from '../../workers/domain/access/default-roles';
import { launchBrowser, newPage, signIn, visit } from './support/browser';
import { UK_URL } from './support/servers';

/** Demo accounts and the role each holds (drizzle/seed/demo.ts). */
const ACCOUNTS = [
  { email: 'finance@demo.test', role: 'finance' },
  { email: 'school.admin@demo.test', role: 'school_master_user' },
  { email: 'campus.employee@demo.test', role: 'school_employee' },
  // The one seeded role without read_message: the mail icon must be absent.
  { email: 'external@demo.test', role: 'external' },
];

interface MenuShape {
  top: string[];
  groups: Record<string, string[]>;
}

function permissionsOf(role: string): readonly string[] {
  const found = DEFAULT_ROLES.find((r) => r.slug === role);
  if (!found) throw new Error(`No default role ${role}`);
  return found.permissions;
}

function expectedMenu(role: string): MenuShape {
  const shape: MenuShape = { top: [], groups: {} };
  for (const entry of visibleMenu(permissionsOf(role))) {
    shape.top.push(entry.key);
    if (isGroup(entry)) shape.groups[entry.key] = entry.children.map((c) => c.key);
  }
  return shape;
}

/** What the side menu shows, opening each group (a disclosure) to see its links. */
async function renderedMenu(page: Page): Promise<MenuShape> {
  const menu = page.getByTestId('side-menu');
  await menu.waitFor();
  const top = await menu.evaluate((ul) =>
    [...ul.children].map((li) => {
      const el = li.querySelector(':scope > [data-menu-item], :scope > [data-menu-group]');
      return el?.getAttribute('data-menu-item') ?? el?.getAttribute('data-menu-group') ?? '(no key)';
    }),
  );
  const groups: Record<string, string[]> = {};
  const groupKeys = await menu
    .locator('[data-menu-group]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-menu-group')!));
  for (const key of groupKeys) {
    const button = menu.locator(`[data-menu-group="${key}"]`);
    if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
    await expect.poll(() => button.getAttribute('aria-expanded')).toBe('true');
    const item = button.locator('xpath=..');
    groups[key] = await item
      .locator('[data-menu-item]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-menu-item')!));
  }
  return { top, groups };
}

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('the side menu and header icons follow the role permissions', () => {
  it('gives the roles under test different menus (so the comparison means something)', () => {
    const shapes = ACCOUNTS.map((a) => JSON.stringify(expectedMenu(a.role)));
    expect(new Set(shapes).size).toBe(ACCOUNTS.length);
  });

  for (const { email, role } of ACCOUNTS) {
    it(`shows ${email} (${role}) exactly the menu of visibleMenu() and the icons its permissions allow`, async () => {
      const page = await newPage(browser, UK_URL);
      await signIn(page, email);
      await visit(page, '/home');

      expect(await renderedMenu(page)).toEqual(expectedMenu(role));

      const held = new Set(permissionsOf(role));
      expect(await page.getByTestId('cart-icon').count(), 'cart icon iff read_insured').toBe(
        held.has('read_insured') ? 1 : 0,
      );
      expect(await page.getByTestId('mail-icon').count(), 'mail icon iff read_message').toBe(
        held.has('read_message') ? 1 : 0,
      );
      await page.context().close();
    });
  }
});

describe('the side menu highlights one entry', () => {
  it('marks the most specific entry holding the page, and only that one', () => {
    const menu = visibleMenu(permissionsOf('finance'));
    expect(activeMenuLink('/invoices/reconciliation/12', menu)).toBe('/invoices/reconciliation');
    expect(activeMenuLink('/invoices/INV-1', menu)).toBe('/invoices');
    expect(activeMenuLink('/invoices', menu)).toBe('/invoices');
    // A link is not a prefix of a longer word: /insureds-x is no page of /insureds.
    expect(activeMenuLink('/insureds-x', menu)).toBeNull();
  });

  it('shows one highlighted entry on a page two entries hold', async () => {
    const page = await newPage(browser, UK_URL);
    await signIn(page, 'finance@demo.test');
    await visit(page, '/invoices/reconciliation');
    const current = page.getByTestId('side-menu').locator('[aria-current="page"]');
    expect(await current.evaluateAll((links) => links.map((l) => l.getAttribute('data-menu-item')))).toEqual([
      'reconciliation',
    ]);
    await visit(page, '/invoices');
    expect(await current.evaluateAll((links) => links.map((l) => l.getAttribute('data-menu-item')))).toEqual([
      'invoices',
    ]);
    await page.context().close();
  });
});
