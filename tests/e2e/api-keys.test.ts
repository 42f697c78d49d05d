/**
 * Partners: a school's master user generates an API key on /api-keys as a person would; the
 * partner's system orders a policy through the JSON API with that key; the policy.issued webhook to the
 * school's endpoint (the seeded one, on the local test receiver) is signed, delivered by the queue, shown
 * in the page's delivery log and in the receiver, which checked the signature.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { APIRequestContext, Browser, Page } from 'playwright-core';
import { hydrated, launchBrowser, newPage, screenshots, signIn, visit } from './support/browser';
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

/** The number of deliveries the log's pager counts ("Showing 1 to 25 of N"; none: "No results"). */
async function logTotal(): Promise<number> {
  const pager = page.getByRole('navigation', { name: t('table.pagination') }).last();
  const text = (await pager.locator('p').textContent()) ?? '';
  return Number(/(\d+)\s*$/.exec(text)?.[1] ?? 0);
}

describe('API keys and webhooks', () => {
  it('a key generated on the page orders through the API; the webhook is signed, delivered and logged', async () => {
    await visit(page, '/api-keys');
    await hydrated(page);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(t('api_keys.title'));
    // The seeded delivery log has a failed delivery among delivered ones; the log filters by status (other
    // tests' orders add deliveries, so the failed one need not be on the log's first page unfiltered).
    await showLog('failed');
    const failedRows = logTable()
      .getByRole('row')
      .filter({ has: page.getByRole('cell') });
    expect(await failedRows.count()).toBeGreaterThan(0);
    for (const r of await failedRows.all()) {
      expect(await r.getByText(t('webhooks.statuses.failed'), { exact: true }).count()).toBe(1);
    }
    // Delivered so far (counted before the order below, whose webhook the queue may deliver at once).
    await showLog('delivered');
    const before = await logTotal();
    await showLog('');

    await page.getByLabel(t('api_keys.fields.name'), { exact: true }).fill('Partner SIS');
    for (const p of PERMISSIONS) await page.locator(`input[name="permissions"][value="${p}"]`).check();
    await page.getByRole('button', { name: t('api_keys.generate') }).click();
    const shown = page.getByTestId('new-api-key').getByRole('textbox');
    await shown.waitFor();
    const key = await shown.inputValue();
    expect(key).toMatch(/^ep_test_[0-9A-Za-z]{36}$/);
    await screenshots(page, 'api-keys');
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

    // The queue delivers the policy.issued event to the school's endpoint; the log shows it delivered.
    await showLog('delivered');
    for (let i = 0; i < 60 && (await logTotal()) <= before; i++) {
      await page.waitForTimeout(1000);
      await page.reload();
      await hydrated(page);
    }
    expect(await logTotal()).toBeGreaterThan(before);
    expect(
      await logTable()
        .getByRole('row')
        .filter({ hasText: 'policy.issued' })
        .filter({ hasText: '200' })
        .count(),
    ).toBeGreaterThan(0);
    await page.getByRole('heading', { name: t('webhooks.log_title') }).scrollIntoViewIfNeeded();
    await screenshots(page, 'api-keys-log', ['desktop']);

    // The receiver checked the Standard Webhooks signature.
    await page.goto('/dev/webhooks'); // the Worker's own page: no Remix to wait for
    const row = page.getByRole('row').filter({ hasText: 'policy.issued' }).first();
    await row.waitFor();
    expect(await row.getByText('valid', { exact: true }).count()).toBe(1);
    expect(await page.content()).toContain(applicant.last_name);
    await screenshots(page, 'webhook-receiver', ['desktop']);
  });
});
