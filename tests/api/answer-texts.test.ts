/**
 * The texts of API answers are translated like the pages': no answer of the main calls (invoices with
 * their tax lines, amendments, payments, policies, billing, statements, errors) carries a translation key
 * (a dotted key of the locale files) where a person's text belongs, and a request in another language
 * (Accept-Language) gets that language's texts.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { invoices } from '../../drizzle/schema';
import { localeResources } from '../../app/locales/all';
import { apiToken, call } from '../support/api';
import { DEMO_ACCOUNTS, SETUP_TIMEOUT_MS, testEnv, uniqueIp } from '../support/world';
import { day, db, issuePolicies, seedAmendmentsWorld } from '../support/amendments';
import type { CheckoutWorld } from '../support/checkout';
import { createApp } from '../../workers/http';

vi.mock('@remix-run/cloudflare', () => import('../support/remix-stub'));

const app = createApp();

type Tree = { [key: string]: string | Tree };

/** Every key of the English locale files, as the domain writes them (`area.path.key`), plural forms too. */
function localeKeys(): Set<string> {
  const keys = new Set<string>();
  const walk = (node: Tree, prefix: string) => {
    for (const [k, v] of Object.entries(node)) {
      const key = `${prefix}.${k}`;
      if (typeof v === 'string') {
        keys.add(key);
        keys.add(key.replace(/_(zero|one|two|few|many|other)$/, ''));
      } else walk(v, key);
    }
  };
  for (const [area, tree] of Object.entries(localeResources.en)) walk(tree as Tree, area);
  return keys;
}

const KEYS = localeKeys();
const KEY_SHAPE = /^[a-z][a-z0-9_]*(\.[a-z0-9_]+)+$/;

/** The places (`path: value`) of an answer whose string value is a translation key. */
function translationKeysIn(value: unknown, path = '$', found: string[] = []): string[] {
  if (typeof value === 'string') {
    if (KEY_SHAPE.test(value) && KEYS.has(value)) found.push(`${path}: ${value}`);
  } else if (Array.isArray(value)) value.forEach((v, i) => translationKeysIn(v, `${path}[${i}]`, found));
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) translationKeysIn(v, `${path}.${k}`, found);
  return found;
}

/** Every string value of an answer. */
function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsIn);
  return [];
}

let w: CheckoutWorld;
let school: string;
let finance: string;
const answers: { call: string; body: unknown }[] = [];

async function seen<T = unknown>(label: string, path: string, opts: Parameters<typeof call>[1] = {}) {
  const r = await call<T>(path, opts);
  answers.push({ call: `${label} (${r.status})`, body: r.body });
  return r;
}

async function recordPayment(invoiceId: string, token: string, amount: string, lang?: string) {
  const form = new FormData();
  form.set('amount', amount);
  form.set('paid_on', day(0));
  form.set('method', 'bank_transfer');
  const headers: Record<string, string> = {
    authorization: `Bearer ${token}`,
    'cf-connecting-ip': uniqueIp(),
  };
  if (lang) headers['accept-language'] = lang;
  const res = await app.request(
    `/api/company/invoices/${invoiceId}/transactions/record`,
    { method: 'POST', body: form, headers },
    testEnv(),
  );
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  w = await seedAmendmentsWorld();
  school = await apiToken(DEMO_ACCOUNTS.schoolAdmin);
  finance = await apiToken(DEMO_ACCOUNTS.finance);
}, SETUP_TIMEOUT_MS);

