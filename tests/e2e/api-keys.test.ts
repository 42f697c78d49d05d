/**
 * Partners: on /api-keys (tabs: keys, webhooks, delivery log) a school's master user generates an API
 * key and registers a webhook endpoint of their own on the local test receiver, as a person would; the
 * partner's system orders a policy through the JSON API with that key; the webhooks to the new endpoint
 * are signed, delivered by the queue, shown in the delivery log with each attempt, and in the receiver,
 * which checked the signature with that endpoint's secret and shows the request's headers and raw body.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { APIRequestContext, Browser, Page } from 'playwright-core';
import { hydrated, launchBrowser, newPage, pathOf, screenshots, signIn, visit } from './support/browser';
import { t } from './support/i18n';
import { UK_URL } from './support/servers';

const SCHOOL = 'school.admin@demo.test';
const PERMISSIONS = [
  'read_campus',
  'read_contract',
  'create_insured',
  'read_insured',
  'create_policy',
  'read_policy',
];

let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  page = await newPage(browser, UK_URL);
  await signIn(page, SCHOOL);
});
afterAll(async () => {
  await browser?.close();
});

async function api<T>(
  request: APIRequestContext,
  key: string,
  path: string,
  json?: unknown,
): Promise<{ status: number; body: T }> {
  const res = json
    ? await request.post(`${UK_URL}${path}`, { headers: { authorization: `Bearer ${key}` }, data: json })
    : await request.get(`${UK_URL}${path}`, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status(), body: (await res.json()) as T };
}

const isoDay = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

const logTable = () => page.getByRole('table', { name: t('webhooks.log_title') });
const tab = (key: 'keys' | 'webhooks' | 'deliveries') =>
  page
    .getByRole('navigation', { name: t('api_keys.title') })
    .getByRole('link', { name: t(`api_keys.tabs.${key}`) });

/** Opens a tab of /api-keys by its link, as a person would. */
async function openTab(key: 'keys' | 'webhooks' | 'deliveries') {
  await tab(key).click();
  await page.waitForURL((url) => url.pathname === (key === 'keys' ? '/api-keys' : `/api-keys/${key}`));
  await tab(key).and(page.locator('[aria-current="page"]')).waitFor();
  await hydrated(page);
}

/** Reloads until `ready` holds (the queue delivers in the background), at most a minute. */
async function reloadUntil(ready: () => Promise<boolean>) {
  for (let i = 0; i < 60 && !(await ready()); i++) {
    await page.waitForTimeout(1000);
    await page.reload();
    await hydrated(page);
  }
  expect(await ready()).toBe(true);
}

/** Chooses a status in the delivery log's filter, as a person would ('' = all). */
async function showLog(status: '' | 'failed' | 'delivered') {
  const label = status ? t(`webhooks.statuses.${status}`) : t('webhooks.log_all');
  const link = page
    .getByRole('navigation', { name: t('webhooks.log_filter') })
    .getByRole('link', { name: label, exact: true });
  await link.click();
  // Shown once the new page has rendered (the address changes before the page does).
  await page
    .getByRole('navigation', { name: t('webhooks.log_filter') })
    .locator(`a[aria-current="page"]`, { hasText: label })
    .waitFor();
}

