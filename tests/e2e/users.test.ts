/**
 * Users in the browser: an administrator invites a school user for one campus; the person
 * signs up from the email in the development mailbox (name, password, email PIN, phone PIN) and sees
 * only their campus; the school's master user suspends them, and their open session is refused at once.
 * Screenshots of the users lists (company and school users, desktop and phone).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  clickAndConfirm,
  hydrated,
  launchBrowser,
  newestMessage,
  newPage,
  readPin,
  screenshots,
  signIn,
  visit,
  waitForPath,
} from './support/browser';
import { exportRows } from './support/export';
import { t } from './support/i18n';
import { DEMO_PASSWORD, UK_URL } from './support/servers';

const BASE = UK_URL;
const STAMP = Date.now().toString(36);
const EMAIL = `new.teacher.${STAMP}@users.test`;
const PHONE = `77009${String(Date.now()).slice(-6)}`;

let browser: Browser;
let admin: Page;
let invitee: Page;
let master: Page;
let userPath = '';

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await newPage(browser, BASE);
  await signIn(admin, 'admin@demo.test');
});
afterAll(async () => {
  await browser?.close();
});

describe('users, invitations and suspension', () => {
  it('shows the users lists: company users, and school users by client', async () => {
    await visit(admin, '/manage-users');
    await hydrated(admin);
    expect(await admin.locator('h1').innerText()).toBe(t('users.title'));
    await admin.getByRole('link', { name: 'Fiona Finance' }).waitFor();
    await screenshots(admin, 'users-list');
    await admin.getByRole('link', { name: t('users.tabs.school') }).click();
    await waitForPath(admin, '/manage-users/school-users');
    await admin.getByRole('link', { name: 'Carl Campus' }).waitFor();
    await screenshots(admin, 'users-school-list');
  });

  it('exports each list to Excel with its filters', async () => {
    await visit(admin, '/manage-users?status=all');
    await hydrated(admin);
    const company = await exportRows(admin);
    expect(company.href).toMatch(/^\/manage-users\/export\.xlsx\?/);
    expect(company.href).toContain('status=all');
    expect(company.fileName).toBe('company-users.xlsx');
    expect(company.rows[0].slice(0, 3)).toEqual([
      t('users.fields.first_name'),
      t('users.fields.last_name'),
      t('users.fields.email'),
    ]);
    expect(company.rows.some((r) => r[2] === 'finance@demo.test')).toBe(true);

    await admin.getByRole('link', { name: t('users.tabs.school') }).click();
    await waitForPath(admin, '/manage-users/school-users');
    await hydrated(admin);
    await admin.getByLabel(t('users.search')).fill('Carl');
    await admin.getByRole('button', { name: t('table.apply_filters') }).click();
    await admin.waitForURL(/search=Carl/);
    const school = await exportRows(admin);
    expect(school.href).toMatch(/^\/manage-users\/school-users\/export\.xlsx\?/);
    expect(school.fileName).toBe('school-users.xlsx');
    expect(school.rows[0]).toContain(t('users.fields.campus_access'));
    expect(school.rows.slice(1).map((r) => `${r[0]} ${r[1]}`)).toEqual(['Carl Campus']);
  });

  it('an administrator invites a school user for one campus', async () => {
    await admin.getByRole('link', { name: t('users.invite_school') }).click();
    await waitForPath(admin, '/manage-users/school/new');
    await hydrated(admin);
    await admin.getByLabel(t('users.fields.client')).selectOption({ label: 'Oakwood International School' });
    await admin.getByRole('button', { name: t('users.continue') }).click();
    await admin.getByLabel(t('users.fields.first_name')).waitFor();
    await hydrated(admin);
    await admin.getByLabel(t('users.fields.first_name')).fill('Nora');
    await admin.getByLabel(t('users.fields.last_name')).fill('Newteacher');
    await admin.getByLabel(t('users.fields.email')).fill(EMAIL);
    await admin.getByLabel('School Employee').check();
    await admin.getByLabel('Oakwood North Campus').check();
    await screenshots(admin, 'users-invite', ['desktop']);
    await admin.getByRole('button', { name: t('users.send_invitation') }).click();
    await waitForPath(admin, /^\/manage-users\/school\/(?!new$)[\w-]+$/);
    userPath = new URL(admin.url()).pathname;
    await admin
      .getByRole('status')
      .filter({ hasText: t('users.invited') })
      .first()
      .waitFor();
    expect(await admin.getByText(t('users.invitation_states.pending')).count()).toBeGreaterThan(0);
    await screenshots(admin, 'users-detail', ['desktop']);
  });

  it('the person signs up from the email and sees only their campus', async () => {
    invitee = await newPage(browser, BASE);
    const message = await newestMessage(invitee.context(), BASE, EMAIL);
    const token = message?.match(/token=([\w-]+)/)?.[1];
    expect(token, message ?? 'no invitation email').toBeTruthy();
    await visit(invitee, `/invite/sign-up?token=${token}`);
    await waitForPath(invitee, '/invite/sign-up');
    await hydrated(invitee);
    await invitee.getByRole('button', { name: t('common.continue') }).click();
    await waitForPath(invitee, '/invite/sign-up-pwd');
    await hydrated(invitee);
    const before = await newestMessage(invitee.context(), BASE, EMAIL);
    await invitee.getByLabel(t('invite.password'), { exact: true }).fill(DEMO_PASSWORD);
    await invitee.getByLabel(t('invite.confirm_password')).fill(DEMO_PASSWORD);
    await invitee.getByRole('button', { name: t('common.continue') }).click();
    await waitForPath(invitee, '/invite/pin-otp');
    await hydrated(invitee);
    const emailPin = await readPin(invitee.context(), BASE, EMAIL, before);
    await invitee.getByLabel(t('auth.pin')).fill(emailPin);
    await invitee.getByRole('button', { name: t('auth.verify') }).click();
    await waitForPath(invitee, '/invite/add-phone');
    await hydrated(invitee);
    const phoneTarget = `GB:${PHONE}`;
    const smsBefore = await newestMessage(invitee.context(), BASE, phoneTarget);
    await invitee.getByLabel(t('invite.phone_country')).fill('GB');
    await invitee.getByLabel(t('invite.phone_number')).fill(PHONE);
    await invitee.getByRole('button', { name: t('invite.send_pin') }).click();
    await waitForPath(invitee, '/invite/pin-otp-phone');
    await hydrated(invitee);
    const smsPin = await readPin(invitee.context(), BASE, phoneTarget, smsBefore);
    await invitee.getByLabel(t('auth.pin')).fill(smsPin);
    await invitee.getByRole('button', { name: t('invite.finish') }).click();
    await waitForPath(invitee, /^\/(home|insureds)$/);
    await hydrated(invitee);
    // The link worked once: opening it again says it was used.
    const again = await newPage(browser, BASE);
    await visit(again, `/invite/sign-up?token=${token}`);
    expect(await again.getByText(t('auth.invitation_used')).count()).toBe(1);
    await again.context().close();
    // Ordering offers only the campus they were given.
    await visit(invitee, '/insureds/order');
    await hydrated(invitee);
    const campuses = await invitee.locator('#order-campus option').allInnerTexts();
    expect(campuses.filter((c) => c.includes('Oakwood'))).toEqual(['Oakwood North Campus']);
  });

  it("the school's master user suspends them, and their open session is refused", async () => {
    master = await newPage(browser, BASE);
    await signIn(master, 'school.admin@demo.test');
    await visit(master, '/manage-users');
    await waitForPath(master, '/manage-users/school-users');
    await hydrated(master);
    // Only their own school's users; company users are not theirs.
    expect(await master.getByRole('link', { name: t('users.tabs.company') }).count()).toBe(0);
    await master.getByRole('link', { name: 'Nora Newteacher' }).click();
    await waitForPath(master, userPath);
    await hydrated(master);
    await clickAndConfirm(master.getByRole('button', { name: t('users.moves.suspend') }));
    await master
      .getByRole('status')
      .filter({ hasText: t('users.suspended') })
      .first()
      .waitFor();
    await master.getByRole('button', { name: t('users.moves.unsuspend') }).waitFor();
    // The suspended person's next request finds no session.
    await visit(invitee, '/insureds');
    await waitForPath(invitee, /\/auth\/login$/);
  });
});
