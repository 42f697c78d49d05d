/**
 * The billing calls: GET billing/summary, statements of account (client, campus, a school user's own;
 * JSON and the PDF / Excel downloads) and a client's receivables, with good and bad input and another
 * tenant's ids answering 404.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { apiToken, call, type ErrorEnvelope } from '../support/api';
import { pdfText } from '../support/pdf-text';
import { DEMO_ACCOUNTS, SETUP_TIMEOUT_MS, testEnv, uniqueIp } from '../support/world';
import { createApp } from '../../workers/http';
import { seedContractsWorld, STRANGER, type ContractsWorld } from '../support/contracts';
import { day, insertInvoice, insertTransaction } from '../support/billing';

vi.mock('@remix-run/cloudflare', () => import('../support/remix-stub'));

let w: ContractsWorld;
let finance: string;
let school: string;
let stranger: string;
let number: string;

beforeAll(async () => {
  w = await seedContractsWorld();
  const inv = await insertInvoice({
    company_id: w.albion.id,
    client_id: w.oakwood.id,
    campus_id: w.north.id,
    total_minor: 12_000,
    date: day(-40),
    due_at: day(-35),
  });
  await insertTransaction(inv, { amount_minor: 2_000, paid_on: day(-1) });
  number = inv.number;
  [finance, school, stranger] = await Promise.all([
    apiToken(DEMO_ACCOUNTS.finance),
    apiToken(DEMO_ACCOUNTS.schoolAdmin),
    apiToken(STRANGER.companyUser),
  ]);
}, SETUP_TIMEOUT_MS);

interface Summary {
  currencies: { currency: string; outstanding: number; overdue_minor: number }[];
  aging: { client: { id: string }; d31_60_minor: number; total: number }[];
  months: unknown[];
}

describe('GET billing/summary', () => {
  it('answers the figures per currency, the aging per client and twelve months', async () => {
    const r = await call<{ data: Summary }>('/api/company/billing/summary', { token: finance });
    expect(r.status).toBe(200);
    const gbp = r.body.data.currencies.find((c) => c.currency === 'GBP')!;
    expect(gbp.outstanding).toBe(100);
    expect(gbp.overdue_minor).toBe(10_000);
    const row = r.body.data.aging.find((a) => a.client.id === w.oakwood.public_id)!;
    expect(row).toMatchObject({ d31_60_minor: 10_000, total: 100 });
    expect(r.body.data.months).toHaveLength(12);
  });

  it('is refused without a token, and shows another company nothing of ours', async () => {
    expect((await call('/api/company/billing/summary')).status).toBe(401);
    const r = await call<{ data: Summary }>('/api/company/billing/summary', { token: stranger });
    expect(r.body.data.aging.map((a) => a.client.id)).not.toContain(w.oakwood.public_id);
  });
});

describe('statements of account', () => {
  it("answers a client's statement for a period, with opening and closing balances", async () => {
    const r = await call<{
      data: {
        statement: {
          from: string;
          currencies: {
            opening_balance: number;
            closing_balance: number;
            entries: { reference: string; kind: string }[];
          }[];
        };
      };
    }>(`/api/company/clients/${w.oakwood.public_id}/statement?from=${day(-30)}&to=${day(0)}`, {
      token: finance,
    });
    expect(r.status).toBe(200);
    const [gbp] = r.body.data.statement.currencies;
    expect(gbp.opening_balance).toBe(120);
    expect(gbp.entries).toEqual([expect.objectContaining({ reference: number, kind: 'payment' })]);
    expect(gbp.closing_balance).toBe(100);
  });

  it('refuses a period that ends before it starts and a date that does not exist', async () => {
    const bad = await call<ErrorEnvelope>(
      `/api/company/clients/${w.oakwood.public_id}/statement?from=${day(0)}&to=${day(-1)}`,
      { token: finance },
    );
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([
      { key: 'to', message: 'The end date must be on or after the start date.' },
    ]);
    const wrong = await call(`/api/company/clients/${w.oakwood.public_id}/statement?from=2026-02-30`, {
      token: finance,
    });
    expect(wrong.status).toBe(422);
    const format = await call(`/api/company/clients/${w.oakwood.public_id}/statement/download?format=doc`, {
      token: finance,
    });
    expect(format.status).toBe(422);
  });

  it('downloads the statement as PDF and Excel', async () => {
    const pdf = await createApp().request(
      `/api/company/clients/${w.oakwood.public_id}/statement/download?format=pdf`,
      { headers: { authorization: `Bearer ${finance}`, 'cf-connecting-ip': uniqueIp() } },
      testEnv(),
    );
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('content-disposition')).toMatch(/statement-Oakwood-International-School-/);
    const text = (await pdfText(new Uint8Array(await pdf.arrayBuffer()))).join('\n');
    expect(text).toContain('Oakwood International School');
    expect(text).toContain(number);
    const xlsx = await call(`/api/company/campuses/${w.north.public_id}/statement/download?format=xlsx`, {
      token: finance,
    });
    expect(xlsx.status).toBe(200);
    expect(xlsx.headers.get('content-disposition')).toMatch(/North-Campus.*\.xlsx/);
  });

  it("answers a campus's statement and a school user's own, and 404 for another tenant's ids", async () => {
    const campus = await call(
      `/api/company/clients/${w.oakwood.public_id}/campuses/${w.north.public_id}/statement`,
      {
        token: finance,
      },
    );
    expect(campus.status).toBe(200);
    const own = await call<{ data: { statement: { client: { id: string } } } }>(
      `/api/school/billing/statement?campus_id=${w.north.public_id}`,
      { token: school },
    );
    expect(own.status).toBe(200);
    expect(own.body.data.statement.client.id).toBe(w.oakwood.public_id);
    for (const path of [
      `/api/company/clients/${w.oakwood.public_id}/statement`,
      `/api/company/clients/${w.oakwood.public_id}/statement/download?format=pdf`,
      `/api/company/clients/${w.oakwood.public_id}/receivables`,
      `/api/company/campuses/${w.north.public_id}/statement`,
      `/api/company/clients/${w.oakwood.public_id}/campuses/${w.north.public_id}/statement`,
    ])
      expect((await call(path, { token: stranger })).status, path).toBe(404);
    expect(
      (await call(`/api/company/clients/${w.highland.public_id}/statement`, { token: school })).status,
    ).toBe(404);
    expect(
      (
        await call(`/api/company/clients/${w.highland.public_id}/campuses/${w.north.public_id}/statement`, {
          token: finance,
        })
      ).status,
    ).toBe(404);
  });
});

describe('GET clients/{id}/receivables', () => {
  it("lists the client's open invoices with their due state", async () => {
    const r = await call<{ data: { items: { number: string; due_state: string; balance_minor: number }[] } }>(
      `/api/company/clients/${w.oakwood.public_id}/receivables`,
      { token: finance },
    );
    expect(r.status).toBe(200);
    expect(r.body.data.items).toEqual([
      expect.objectContaining({ number, due_state: 'overdue', balance_minor: 10_000 }),
    ]);
  });
});