describe('API answers carry texts, not translation keys', () => {
  it('walks the answers of the main calls and finds no translation key in them', async () => {
    const issued = await issuePolicies(w, 3);
    const [inv] = await db()
      .select({ public_id: invoices.public_id })
      .from(invoices)
      .where(eq(invoices.id, issued[0].invoice_id!));
    const policyIds = issued.map((p) => p.public_id);

    await seen('invoice', `/api/company/invoices/${inv.public_id}`, { token: finance });
    await seen('invoices', '/api/company/invoices', { token: finance });
    await seen('policies', '/api/company/policies', { token: school });
    await seen('policy', `/api/company/policies/${policyIds[0]}`, { token: school });
    const quote = await seen<{ data: { amendment: { id: string } } }>(
      'quote',
      '/api/company/policies/amount',
      {
        method: 'POST',
        json: { type: 'extend', policies: policyIds.slice(0, 2), new_end_date: day(36) },
        token: school,
      },
    );
    const quoteId = quote.body.data.amendment.id;
    await seen('quote read', `/api/company/policies/amount/${quoteId}`, { token: school });
    await seen('confirm', `/api/company/policies/amount/${quoteId}/confirm`, {
      method: 'POST',
      token: school,
    });
    // A quote refused for its new end date (before the current one) says so in words.
    await seen('refused quote', '/api/company/policies/amount', {
      method: 'POST',
      json: { type: 'extend', policies: policyIds.slice(0, 1), new_end_date: day(1) },
      token: school,
    });
    await seen('group leader', '/api/company/policies/group-leader/update', {
      method: 'POST',
      json: { policies: policyIds.slice(1), group_leader_id: policyIds[0] },
      token: school,
    });
    await seen('cancel', `/api/company/policies/${policyIds[2]}/cancel`, {
      method: 'POST',
      json: { reason: 'Trip cancelled' },
      token: school,
    });
    const paid = await recordPayment(inv.public_id, finance, '10.00');
    answers.push({ call: `record (${paid.status})`, body: paid.body });
    await seen('transactions', `/api/company/invoices/${inv.public_id}/transactions`, { token: finance });
    await seen('billing', '/api/company/billing/summary', { token: finance });
    await seen('school billing', '/api/school/billing/summary', { token: school });
    await seen('statement', `/api/company/clients/${w.oakwood.public_id}/statement`, { token: finance });
    await seen('school statement', '/api/school/billing/statement', { token: school });
    await seen('refused payment', `/api/company/invoices/unknown-invoice/transactions`, { token: finance });

    const found = answers.flatMap((a) => translationKeysIn(a.body).map((f) => `${a.call} ${f}`));
    expect(found).toEqual([]);
    // The walk saw the texts it is about: a tax line, an amendment's message, a refused quote's reason.
    const texts = new Set(answers.flatMap((a) => stringsIn(a.body)));
    for (const text of ['Insurance premium tax', 'Selected insured(s) have been updated successfully'])
      expect(texts.has(text), text).toBe(true);
    const refusal = 'The new end date must be after the current end date (';
    expect(
      [...texts].some((text) => text.startsWith(refusal)),
      refusal,
    ).toBe(true);
  });

  it("answers in the request's language (Accept-Language), English by default", async () => {
    const issued = await issuePolicies(w, 1);
    const [inv] = await db()
      .select({ public_id: invoices.public_id })
      .from(invoices)
      .where(eq(invoices.id, issued[0].invoice_id!));
    const label = (body: unknown) =>
      (body as { data: { invoice: { tax_lines: { label: string }[] } } }).data.invoice.tax_lines[0].label;
    const path = `/api/company/invoices/${inv.public_id}`;
    const en = await call(path, { token: finance });
    const fr = await call(path, {
      token: finance,
      headers: { 'accept-language': 'fr-FR,fr;q=0.9,en;q=0.5' },
    });
    const de = await call(path, { token: finance, headers: { 'accept-language': 'xx, de;q=0.8' } });
    const unknown = await call(path, { token: finance, headers: { 'accept-language': 'ja' } });
    const fr_tree = localeResources.fr.taxes as unknown as { lines: { ipt: string } };
    const de_tree = localeResources.de.taxes as unknown as { lines: { ipt: string } };
    expect(label(en.body)).toBe(localeResources.en.taxes.lines.ipt);
    expect(label(fr.body)).toBe(fr_tree.lines.ipt);
    expect(label(de.body)).toBe(de_tree.lines.ipt);
    expect(label(unknown.body)).toBe(localeResources.en.taxes.lines.ipt);
    expect(fr_tree.lines.ipt).not.toBe(localeResources.en.taxes.lines.ipt);

    // Error messages too.
    const missing = await call<{ message: string }>('/api/company/invoices/no-such-invoice', {
      token: finance,
      headers: { 'accept-language': 'es' },
    });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe(
      (localeResources.es.checkout as unknown as { errors: { invoice_not_found: string } }).errors
        .invoice_not_found,
    );
    const refused = await recordPayment(inv.public_id, finance, '0', 'it');
    expect(refused.status).toBe(422);
    expect(JSON.stringify(refused.body)).not.toMatch(/"[a-z_]+\.[a-z_.]+"/);
  });
});
