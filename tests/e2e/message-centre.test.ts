/**
 * The message centre in the browser: a school user asks a question with a PDF and staff answer it; the
 * mail icon's badge counts up and down on both sides; the answer's email reaches the development
 * mailbox; a message's HTML and a `javascript:` link are shown as text; the clients list's "Send
 * message…" starts three threads; a campus employee cannot open another campus's thread; a thread is
 * read and answered without JavaScript.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  bulkAction,
  expectAnnounced,
  hydrated,
  launchBrowser,
  newestMessage,
  newPage,
  plainPageLike,
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
const tag = Date.now().toString(36).toUpperCase().slice(-6);
const SUBJECT = `Invoice question ${tag}`;
const HOSTILE = `Is this right?\n<img src=x onerror=alert(1)>\n<a href="javascript:alert(2)">click</a>`;
const ANSWER = `Yes, it is. ${tag}`;
const BULK_SUBJECT = `New prices ${tag}`;
const SOUTH_SUBJECT = `South campus only ${tag}`;
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

let browser: Browser;
let staff: Page;
let master: Page;
let employee: Page;
let threadPath = '';
const alerts: string[] = [];

/** The number on the top bar's mail icon, read on the home page (the message centre shows no count). */
async function badge(page: Page): Promise<number> {
  await visit(page, '/home');
  const text = (await page.getByTestId('mail-icon').innerText()).trim();
  return text ? Number(text) : 0;
}

beforeAll(async () => {
  browser = await launchBrowser();
  [staff, master, employee] = await Promise.all([
    newPage(browser, UK_URL),
    newPage(browser, UK_URL),
    newPage(browser, UK_URL),
  ]);
  for (const page of [staff, master, employee]) page.on('dialog', (d) => void alerts.push(d.message()));
  await signIn(staff, STAFF);
  await signIn(master, MASTER);
  await signIn(employee, EMPLOYEE);
  // Every company: the clients list then holds at least three active clients.
  await selectCompany(staff, t('shell.all_companies'));
});
afterAll(async () => {
  await browser?.close();
});

