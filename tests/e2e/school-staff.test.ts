/**
 * A school's master user adds a member of staff: the page says the person waits for the insurer's
 * approval and that the invitation goes once approved; before then the school can cancel it. A member
 * of staff the school suspended is told so at sign-in, after the right password, and whom to ask.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  clickAndConfirm,
  enterEmail,
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

const MASTER = 'school.admin@demo.test';
const STAFF = 'campus.employee@demo.test';

let browser: Browser;
let master: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  master = await newPage(browser, UK_URL);
  await signIn(master, MASTER);
});
afterAll(async () => {
  await browser?.close();
});

const notice = (page: Page, text: string) =>
  page.getByRole('status').filter({ hasText: text }).first().waitFor();

describe("a school's own staff", () => {
  it('a member added by the master user waits for approval, and the school can cancel the invitation', async () => {
    await visit(master, '/manage-users/school/new');
    await hydrated(master);
    await master.getByLabel(t('users.fields.first_name')).fill('Wendy');
    await master.getByLabel(t('users.fields.last_name')).fill('Waiting');
    await master.getByLabel(t('users.fields.email')).fill('wendy.waiting@school-staff.test');
    await master.getByLabel('School Employee').check();
    await master.getByLabel('Oakwood North Campus').check();
    await master.getByRole('button', { name: t('users.send_invitation') }).click();
    await waitForPath(master, /^\/manage-users\/school\/(?!new$)[\w-]+$/);
    await hydrated(master);
    await notice(master, t('users.awaiting_approval'));
    expect(await master.getByText(t('users.statuses.pending')).count()).toBeGreaterThan(0);
    await screenshots(master, 'school-staff-awaiting-approval');

    await clickAndConfirm(master.getByRole('button', { name: t('users.moves.cancel') }));
    await waitForPath(master, '/manage-users/school-users');
    await hydrated(master);
    await notice(master, t('users.cancelled'));
  });

  it('a suspended member of staff is told so after the right password, with whom to ask', async () => {
    await visit(master, '/manage-users/school-users');
    await hydrated(master);
    await master.getByRole('link', { name: 'Carl Campus' }).click();
    await waitForPath(master, /^\/manage-users\/school\/[\w-]+$/);
    await hydrated(master);
    await clickAndConfirm(master.getByRole('button', { name: t('users.moves.suspend') }));
    await notice(master, t('users.suspended'));
    // A suspension ends their sessions: later files sign them in afresh.
    forgetSessions(STAFF);

    const staff = await newPage(browser, UK_URL);
    await enterEmail(staff, STAFF);
    await staff.getByLabel(t('auth.password'), { exact: true }).fill('not-the-password-1');
    await staff.getByRole('button', { name: t('auth.sign_in') }).click();
    await staff.getByText(t('auth.invalid_credentials')).waitFor();
    await staff.getByLabel(t('auth.password'), { exact: true }).fill(DEMO_PASSWORD);
    await staff.getByRole('button', { name: t('auth.sign_in') }).click();
    const told = t('auth.account_suspended', 'en', { name: 'Susan School', email: MASTER });
    await staff.getByText(told).waitFor();
    await screenshots(staff, 'sign-in-suspended');
    await staff.context().close();

    // Back as it was for the tests that follow.
    await master.getByRole('button', { name: t('users.moves.unsuspend') }).click();
    await notice(master, t('users.unsuspended'));
  });
});
