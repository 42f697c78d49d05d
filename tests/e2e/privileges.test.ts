/**
 * /user-privileges and /audit-trail in Chromium: a senior admin copies a role and removes a permission
 * from it; removing a permission from the role a signed-in user holds changes that user's menu on their
 * next page; the audit trail shows the change with before and after. Screenshots of the matrix (desktop
 * and phone) and of the audit trail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  hydrated,
  launchBrowser,
  newPage,
  pathOf,
  screenshots,
  signIn,
  visit,
  expectAnnounced,
} from './support/browser';
import { UK_URL } from './support/servers';
import { exportRows } from './support/export';
import { t } from './support/i18n';

let browser: Browser;
let admin: Page;
let holder: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await newPage(browser, UK_URL);
  holder = await newPage(browser, UK_URL);
  await signIn(admin, 'senior.admin@demo.test');
  await signIn(holder, 'finance.readonly@demo.test');
});
afterAll(async () => {
  await browser?.close();
});

/** The links of the side menu's Accounting group, opening it. */
async function accountingLinks(p: Page): Promise<string[]> {
  const menu = p.getByTestId('side-menu');
  await menu.waitFor();
  const group = menu.locator('[data-menu-group="accounting"]');
  if ((await group.count()) === 0) return [];
  if ((await group.getAttribute('aria-expanded')) !== 'true') await group.click();
  await expect.poll(() => group.getAttribute('aria-expanded')).toBe('true');
  return group
    .locator('xpath=..')
    .locator('[data-menu-item]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-menu-item')!));
}

/** The matrix box of one role and permission ("Finance: Billing, View"). */
const box = (p: Page, role: string, group: string, verb: string) =>
  p.getByLabel(`${role}: ${t(`roles.groups.${group}`)}, ${t(`roles.verbs.${verb}`)}`, { exact: true });

