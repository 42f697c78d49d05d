/**
 * Clients in the browser, as a person works with them: the list with its tabs, filters and bulk bar;
 * a new client with contacts, address and fact-find (a mistake first, then the fix); contacts, notes
 * with a file, logs and status on the client page; and a school user's own profile at /school/info.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import {
  bulkAction,
  DESKTOP,
  hydrated,
  launchBrowser,
  newPage,
  PHONE,
  screenshots,
  selectCompany,
  signIn,
  visit,
  waitForPath,
} from './support/browser';
import { exportRows } from './support/export';
import { t } from './support/i18n';
import { UK_URL } from './support/servers';

const BASE = process.env.CLIENTS_E2E_URL ?? UK_URL;
const NAME = `Riverbank College ${Date.now().toString(36)}`;
/** An owner's address of 60 characters: it must break inside its box on a phone, not widen the page. */
const LONG_EMAIL = 'rita.rivers.head.of.international.admissions@riverbank.example';

let browser: Browser;
let page: Page;
let clientPath = '';

const fieldset = (p: Page, legend: string): Locator =>
  p.locator('fieldset', { has: p.locator('legend', { hasText: legend }) });

/** Waits for the snackbar to say `text`. */
async function snack(p: Page, text: string) {
  await p.getByRole('status').filter({ hasText: text }).first().waitFor();
}

beforeAll(async () => {
  browser = await launchBrowser();
  page = await newPage(browser, BASE);
  await signIn(page, 'senior.admin@demo.test');
  // The top-bar company is stored on the user: start from the seeded one, whatever ran before.
  await selectCompany(page);
});
afterAll(async () => {
  await browser?.close();
});

