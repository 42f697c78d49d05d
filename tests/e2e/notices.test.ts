/**
 * Notices: staff publish one to a school; at sign-in (/home) one school user acknowledges it with its one
 * button, and it stays pending for the other; the notice's page shows who has and who has not.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  hydrated,
  launchBrowser,
  newPage,
  screenshots,
  selectCompany,
  signIn,
  visit,
  waitForPath,
} from './support/browser';
import { t } from './support/i18n';
import { UK_URL } from './support/servers';

const STAFF = 'senior.admin@demo.test';
const MASTER = 'school.admin@demo.test';
const EMPLOYEE = 'campus.employee@demo.test';
const TITLE = 'Term dates for next year';

let browser: Browser;
let staff: Page;
let master: Page;
let employee: Page;
let noticePath = '';

beforeAll(async () => {
  browser = await launchBrowser();
  [staff, master, employee] = await Promise.all([
    newPage(browser, UK_URL),
    newPage(browser, UK_URL),
    newPage(browser, UK_URL),
  ]);
  await signIn(staff, STAFF);
  await signIn(master, MASTER);
  await signIn(employee, EMPLOYEE);
});
afterAll(async () => {
  // Archived again, so no other test's school user lands on it.
  if (noticePath) {
    await visit(staff, noticePath);
    await hydrated(staff);
    const archive = staff.getByRole('button', { name: t('notices.archive') });
    if (await archive.count()) await archive.click();
  }
  await browser?.close();
});

describe('notices', () => {
  it('staff publish a notice to Oakwood from the editor', async () => {
    await visit(staff, '/notices');
    await hydrated(staff);
    await selectCompany(staff);
    await visit(staff, '/notices/new');
    await hydrated(staff);
    // Exact labels: the top bar's mail icon is named "Messages" too.
    await staff.getByLabel(t('notices.fields.title'), { exact: true }).fill(TITLE);
    await staff
      .getByLabel(t('notices.fields.message'), { exact: true })
      .fill('Please send us your term dates <b>before</b> June.');
    await staff
      .getByLabel(t('notices.audience.clients'))
      .selectOption({ label: 'Oakwood International School' });
    await screenshots(staff, 'notice-editor');
    await staff.getByRole('button', { name: t('notices.create') }).click();
    await waitForPath(staff, /^\/notices\/(?!new$)[\w-]+$/);
    await hydrated(staff);
    noticePath = new URL(staff.url()).pathname;
    await staff.getByRole('heading', { name: TITLE }).waitFor();
  });

  it('one school user acknowledges it at sign-in; it stays pending for the other', async () => {
    await visit(master, '/home');
    await hydrated(master);
    await master.getByRole('heading', { name: t('notices.pending_title') }).waitFor();
    // The message is text: the tag is shown, not applied.
    await master.getByText('Please send us your term dates <b>before</b> June.').waitFor();
    await screenshots(master, 'notice-pending');
    await master
      .getByRole('article', { name: TITLE })
      .getByRole('button', { name: t('notices.acknowledge') })
      .click();
    await waitForPath(master, /^\/(?!home$)/);
    await visit(master, '/notices');
    await hydrated(master);
    await master.getByRole('article', { name: TITLE }).getByText(/./).first().waitFor();
    expect(await master.getByRole('article', { name: TITLE }).getByRole('button').count()).toBe(0);

    await visit(employee, '/home');
    await hydrated(employee);
    await employee.getByRole('heading', { name: t('notices.pending_title') }).waitFor();
    await employee
      .getByRole('article', { name: TITLE })
      .getByRole('button', { name: t('notices.acknowledge') })
      .waitFor();
  });

  it('staff see who acknowledged and who has not', async () => {
    await visit(staff, noticePath);
    await hydrated(staff);
    const rows = staff.getByRole('table', { name: t('notices.recipients.title') }).getByRole('row');
    await rows.filter({ hasText: 'Susan School' }).getByText(t('notices.recipients.acknowledged')).waitFor();
    await rows.filter({ hasText: 'Carl Campus' }).getByText(t('notices.recipients.pending')).waitFor();
    await screenshots(staff, 'notice-page');
  });
});