describe('user privileges', () => {
  it('a senior admin copies a role and removes a permission from the copy', async () => {
    await visit(admin, '/user-privileges');
    await admin.getByText(t('roles.create.open'), { exact: true }).click();
    const title = `Finance desk ${Date.now()}`;
    await admin.getByLabel(t('roles.create.title_field'), { exact: true }).fill(title);
    await admin.getByLabel(t('roles.create.reference'), { exact: true }).selectOption({ label: 'Finance' });
    await admin.getByRole('button', { name: t('roles.create.submit') }).click();
    await expectAnnounced(admin, t('roles.messages.created'));
    await hydrated(admin);
    await expect.poll(() => box(admin, title, 'invoice', 'update').isChecked()).toBe(true);
    expect(await box(admin, 'Finance', 'invoice', 'update').isChecked()).toBe(true);

    await box(admin, title, 'invoice', 'update').uncheck();
    await admin.getByRole('button', { name: t('roles.matrix.save') }).click();
    await expectAnnounced(admin, t('roles.messages.saved'));
    await admin.reload();
    await hydrated(admin);
    expect(await box(admin, title, 'invoice', 'update').isChecked()).toBe(false);
    // The reference role is unchanged.
    expect(await box(admin, 'Finance', 'invoice', 'update').isChecked()).toBe(true);
  });

  it('keeps the role names in view while the matrix scrolls down, and the permission names while it scrolls sideways', async () => {
    await visit(admin, '/user-privileges');
    const matrix = admin.getByTestId('privileges-matrix');
    await matrix.scrollIntoViewIfNeeded();
    const scrolled = await matrix.evaluate((el) => {
      el.scrollTo(el.scrollWidth, el.scrollHeight);
      return el.scrollTop;
    });
    expect(scrolled).toBeGreaterThan(0);
    /** Whether a cell is what a person sees at its own place (not scrolled away or covered). */
    const inView = (cell: ReturnType<Page['locator']>) =>
      cell.evaluate((el) => {
        const r = el.getBoundingClientRect();
        return el.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2));
      });
    expect(await inView(matrix.getByRole('columnheader').last())).toBe(true);
    expect(await inView(matrix.getByRole('rowheader').last())).toBe(true);
    expect(await inView(matrix.getByRole('columnheader', { name: t('roles.matrix.permission') }))).toBe(true);
  });

  it('removing a permission from a role changes the menu of a signed-in user holding it at their next page', async () => {
    await visit(holder, '/invoices');
    expect(await accountingLinks(holder)).toContain('billing');

    await visit(admin, '/user-privileges');
    const billing = box(admin, 'Finance (read only)', 'billing', 'read');
    expect(await billing.isChecked()).toBe(true);
    await admin.getByRole('heading', { name: t('roles.matrix.title'), exact: true }).scrollIntoViewIfNeeded();
    await screenshots(admin, 'privileges-matrix');
    await billing.uncheck();
    await admin.getByRole('button', { name: t('roles.matrix.save') }).click();
    await expectAnnounced(admin, t('roles.messages.saved'));

    // The holder's session goes on; their next page is built from the role as it is now.
    await holder.reload();
    await hydrated(holder);
    const links = await accountingLinks(holder);
    expect(links).not.toContain('billing');
    expect(links).toContain('invoices');
    await visit(holder, '/billing');
    expect(pathOf(holder)).not.toBe('/billing');
  });

  it('shows one role at a time on a phone, chosen by the role links', async () => {
    await admin.setViewportSize({ width: 390, height: 844 });
    await visit(admin, '/user-privileges');
    const roles = admin.getByRole('navigation', { name: t('roles.matrix.show_role') });
    await roles.getByRole('link', { name: 'Finance (read only)', exact: true }).click();
    await hydrated(admin);
    await expect.poll(() => box(admin, 'Finance (read only)', 'invoice', 'read').isVisible()).toBe(true);
    expect(await box(admin, 'Senior Admin', 'invoice', 'read').isVisible()).toBe(false);
    const width = await admin.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await screenshots(admin, 'privileges-matrix-phone-role', ['phone']);
    await admin.setViewportSize({ width: 1280, height: 800 });
  });

  it('keeps the permission names in place when the matrix scrolls sideways, and a focused box in view', async () => {
    await admin.setViewportSize({ width: 800, height: 700 });
    await visit(admin, '/user-privileges');
    await hydrated(admin);
    const scroller = admin.getByTestId('privileges-matrix');
    const size = await scroller.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    expect(size.scroll, 'the matrix is wider than its box at 800').toBeGreaterThan(size.client);
    const name = admin.getByRole('rowheader').first();
    await name.scrollIntoViewIfNeeded();
    const before = (await name.boundingBox())!;
    await scroller.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
    await expect.poll(() => scroller.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
    const after = (await name.boundingBox())!;
    expect(Math.round(after.x)).toBe(Math.round(before.x));
    // The name cell has its own background: the checkboxes that scroll under it do not show through.
    expect(await name.evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe('rgba(0, 0, 0, 0)');
    await admin.screenshot({ path: 'test-output/screenshots/privileges-matrix-scrolled-800.png' });

    // Focus the first role's box of a row: it scrolls back into view beside the names, ring visible.
    const first = box(admin, 'Senior Admin', 'invoice', 'read');
    await first.focus();
    await admin.keyboard.press('Shift+Tab');
    await admin.keyboard.press('Tab');
    const cell = (await first.boundingBox())!;
    const names = (await admin.getByRole('rowheader').first().boundingBox())!;
    expect(cell.x - 4, 'the focus ring clear of the names column').toBeGreaterThanOrEqual(
      names.x + names.width,
    );
    await admin.screenshot({ path: 'test-output/screenshots/privileges-matrix-focus-800.png' });

    await admin.setViewportSize({ width: 390, height: 844 });
    await visit(admin, '/user-privileges');
    await hydrated(admin);
    expect(await admin.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshots(admin, 'privileges-matrix-390', ['phone']);
    await admin.setViewportSize({ width: 1280, height: 800 });
  });

  it('the audit trail shows the change with who, before and after, and searches by entity', async () => {
    await visit(admin, '/audit-trail?entity_type=role&action=updated');
    // A permission reads by its label, as on the matrix, never by its code.
    const billingView = `${t('roles.groups.billing')}: ${t('roles.verbs.read')}`;
    const row = admin.getByRole('row').filter({ hasText: billingView }).first();
    await row.waitFor();
    expect(await row.textContent()).toContain('Sarah');
    expect(await row.textContent()).not.toContain('read_billing');
    await screenshots(admin, 'audit-trail');

    // The export holds the same search: one row per changed field, with the before and after.
    const sheet = await exportRows(admin);
    expect(sheet.fileName).toBe('audit-trail.xlsx');
    expect(sheet.rows[0]).toEqual(
      [
        'when',
        'who',
        'email',
        'entity',
        'entity_id',
        'entity_name',
        'action',
        'field',
        'before',
        'after',
      ].map((k) => t(`audit.columns.${k}`)),
    );
    const removed = sheet.rows.find((r) => r[7] === t('audit.fields.removed') && r[9].includes(billingView));
    expect(removed?.[2]).toBe('senior.admin@demo.test');
    expect(removed?.[3]).toBe(t('audit.entities.role'));
    // The role by its name, not only its number.
    expect(removed?.[5]).toBeTruthy();
    expect(await row.textContent()).toContain(removed?.[5]);
  });
});