describe('clients, as provider staff', () => {
  it('opens the client list from the menu, with its tabs and the demo clients', async () => {
    await page
      .getByTestId('side-menu')
      .getByRole('link', { name: t('nav.clients') })
      .click();
    await waitForPath(page, '/clients');
    await hydrated(page);
    expect(await page.locator('h1').innerText()).toBe(t('clients.title'));
    await expect.poll(() => page.getByRole('link', { name: 'Oakwood International School' }).count()).toBe(1);
    const tabs = page.getByRole('navigation', { name: t('clients.title') });
    for (const key of ['active', 'onboarding', 'archived'])
      expect(await tabs.getByText(t(`clients.tabs.${key}`)).count()).toBe(1);
    await tabs.getByText(t('clients.tabs.onboarding')).click();
    await expect
      .poll(() => page.getByRole('link', { name: 'Harbour Guardianship Services' }).count())
      .toBe(1);
    expect(await page.getByRole('link', { name: 'Oakwood International School' }).count()).toBe(0);
    await screenshots(page, 'clients-list');
  });

  it('filters the list by search, and exports it to Excel', async () => {
    await visit(page, '/clients?tab=active');
    await page.getByLabel(t('clients.filters.search')).fill('Kingsbridge');
    await page.getByRole('button', { name: t('table.apply_filters') }).click();
    await expect.poll(() => page.getByRole('link', { name: 'Oakwood International School' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Kingsbridge Language Academy' }).count()).toBe(1);
    const { href, fileName, rows } = await exportRows(page);
    expect(href).toMatch(/^\/clients\/export\.xlsx\?/);
    expect(href).toContain('search=Kingsbridge');
    expect(fileName).toBe('clients.xlsx');
    expect(rows[0]).toEqual(
      [
        'name',
        'id',
        'type',
        'status',
        'company',
        'account_manager',
        'owner',
        'owner_email',
        'phone',
        'website',
        'payment_terms',
        'campuses',
        'created_at',
      ].map((key) => t(`clients.columns.${key}`)),
    );
    const names = rows.slice(1).map((r) => r[0]);
    expect(names).toContain('Kingsbridge Language Academy');
    expect(names.every((n) => n.includes('Kingsbridge'))).toBe(true);
    // The active tab (the default when the address names none): active and suspended clients.
    const activeTab = [t('clients.statuses.active'), t('clients.statuses.suspended')];
    expect(rows.slice(1).every((r) => activeTab.includes(r[3]))).toBe(true);
  });

  it('adds a client: a missing owner email is pointed out and nothing typed is lost; then it saves', async () => {
    await visit(page, '/clients/new');
    await page.getByLabel(t('clients.fields.name'), { exact: true }).fill(NAME);
    await page.getByLabel(t('clients.fields.type')).selectOption('school');
    await page.getByLabel(t('clients.fields.website')).fill('https://riverbank.example');
    const owner = fieldset(page, t('contacts.types.owner'));
    await owner.getByLabel(t('contacts.fields.first_name')).fill('Rita');
    await owner.getByLabel(t('contacts.fields.last_name')).fill('Rivers');
    const billing = fieldset(page, t('contacts.address.billing'));
    await billing.getByLabel(t('contacts.address.fields.address')).fill('7 Quay Street');
    await billing.getByLabel(t('contacts.address.fields.city')).fill('Bristol');
    await billing.getByLabel(t('contacts.address.fields.postal_code')).fill('BS1 4DJ');
    await billing
      .getByLabel(t('contacts.address.fields.country_id'), { exact: true })
      .selectOption({ label: 'United Kingdom' });
    await page.getByLabel(t('clients.fact_find.questions.renewal_month')).selectOption('09');
    await page.getByRole('button', { name: t('clients.save'), exact: true }).click();
    await expect.poll(() => owner.getByText(t('validation.email_required')).count()).toBe(1);
    expect(await page.getByLabel(t('clients.fields.name'), { exact: true }).inputValue()).toBe(NAME);
    await screenshots(page, 'clients-new-error');
    await owner.getByLabel(t('contacts.fields.email')).fill(LONG_EMAIL);
    await page.getByRole('button', { name: t('clients.save'), exact: true }).click();
    await waitForPath(page, /^\/clients\/(?!new$)[a-z0-9]+$/);
    await hydrated(page);
    clientPath = new URL(page.url()).pathname;
    await snack(page, t('clients.saved'));
    expect(await page.locator('h1').innerText()).toContain(NAME);
    await screenshots(page, 'clients-detail');
  });

  it('adds a secondary contact with "Add another" and saves the contacts', async () => {
    await visit(page, `${clientPath}/contacts`);
    const secondary = fieldset(page, t('contacts.types.secondary'));
    expect(await secondary.getByText(t('contacts.type_one.secondary', 'en', { n: 2 })).count()).toBe(0);
    await secondary.getByRole('button', { name: `+ ${t('contacts.add_another')}` }).click();
    await expect
      .poll(() => secondary.getByText(t('contacts.type_one.secondary', 'en', { n: 2 })).count())
      .toBe(1);
    const first = secondary.locator('div.rounded-lg').first();
    await first.getByLabel(t('contacts.fields.first_name')).fill('Sam');
    await first.getByLabel(t('contacts.fields.last_name')).fill('Second');
    await first.getByLabel(t('contacts.fields.email')).fill('sam@riverbank.example');
    await first.getByLabel(t('contacts.fields.job_title')).fill('Deputy Head');
    await page.getByRole('button', { name: t('common.save'), exact: true }).click();
    await snack(page, t('clients.saved'));
    // An address from before tabs were routes still opens its tab.
    await visit(page, `${clientPath}?tab=contacts`);
    expect(new URL(page.url()).pathname).toBe(`${clientPath}/contacts`);
    expect(
      await fieldset(page, t('contacts.types.secondary'))
        .getByLabel(t('contacts.fields.job_title'))
        .first()
        .inputValue(),
    ).toBe('Deputy Head');
  });

  it('adds a conversation note: the link to the message is required; with it and a file the note shows', async () => {
    await visit(page, `${clientPath}/notes`);
    await page.getByText(`+ ${t('notes.add')}`).click();
    await page.getByLabel(t('notes.fields.title')).fill('Parent enquiry');
    await page.getByLabel(t('notes.fields.note'), { exact: true }).fill('Asked about\ncover dates.');
    await page.locator('#add-note-type').selectOption('communication');
    await page.getByLabel(t('notes.fields.source')).selectOption('message_centre');
    await page.getByLabel(t('notes.fields.requester_type')).selectOption('school');
    await page.getByLabel(t('notes.fields.requested_by')).fill('Rita Rivers');
    await page.getByRole('button', { name: t('notes.add'), exact: true }).click();
    await expect.poll(() => page.getByText(t('validation.message_link_required')).count()).toBe(1);
    await page.getByLabel(t('notes.fields.message_link')).fill('/message-centre/enquiry42');
    await page.setInputFiles('input[name=file]', {
      name: 'enquiry.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('%PDF-1.4\n% enquiry\n%%EOF\n'),
    });
    await page.getByRole('button', { name: t('notes.add'), exact: true }).click();
    await snack(page, t('notes.added'));
    const note = page.getByTestId('note').filter({ hasText: 'Parent enquiry' });
    await note.waitFor();
    expect(await note.innerText()).toContain('cover dates.');
    const download = await note
      .getByRole('link', { name: t('notes.download', 'en', { name: 'enquiry.pdf' }) })
      .getAttribute('href');
    const file = await page.request.get(new URL(download!, BASE).toString());
    expect(file.status()).toBe(200);
    expect(file.headers()['content-type']).toBe('application/pdf');
    await screenshots(page, 'clients-notes');
  });

  it('shows every change in the logs tab, who made it and what changed', async () => {
    await visit(page, `${clientPath}/logs`);
    const rows = page.getByTestId('activity-row');
    await rows.first().waitFor();
    const text = await page.locator('main').innerText();
    expect(text).toContain(t('activity.actions.note_added'));
    expect(text).toContain(t('activity.actions.created'));
    expect(text).toContain('Sarah Senior');
    expect(text).toContain('Sam Second, sam@riverbank.example, Deputy Head');
    await screenshots(page, 'clients-logs', ['desktop']);
    // On a phone the owner's 60-character address breaks inside the change that names it.
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.locator('main').innerText()).toContain(LONG_EMAIL.slice(0, 20));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({
      path: 'test-output/screenshots/clients-logs-long-email-390.png',
      fullPage: true,
    });
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('archives the client, finds it in the archived tab and reactivates it with the bulk bar', async () => {
    await visit(page, clientPath);
    await page.getByRole('button', { name: t('clients.actions.archive'), exact: true }).click();
    await snack(page, t('clients.actions.done.archive'));
    await expect.poll(() => page.locator('h1').innerText()).toContain(t('clients.statuses.archived'));
    await visit(page, `/clients?tab=archived&search=${encodeURIComponent(NAME)}`);
    const row = page.getByRole('row').filter({ hasText: NAME });
    await row.getByRole('checkbox').check();
    await (await bulkAction(page, t('clients.bulk.reactivate'))).click();
    await snack(page, t('clients.bulk.done', 'en', { count: 1 }));
    await visit(page, clientPath);
    await expect.poll(() => page.locator('h1').innerText()).toContain(t('clients.statuses.active'));
  });

  it('lists a client’s campuses with links to their pages', async () => {
    await visit(page, '/clients?tab=active&search=Oakwood');
    await page.getByRole('link', { name: 'Oakwood International School' }).click();
    await waitForPath(page, /^\/clients\/[a-z0-9]+$/);
    await hydrated(page);
    await page.locator('[data-tab="campuses"]').click();
    await expect.poll(() => page.getByRole('link', { name: 'Oakwood North Campus' }).count()).toBe(1);
    const href = await page.getByRole('link', { name: 'Oakwood North Campus' }).getAttribute('href');
    expect(href).toMatch(/^\/clients\/[a-z0-9]+\/campuses\/[a-z0-9]+$/);
  });

  it('shows on a phone that more tabs exist; the last one is reached by keyboard and its address reloads', async () => {
    await page.setViewportSize(PHONE);
    try {
      await visit(page, '/clients?tab=active&search=Oakwood');
      await page.getByRole('link', { name: 'Oakwood International School' }).click();
      await waitForPath(page, /^\/clients\/[a-z0-9]+$/);
      await hydrated(page);
      const clientUrl = new URL(page.url()).pathname;
      const tabs = page.getByRole('navigation', { name: 'Oakwood International School' });
      expect(await tabs.locator('[aria-current="page"]').getAttribute('data-tab')).toBe('profile');
      // Tabs past the edge of the screen are announced by an arrow with their count.
      const more = tabs.getByTestId('tabs-more-after');
      await more.waitFor();
      expect(await more.getAttribute('aria-label')).toMatch(/^More tabs \(\d+\)$/);
      expect(await tabs.getByTestId('tabs-more-before').count()).toBe(0);
      await screenshots(page, 'clients-tabs-phone', ['phone']);

      // Every tab is a link in the tab order: walk to the last one and open it.
      await tabs.locator('[data-tab="profile"]').focus();
      for (let i = 0; i < 20; i++) {
        const focused = await page.evaluate(() => document.activeElement?.getAttribute('data-tab'));
        if (focused === 'transactions') break;
        await page.keyboard.press('Tab');
      }
      await page.keyboard.press('Enter');
      await waitForPath(page, `${clientUrl}/transactions`);
      await hydrated(page);
      expect(await tabs.locator('[aria-current="page"]').getAttribute('data-tab')).toBe('transactions');
      await tabs.getByTestId('tabs-more-before').waitFor();
      expect(await tabs.getByTestId('tabs-more-after').count()).toBe(0);

      // The tab's own address opens it directly.
      await page.reload();
      await hydrated(page);
      expect(await tabs.locator('[aria-current="page"]').getAttribute('data-tab')).toBe('transactions');
      await tabs.getByTestId('tabs-more-before').waitFor();
      await screenshots(page, 'clients-tabs-phone-last', ['phone']);
    } finally {
      await page.setViewportSize(DESKTOP);
    }
  });
});

describe('a school user', () => {
  let school: Page;
  beforeAll(async () => {
    school = await newPage(browser, BASE);
    await signIn(school, 'school.admin@demo.test');
  });

  it('edits its own school profile at /school/info and cannot open the clients list', async () => {
    await visit(school, '/school/info');
    expect(await school.locator('h1').innerText()).toBe(t('clients.school_info_title'));
    expect(await school.getByLabel(t('clients.fields.name'), { exact: true }).inputValue()).toBe(
      'Oakwood International School',
    );
    await school.getByLabel(t('clients.fields.description')).fill('A friendly boarding school by the river.');
    await school.getByRole('button', { name: t('common.save'), exact: true }).click();
    await snack(school, t('clients.saved'));
    await visit(school, '/school/info');
    expect(await school.getByLabel(t('clients.fields.description')).inputValue()).toBe(
      'A friendly boarding school by the river.',
    );
    await screenshots(school, 'clients-school-info');
    await school.goto('/clients');
    await waitForPath(school, /\/(home|insureds)$/);
  });
});
