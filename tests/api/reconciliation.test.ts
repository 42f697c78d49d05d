/**
 * The bank reconciliation calls (/api/company/bank-statements...): upload (multipart) of camt.053 and CSV,
 * the same file again, bad files with the English message, column matching, lines, invoice search,
 * allocations added and removed, ignore, confirm (twice = once), and another company's user answered
 * "not found" on every id-taking call.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { transactions } from '../../drizzle/schema';
import { camt053Xml, statementCsv } from '../../drizzle/seed/reconciliation';
import { createApp } from '../../workers/http';
import { apiToken, call, type ErrorEnvelope } from '../support/api';
import { DEMO_ACCOUNTS, SETUP_TIMEOUT_MS, testEnv, uniqueIp } from '../support/world';
import { STRANGER, seedContractsWorld, type ContractsWorld } from '../support/contracts';
import { day, db, insertInvoice } from '../support/billing';

import type { ListMeta } from '../../workers/domain/list-query';

vi.mock('@remix-run/cloudflare', () => import('../support/remix-stub'));

const app = createApp();
const BASE = '/api/company/bank-statements';

let w: ContractsWorld;
let finance: string;
let stranger: string;

interface Statement {
  id: string;
  status: string;
  format: string;
  line_count: number;
  counts: Record<string, number>;
  headers: string[];
  mapping: Record<string, string | null>;
}
interface StatementList {
  data: {
    bank_statements: {
      items: { id: string; file_name: string; status: string; format: string }[];
      meta: ListMeta;
    };
  };
}
interface Line {
  line_no: number;
  status: string;
  problem: string | null;
  allocations: { id: number; amount_minor: number; invoice: { number: string } }[];
}

beforeAll(async () => {
  w = await seedContractsWorld();
  finance = await apiToken(DEMO_ACCOUNTS.finance);
  stranger = await apiToken(STRANGER.companyUser);
}, SETUP_TIMEOUT_MS);

async function upload(content: string, name: string, token: string | null = finance) {
  const form = new FormData();
  form.set('file', new File([content], name), name);
  const headers: Record<string, string> = { 'cf-connecting-ip': uniqueIp() };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await app.request(`${BASE}/upload`, { method: 'POST', headers, body: form }, testEnv());
  return {
    status: res.status,
    body: (await res.json()) as { data: { bank_statement: Statement; existing: boolean } } & ErrorEnvelope,
  };
}

const invoice = (total_minor: number) =>
  insertInvoice({ company_id: w.albion.id, client_id: w.oakwood.id, total_minor });

describe('bank statements API', () => {
  it('uploads a camt.053, matches it, answers the same statement for the same file, and confirms once', async () => {
    const a = await invoice(12_300);
    const b = await invoice(4_560);
    const xml = camt053Xml(
      [
        {
          amount_minor: 12_300,
          currency: 'GBP',
          booking_date: day(-1),
          bank_reference: 'API-1',
          text: `Pay ${a.payment_reference}`,
        },
        {
          amount_minor: 9_999,
          currency: 'GBP',
          booking_date: day(-1),
          bank_reference: 'API-2',
          text: 'Mystery',
        },
      ],
      { id: 'API' },
    );
    const first = await upload(xml, 'api.xml');
    expect(first.status).toBe(201);
    const s = first.body.data.bank_statement;
    expect(s).toMatchObject({
      format: 'camt053',
      status: 'review',
      line_count: 2,
      counts: { matched: 1, unmatched: 1 },
    });
    const again = await upload(xml, 'api-copy.xml');
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ existing: true, bank_statement: { id: s.id } });

    const list = await call<StatementList>(BASE, { token: finance });
    expect(list.status).toBe(200);
    expect(list.body.data.bank_statements.items.map((i) => i.id)).toContain(s.id);
    const got = await call<{ data: { bank_statement: Statement } }>(`${BASE}/${s.id}`, { token: finance });
    expect(got.body.data.bank_statement.id).toBe(s.id);

    const lines = await call<{ data: { lines: { items: Line[] } } }>(
      `${BASE}/${s.id}/lines?status=unmatched`,
      {
        token: finance,
      },
    );
    expect(lines.body.data.lines.items.map((l) => [l.line_no, l.problem])).toEqual([
      [2, 'reconciliation.problems.no_match'],
    ]);

    const found = await call<{ data: { number: string }[] }>(
      `${BASE}/${s.id}/invoices?search=${b.number}&currency=gbp`,
      { token: finance },
    );
    expect(found.body.data.map((i) => i.number)).toEqual([b.number]);

    const tooMuch = await call<ErrorEnvelope>(`${BASE}/${s.id}/lines/2/allocations`, {
      method: 'POST',
      json: { invoice: b.number, amount_minor: 4_561 },
      token: finance,
    });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body.errors).toEqual([
      { key: 'amount_minor', message: 'More than the invoice still owes (45.60 GBP).' },
    ]);
    const bad = await call<ErrorEnvelope>(`${BASE}/${s.id}/lines/2/allocations`, {
      method: 'POST',
      json: { invoice: '', amount_minor: -1, extra: 1 },
      token: finance,
    });
    expect(bad.status).toBe(422);

    const added = await call<{ data: { line: Line } }>(`${BASE}/${s.id}/lines/2/allocations`, {
      method: 'POST',
      json: { invoice: b.number, amount_minor: 4_560 },
      token: finance,
    });
    expect(added.status).toBe(201);
    expect(added.body.data.line).toMatchObject({ status: 'allocated' });
    const allocationId = added.body.data.line.allocations[0].id;
    const removed = await call<{ data: { line: Line } }>(`${BASE}/${s.id}/allocations/${allocationId}`, {
      method: 'DELETE',
      token: finance,
    });
    expect(removed.body.data.line).toMatchObject({ status: 'unmatched', allocations: [] });
    await call(`${BASE}/${s.id}/lines/2/allocations`, {
      method: 'POST',
      json: { invoice: b.number, amount_minor: 4_000 },
      token: finance,
    });

    const ignored = await call<{ data: { line: Line } }>(`${BASE}/${s.id}/lines/1/ignore`, {
      method: 'POST',
      json: { ignored: true },
      token: finance,
    });
    expect(ignored.body.data.line.status).toBe('ignored');
    await call(`${BASE}/${s.id}/lines/1/ignore`, {
      method: 'POST',
      json: { ignored: false },
      token: finance,
    });
    const missing = await call<ErrorEnvelope>(`${BASE}/${s.id}/lines/99/ignore`, {
      method: 'POST',
      json: { ignored: true },
      token: finance,
    });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Credit not found.');

    const confirmed = await call<{ data: { bank_statement: Statement } }>(`${BASE}/${s.id}/confirm`, {
      method: 'POST',
      token: finance,
    });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.data.bank_statement).toMatchObject({
      status: 'confirmed',
      counts: { recorded: 1, unmatched: 1 },
    });
    // line 1 was taken back as unmatched (its automatic match dropped); line 2 recorded 40.00 to b.
    const twice = await call<{ data: { bank_statement: Statement } }>(`${BASE}/${s.id}/confirm`, {
      method: 'POST',
      token: finance,
    });
    expect(twice.status).toBe(200);
    const paid = await db().select().from(transactions).where(eq(transactions.invoice_id, b.id));
    expect(paid.map((t) => t.amount_minor)).toEqual([4_000]);
    const late = await call<ErrorEnvelope>(`${BASE}/${s.id}/lines/1/ignore`, {
      method: 'POST',
      json: { ignored: true },
      token: finance,
    });
    expect(late.status).toBe(409);
    expect(late.body.message).toBe('This statement is already confirmed.');
  });

  it('matches the columns of a CSV, naming a row it cannot read', async () => {
    const inv = await invoice(7_890);
    const csv = statementCsv([
      { booking_date: day(-3), text: `INV ${inv.number}`, paid_in_minor: 7_890, bank_reference: 'CSV-API-1' },
    ]);
    const up = await upload(csv, 'bank.csv');
    expect(up.status).toBe(201);
    const s = up.body.data.bank_statement;
    expect(s).toMatchObject({ format: 'csv', status: 'mapping' });
    const columns = s.headers.map((_, i) => s.mapping[String(i)]);
    const wrong = await call<ErrorEnvelope>(`${BASE}/${s.id}/mapping`, {
      method: 'POST',
      json: { columns, date_order: 'ymd' },
      token: finance,
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors[0].message).toMatch(
      /^Row 2: the date ".+" is not a date in the order chosen\.$/,
    );
    const none = await call<ErrorEnvelope>(`${BASE}/${s.id}/mapping`, {
      method: 'POST',
      json: { columns: [], date_order: 'dmy' },
      token: finance,
    });
    expect(none.body.errors.map((e) => e.message)).toEqual([
      'Match a column to the booking date.',
      'Match a column to the amount, or to the credit.',
      "Match a column to the currency, or give the file's currency.",
    ]);
    const ok = await call<{ data: { bank_statement: Statement } }>(`${BASE}/${s.id}/mapping`, {
      method: 'POST',
      json: { columns, date_order: 'dmy' },
      token: finance,
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data.bank_statement).toMatchObject({ status: 'review', counts: { matched: 1 } });
  });

  it('refuses bad files with a clear message, and callers without a session', async () => {
    const notCamt = await upload('<?xml version="1.0"?><Document/>', 'x.xml');
    expect(notCamt.status).toBe(422);
    expect(notCamt.body.errors).toEqual([
      { key: 'file', message: 'The XML file is not an ISO 20022 camt.053 bank statement.' },
    ]);
    const badAmount = await upload(
      camt053Xml([{ amount_minor: 100, currency: 'GBP', booking_date: 'nope' }]),
      'y.xml',
    );
    expect(badAmount.body.errors[0].message).toBe('Entry 1: the booking date is missing.');
    expect((await upload('a,b\n1,2\n', 'z.csv', null)).status).toBe(401);
  });

  it('lists statements in the data envelope, searched by file, account or payer, filtered and paged', async () => {
    const camt = await upload(
      camt053Xml([
        {
          amount_minor: 2_500,
          currency: 'GBP',
          booking_date: day(-2),
          bank_reference: 'LIST-1',
          text: 'Term fees',
          debtor: 'Juniper Bursary Trust',
        },
      ]),
      'juniper-march.xml',
    );
    const csv = await upload(
      statementCsv([{ booking_date: day(-2), text: 'Fees', paid_in_minor: 1_200, bank_reference: 'LIST-2' }]),
      'willow-march.csv',
    );
    const list = async (query: string) => {
      const answer = await call<StatementList>(`${BASE}?${query}`, { token: finance });
      expect(answer.status).toBe(200);
      return answer.body.data.bank_statements;
    };
    const ids = async (query: string) => (await list(query)).items.map((i) => i.id);
    const camtId = camt.body.data.bank_statement.id;
    const csvId = csv.body.data.bank_statement.id;

    // The payer's name is on a credit, not on the statement: the search reads the credits too.
    expect(await ids('search=juniper bursary')).toEqual([camtId]);
    expect(await ids('search=willow-march')).toEqual([csvId]);
    expect(await ids('search=100%25')).toEqual([]);
    expect(await ids('search=march&format=csv')).toEqual([csvId]);
    expect(await ids('search=march&status=mapping')).toEqual([csvId]);
    expect(await ids('search=march&status=review')).toEqual([camtId]);
    expect(await ids(`search=march&from=${day(0)}&to=${day(0)}`)).toEqual([csvId, camtId]);
    expect(await ids(`search=march&to=${day(-1)}`)).toEqual([]);

    const first = await list('search=march&items=1');
    expect(first.items.map((i) => i.id)).toEqual([csvId]);
    expect(first.meta).toEqual({ from: 1, to: 1, per_page: 1, total: 2, current_page: 1, last_page: 2 });
    const second = await list('search=march&items=1&page=2');
    expect(second.items.map((i) => i.id)).toEqual([camtId]);
    expect(second.meta).toMatchObject({ from: 2, to: 2, current_page: 2 });

    for (const bad of ['status=lost', 'format=pdf', 'from=31/12/2026', `from=${day(0)}&to=${day(-1)}`]) {
      const refused = await call<ErrorEnvelope>(`${BASE}?${bad}`, { token: finance });
      expect([bad, refused.status]).toEqual([bad, 422]);
      expect(refused.body.errors.length).toBeGreaterThan(0);
    }
    const period = await call<ErrorEnvelope>(`${BASE}?from=${day(0)}&to=${day(-1)}`, { token: finance });
    expect(period.body.errors).toEqual([
      { key: 'to', message: 'The end date must be on or after the start date.' },
    ]);
    const schoolUser = await apiToken(DEMO_ACCOUNTS.campusEmployee);
    expect((await call(BASE, { token: schoolUser })).status).toBe(403);
    expect((await call(BASE)).status).toBe(401);
  });

  it('another company\'s user gets "not found" from every id-taking call', async () => {
    const up = await upload(
      camt053Xml([
        { amount_minor: 555, currency: 'GBP', booking_date: day(-1), bank_reference: 'ISO-1', text: 'x' },
      ]),
      'iso.xml',
    );
    const id = up.body.data.bank_statement.id;
    const added = await call<{ data: { line: Line } }>(`${BASE}/${id}/lines/1/allocations`, {
      method: 'POST',
      json: { invoice: (await invoice(555)).number, amount_minor: 555 },
      token: finance,
    });
    const allocation = added.body.data.line.allocations[0].id;
    const calls: [string, string, unknown?][] = [
      ['GET', `${BASE}/${id}`],
      ['GET', `${BASE}/${id}/lines`],
      ['GET', `${BASE}/${id}/invoices?search=INV`],
      ['POST', `${BASE}/${id}/mapping`, { columns: [], date_order: 'dmy' }],
      ['POST', `${BASE}/${id}/lines/1/allocations`, { invoice: 'INV0000001', amount_minor: 1 }],
      ['DELETE', `${BASE}/${id}/allocations/${allocation}`],
      ['POST', `${BASE}/${id}/lines/1/ignore`, { ignored: true }],
      ['POST', `${BASE}/${id}/confirm`],
    ];
    for (const [method, path, json] of calls) {
      const answer = await call<ErrorEnvelope>(path, { method, json, token: stranger });
      expect([method, path, answer.status, answer.body.message]).toEqual([
        method,
        path,
        404,
        'Bank statement not found.',
      ]);
    }
    const list = await call<StatementList>(BASE, { token: stranger });
    expect(list.body.data.bank_statements.items).toEqual([]);
  });
});