describe('message centre', () => {
  it('a school user asks a question with a PDF; the staff badge counts it', async () => {
    const staffBefore = await badge(staff);
    await visit(master, '/message-centre');
    await master.getByRole('link', { name: t('conversations.new') }).click();
    await waitForPath(master, '/message-centre/new');
    await hydrated(master);
    await master.getByLabel(t('conversations.fields.subject')).fill(SUBJECT);
    await master.getByLabel(t('conversations.fields.message'), { exact: true }).fill(HOSTILE);
    await master
      .getByTestId('attachments')
      .setInputFiles({ name: 'statement.pdf', mimeType: 'application/pdf', buffer: PDF });
    await screenshots(master, 'message-centre-new');
    await master.getByRole('button', { name: t('conversations.send') }).click();
    await waitForPath(master, /^\/message-centre\/(?!new$)[\w-]+$/);
    await hydrated(master);
    threadPath = new URL(master.url()).pathname;
    await expectAnnounced(master, t('conversations.started'));
    // The message is text: the tags are shown, nothing of them is an element, no alert ran.
    const body = master.getByTestId('message-body');
    expect(await body.innerText()).toBe(HOSTILE);
    expect(await master.locator('[data-testid="messages"] img').count()).toBe(0);
    expect(await master.locator('a[href^="javascript:"]').count()).toBe(0);
    expect(alerts).toEqual([]);
    expect(await badge(staff)).toBe(staffBefore + 1);
  });

  it('staff open it (the badge counts down), download the PDF and answer', async () => {
    const staffUnread = await badge(staff);
    await visit(staff, `/message-centre?search=${encodeURIComponent(tag)}`);
    const link = staff.getByTestId('conversation-link').filter({ hasText: SUBJECT });
    expect(await link.getAttribute('data-unread')).toBe('');
    expect(await link.getAttribute('href')).toBe(threadPath);
    await screenshots(staff, 'message-centre-inbox');
    await visit(staff, threadPath);
    const file = staff.getByRole('link', {
      name: new RegExp(t('conversations.download', 'en', { name: 'statement.pdf' })),
    });
    const response = await staff
      .context()
      .request.get(new URL((await file.getAttribute('href'))!, UK_URL).href);
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toContain('application/pdf');
    expect(alerts).toEqual([]);
    expect(await badge(staff)).toBe(staffUnread - 1);

    const masterBefore = await badge(master);
    await visit(staff, threadPath);
    await staff.getByLabel(t('conversations.fields.message'), { exact: true }).fill(ANSWER);
    await staff.getByRole('button', { name: t('conversations.send') }).click();
    await expectAnnounced(staff, t('conversations.sent'));
    await expect.poll(() => staff.getByTestId('message').count()).toBe(2);
    await staff.getByLabel(t('conversations.fields.status')).selectOption('waiting_on_client');
    await staff.getByRole('button', { name: t('conversations.set_status') }).click();
    await expectAnnounced(staff, t('conversations.status_changed'));
    await screenshots(staff, 'message-centre-thread');
    expect(await badge(master)).toBe(masterBefore + 1);
  });

  it('the answer is emailed to the school with a link to the thread', async () => {
    await expect
      .poll(async () => (await newestMessage(master.context(), UK_URL, MASTER)) ?? '', { timeout: 15_000 })
      .toContain(SUBJECT);
    const mail = (await newestMessage(master.context(), UK_URL, MASTER)) ?? '';
    expect(mail).toContain(ANSWER);
    expect(mail).toContain(threadPath);
  });

  it('the school user reads the answer (the badge counts down), marks it unread and back', async () => {
    const before = await badge(master);
    await visit(master, threadPath);
    await master.getByText(ANSWER).waitFor();
    expect(await badge(master)).toBe(before - 1);
    await visit(master, threadPath);
    await master.getByRole('button', { name: t('conversations.mark_unread') }).click();
    await waitForPath(master, '/message-centre');
    await visit(master, `/message-centre?folder=inbox&search=${tag}`);
    const link = master.getByTestId('conversation-link').filter({ hasText: SUBJECT });
    expect(await link.getAttribute('data-unread')).toBe('');
    expect(await badge(master)).toBe(before);
  });

  it('a flagged thread is in the flagged folder; an archived one leaves the inbox', async () => {
    await visit(master, threadPath);
    await master.getByRole('button', { name: t('conversations.flag'), exact: true }).click();
    await expectAnnounced(master, t('conversations.flag_set'));
    await visit(master, '/message-centre?folder=flagged');
    await master.getByTestId('conversation-link').filter({ hasText: SUBJECT }).waitFor();
    await visit(master, threadPath);
    await master.getByRole('button', { name: t('conversations.archive') }).click();
    await waitForPath(master, '/message-centre');
    await hydrated(master);
    await visit(master, `/message-centre?folder=inbox&search=${tag}`);
    expect(await master.getByTestId('conversation-link').filter({ hasText: SUBJECT }).count()).toBe(0);
    await master.getByRole('link', { name: t('conversations.folders.archived') }).click();
    await waitForPath(master, '/message-centre');
    await master.getByTestId('conversation-link').filter({ hasText: SUBJECT }).waitFor();
  });

  it('staff send a message to three clients from the clients list', async () => {
    await visit(staff, '/clients');
    const boxes = staff.locator('tbody').getByRole('checkbox');
    for (let i = 0; i < 3; i++) await boxes.nth(i).check();
    await (await bulkAction(staff, t('clients.bulk.send_message'))).click();
    await waitForPath(staff, '/message-centre/send');
    await hydrated(staff);
    await staff.getByText(t('conversations.bulk.for_clients', 'en', { count: 3 })).waitFor();
    await staff.getByLabel(t('conversations.fields.subject')).fill(BULK_SUBJECT);
    await staff
      .getByLabel(t('conversations.fields.message'), { exact: true })
      .fill('Our prices change on 1 September.');
    await staff.getByRole('button', { name: t('conversations.send') }).click();
    await waitForPath(staff, '/clients');
    await expectAnnounced(staff, t('conversations.api.bulk_started', 'en', { count: 3 }));
    await visit(staff, `/message-centre?search=${encodeURIComponent(BULK_SUBJECT)}`);
    expect(await staff.getByTestId('conversation-link').count()).toBe(3);
  });

  it('a campus employee cannot open a thread of another campus', async () => {
    await visit(staff, '/message-centre/new');
    await staff
      .getByLabel(t('conversations.campus_optional'))
      .selectOption({ label: 'Oakwood South Campus' });
    await staff.getByLabel(t('conversations.fields.subject')).fill(SOUTH_SUBJECT);
    await staff
      .getByLabel(t('conversations.fields.message'), { exact: true })
      .fill('For the South campus team.');
    await staff.getByRole('button', { name: t('conversations.send') }).click();
    await waitForPath(staff, /^\/message-centre\/(?!new$)[\w-]+$/);
    const southPath = new URL(staff.url()).pathname;
    expect(await employee.goto(southPath).then((r) => r?.status())).toBe(404);
    await visit(employee, `/message-centre?search=${encodeURIComponent(tag)}`);
    expect(await employee.getByTestId('conversation-link').count()).toBe(0);
  });

  it('reads and answers a thread without JavaScript', async () => {
    const plain = await plainPageLike(master);
    try {
      await plain.goto(threadPath);
      await plain.getByText(ANSWER).waitFor();
      await plain.getByLabel(t('conversations.fields.message'), { exact: true }).fill(`Thank you ${tag}`);
      await plain.getByRole('button', { name: t('conversations.send') }).click();
      await plain.getByText(`Thank you ${tag}`).waitFor();
      expect(await plain.getByTestId('message').count()).toBe(3);
    } finally {
      await plain.context().close();
    }
  });
});