describe('API keys and webhooks', () => {
  it('old addresses open the tabs: ?tab= and the delivery log’s log_* parameters', async () => {
    await visit(page, '/api-keys?tab=webhooks');
    expect(pathOf(page)).toBe('/api-keys/webhooks');
    await visit(page, '/api-keys?log_status=failed');
    expect(pathOf(page)).toBe('/api-keys/deliveries');
    expect(new URL(page.url()).searchParams.get('status')).toBe('failed');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(t('api_keys.title'));
  });

  it('a key from the page orders through the API; the webhooks to the user’s own endpoint are delivered and logged', async () => {
    await visit(page, '/api-keys/deliveries');
    // The seeded log has a failed delivery among delivered ones; the log filters by status.
    await showLog('failed');
    const failedRows = logTable()
      .getByRole('row')
      .filter({ has: page.getByRole('cell') });
    expect(await failedRows.count()).toBeGreaterThan(0);
    for (const r of await failedRows.all()) {
      expect(await r.getByText(t('webhooks.statuses.failed'), { exact: true }).count()).toBe(1);
    }
    await showLog('');
    await screenshots(page, 'api-keys-deliveries');

    // An endpoint of the user's own on the test receiver: its address is not tied to anything.
    await openTab('webhooks');
    const receiver = await page.getByTestId('receiver-hint').getByRole('link').getAttribute('href');
    expect(receiver).toMatch(/\/dev\/webhooks$/);
    const address = `${receiver}/partner-sis-${Date.now().toString(36)}`;
    await page.getByLabel(t('webhooks.fields.url'), { exact: true }).fill(address);
    await page.getByLabel(t('webhooks.fields.description'), { exact: true }).fill('Partner SIS');
    await page.getByRole('button', { name: t('webhooks.add') }).click();
    const mine = page.getByTestId('webhook-endpoint').filter({ hasText: address });
    await mine.waitFor();
    await screenshots(page, 'api-keys-webhooks');

    await openTab('keys');
    await page.getByLabel(t('api_keys.fields.name'), { exact: true }).fill('Partner SIS');
    for (const p of PERMISSIONS) await page.locator(`input[name="permissions"][value="${p}"]`).check();
    await page.getByRole('button', { name: t('api_keys.generate') }).click();
    const shown = page.getByTestId('new-api-key').getByRole('textbox');
    await shown.waitFor();
    const key = await shown.inputValue();
    expect(key).toMatch(/^ep_test_[0-9A-Za-z]{36}$/);
    await screenshots(page, 'api-keys-keys');
    // Shown once: a reload shows the key's start only.
    await page.reload();
    await hydrated(page);
    expect(await page.getByTestId('new-api-key').count()).toBe(0);
    await page.getByText(`${key.slice(0, 12)}…`).waitFor();
    // The partner's system, with the key only.
    const request = page.context().request;
    const campuses = await api<{ data: { campuses: { items: { id: string; name: string }[] } } }>(
      request,
      key,
      '/api/company/campuses/fetch',
    );
    expect(campuses.status).toBe(200);
    const north = campuses.body.data.campuses.items.find((c) => c.name.includes('North'))!;
    const contracts = await api<{ data: { contracts: { items: { id: string }[] } } }>(
      request,
      key,
      `/api/company/campuses/${north.id}/contracts`,
    );
    const countries = await api<{ data: { countries: { id: number; abbreviation: string }[] } }>(
      request,
      key,
      '/api/countries',
    );
    const country = (code: string) => countries.body.data.countries.find((c) => c.abbreviation === code)!.id;
    const applicant = {
      type: 'student',
      first_name: 'Ama',
      last_name: `Partner${Date.now().toString(36).replace(/\d/g, '')}`,
      date_of_birth: '2006-09-10',
      residence_country_id: country('FR'),
      destination_country_id: country('GB'),
      start_date: isoDay(14),
      end_date: isoDay(60),
    };
    let batch: string | null = null;
    for (const c of contracts.body.data.contracts.items) {
      const made = await api<{ data: { policy_batch: { id: string }; with_errors: number } }>(
        request,
        key,
        `/api/company/campuses/${north.id}/policies/add/batch`,
        { contract_id: c.id, items: [applicant], validate_first: true },
      );
      if (made.status === 201 && made.body.data.with_errors === 0) {
        batch = made.body.data.policy_batch.id;
        break;
      }
    }
    expect(batch).not.toBeNull();
    expect(
      (await api(request, key, `/api/company/policy-batches/${batch}/enrollments/confirm`, {})).status,
    ).toBe(200);
    const checkout = await api<{ data: unknown }>(request, key, '/api/company/policy-batches/confirm-open', {
      checkout_key: `e2e-partner-${Date.now()}`,
      payment_method: 'invoiced_directly',
    });
    expect(checkout.status).toBe(200);
    // A key without the permission (the privileges' read_user_privilege) is refused as the user would be.
    expect((await api(request, key, '/api/company/roles')).status).toBe(403);

    // The queue delivers the events to the new endpoint; its log shows them delivered.
    await openTab('webhooks');
    await mine.getByRole('link', { name: t('webhooks.deliveries_of', 'en', { url: address }) }).click();
    await page.getByTestId('log-endpoint').waitFor();
    await hydrated(page);
    const delivered = () =>
      logTable().getByRole('row').filter({ hasText: 'policy.issued' }).filter({ hasText: '200' });
    await reloadUntil(async () => (await delivered().count()) > 0);

    // The delivery's page: when the event happened, each attempt; Redeliver adds one and keeps the time.
    await delivered().first().getByRole('link').click();
    await page.getByRole('table', { name: t('webhooks.attempts_title') }).waitFor();
    await hydrated(page);
    const happened = await page.getByTestId('happened').textContent();
    const attempts = () =>
      page
        .getByRole('table', { name: t('webhooks.attempts_title') })
        .getByRole('row')
        .filter({ has: page.getByRole('cell') });
    expect(await attempts().count()).toBe(1);
    expect(await attempts().first().textContent()).toContain('200');
    await page.getByRole('button', { name: t('webhooks.redeliver') }).click();
    await reloadUntil(async () => (await attempts().count()) === 2);
    expect(await page.getByTestId('happened').textContent()).toBe(happened);
    expect(await page.getByText(applicant.last_name).count()).toBeGreaterThan(0); // the body sent
    await screenshots(page, 'api-keys-delivery');

    // The receiver checked the signature with the new endpoint's secret, and shows the request as it came.
    await page.goto('/dev/webhooks'); // the Worker's own page: no Remix to wait for
    const path = new URL(address).pathname;
    const row = page.getByRole('row').filter({ hasText: path }).filter({ hasText: 'policy.issued' }).first();
    await row.waitFor();
    expect(await row.getByText('valid', { exact: true }).count()).toBe(1);
    await screenshots(page, 'webhook-receiver', ['desktop']);
    await row.getByRole('link').click();
    await page.getByRole('heading', { name: `POST ${path}` }).waitFor();
    for (const header of ['webhook-id', 'webhook-timestamp', 'webhook-signature', 'content-type'])
      expect(await page.getByRole('rowheader', { name: header, exact: true }).count()).toBe(1);
    expect(await page.locator('pre').textContent()).toContain(applicant.last_name);
    await screenshots(page, 'webhook-receiver-request', ['desktop']);
  });
});
