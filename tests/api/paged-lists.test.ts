/**
 * The lists that page through `paginate` (workers/domain/lists.ts) past D1's 100 bound parameters and past
 * row 100: an invoice's policies and an amendment's lines at `items=101` (the API), a bank statement's
 * credits, the import review grid and the fees step at their fixed 50 a page, each on the page holding
 * rows 101 onwards; a review page asked past its last answers the last; the /billing aging table paged in
 * memory the same way.
 *
 * The world is one policy issued through the real checkout, copied (tests/support/copies.ts).
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { invoiceItems, invoices, policies, policyBatches } from '../../drizzle/schema';
import { buildPolicyBatch, seedApplicants } from '../../drizzle/seed/builders';
import { camt053Xml } from '../../drizzle/seed/reconciliation';
import { agingPage } from '../../workers/domain/billing/summary';
import { feesStep, reviewPage } from '../../workers/domain/imports/review';
import { createApp } from '../../workers/http';
import { apiToken, call } from '../support/api';
import { issuePolicies, seedAmendmentsWorld } from '../support/amendments';
import type { CheckoutWorld } from '../support/checkout';
import { COPY_NUMBER, FRESH_PUBLIC_ID, copyRow } from '../support/copies';
import { day } from '../support/contracts';
import {
  DEMO_ACCOUNTS,
  SETUP_TIMEOUT_MS,
  actorCtx,
  db,
  testEnv,
  uniqueIp,
  userByEmail,
} from '../support/world';
import type { ListMeta } from '../../workers/domain/list-query';

vi.mock('@remix-run/cloudflare', () => import('../support/remix-stub'));

const ROWS = 120;

let w: CheckoutWorld;
let senior: string;
let school: string;
let finance: string;

beforeAll(async () => {
  w = await seedAmendmentsWorld();
  [senior, school, finance] = await Promise.all([
    apiToken(DEMO_ACCOUNTS.seniorAdmin),
    apiToken(DEMO_ACCOUNTS.schoolAdmin),
    apiToken(DEMO_ACCOUNTS.finance),
  ]);
}, SETUP_TIMEOUT_MS);

describe('an invoice of more than 100 policies', () => {
  it('answers 101 of its policies a page, and the rest on the next', async () => {
    const [policy] = await issuePolicies(w, 1);
    const [invoice] = await db().select().from(invoices).where(eq(invoices.id, policy.invoice_id!));
    const [item] = await db().select().from(invoiceItems).where(eq(invoiceItems.invoice_id, invoice.id));
    await copyRow(invoiceItems, item.id, ROWS - 1, { description: sql`'Copy ' || ${COPY_NUMBER}` });
    type Detail = { data: { invoice: { items: { description: string }[]; meta: ListMeta } } };
    const first = await call<Detail>(`/api/company/invoices/${invoice.public_id}?items=101`, {
      token: senior,
    });
    expect(first.status).toBe(200);
    expect(first.body.data.invoice.items).toHaveLength(101);
    expect(first.body.data.invoice.meta).toEqual({
      from: 1,
      to: 101,
      per_page: 101,
      total: ROWS,
      current_page: 1,
      last_page: 2,
    });
    const second = await call<Detail>(`/api/company/invoices/${invoice.public_id}?items=101&page=2`, {
      token: senior,
    });
    expect(second.body.data.invoice.items.map((i) => i.description)).toEqual(
      Array.from({ length: ROWS - 101 }, (_, i) => `Copy ${101 + i}`),
    );
    expect(second.body.data.invoice.meta).toMatchObject({ from: 102, to: ROWS, current_page: 2 });
  });
});

describe("an amendment's lines past 100", () => {
  it('answers 101 lines a page of a quote for 120 insureds', async () => {
    const [template] = await issuePolicies(w, 1);
    await copyRow(policies, template.id, ROWS - 1, {
      public_id: FRESH_PUBLIC_ID,
      policy_number: sql`'PL' || printf('%07d', ${COPY_NUMBER})`,
      first_name: sql`'Line ' || ${COPY_NUMBER}`,
      enrollment_id: sql`NULL`,
      group_leader_id: sql`NULL`,
      dependency_id: sql`NULL`,
    });
    const ids = (
      await db().all<{ public_id: string }>(
        sql`SELECT public_id FROM policies WHERE id = ${template.id} OR policy_number LIKE 'PL%' ORDER BY id`,
      )
    ).map((r) => r.public_id);
    expect(ids).toHaveLength(ROWS);
    const quoted = await call<{ data: { amendment: { id: string } } }>('/api/company/policies/amount', {
      method: 'POST',
      json: { type: 'extend', policies: ids, new_end_date: day(60) },
      token: school,
    });
    expect(quoted.status).toBe(200);
    type Lines = { data: { amendment: { lines: { items: { policy: { id: string } }[]; meta: ListMeta } } } };
    const id = quoted.body.data.amendment.id;
    const page1 = await call<Lines>(`/api/company/policies/amount/${id}?items=101`, { token: school });
    expect(page1.status).toBe(200);
    expect(page1.body.data.amendment.lines.items).toHaveLength(101);
    expect(page1.body.data.amendment.lines.meta).toMatchObject({ total: ROWS, per_page: 101, last_page: 2 });
    const page2 = await call<Lines>(`/api/company/policies/amount/${id}?items=101&page=2`, { token: school });
    const seen = [...page1.body.data.amendment.lines.items, ...page2.body.data.amendment.lines.items];
    expect(new Set(seen.map((l) => l.policy.id))).toEqual(new Set(ids));
  });
});

describe("a bank statement's credits past 100", () => {
  it('answers the third page of 50: credits 101 to 120', async () => {
    const xml = camt053Xml(
      Array.from({ length: ROWS }, (_, i) => ({
        amount_minor: 1000 + i,
        currency: 'GBP',
        booking_date: day(-1),
        bank_reference: `MANY-${i + 1}`,
        text: `Credit ${i + 1}`,
      })),
      { id: 'MANY' },
    );
    const form = new FormData();
    form.set('file', new File([xml], 'many.xml'), 'many.xml');
    const res = await createApp().request(
      '/api/company/bank-statements/upload',
      {
        method: 'POST',
        headers: { 'cf-connecting-ip': uniqueIp(), authorization: `Bearer ${finance}` },
        body: form,
      },
      testEnv(),
    );
    expect(res.status).toBe(201);
    const { id } = ((await res.json()) as { data: { bank_statement: { id: string } } }).data.bank_statement;
    type Lines = { data: { lines: { items: { line_no: number; amount_minor: number }[]; meta: ListMeta } } };
    const third = await call<Lines>(`/api/company/bank-statements/${id}/lines?page=3`, { token: finance });
    expect(third.status).toBe(200);
    expect(third.body.data.lines.items.map((l) => l.line_no)).toEqual(
      Array.from({ length: ROWS - 100 }, (_, i) => 101 + i),
    );
    expect(third.body.data.lines.meta).toEqual({
      from: 101,
      to: ROWS,
      per_page: 50,
      total: ROWS,
      current_page: 3,
      last_page: 3,
    });
    // A page number that is not one is the first page, as on every list.
    const odd = await call<Lines>(`/api/company/bank-statements/${id}/lines?page=x`, { token: finance });
    expect(odd.status).toBe(200);
    expect(odd.body.data.lines.meta).toMatchObject({ current_page: 1, from: 1, to: 50 });
  });
});

describe('the import review and fees past 100 applicants', () => {
  it('shows rows 101 to 120 on the third page of 50, and the last page when asked past it', async () => {
    const user = await userByEmail(DEMO_ACCOUNTS.schoolAdmin);
    const { batch: built } = await buildPolicyBatch(db(), {
      campusId: w.north.id,
      contractId: w.contract.id,
      createdBy: user.id,
      applicants: seedApplicants(ROWS, { start_date: day(20), end_date: day(40) }),
      status: 'draft',
    });
    const [batch] = await db().select().from(policyBatches).where(eq(policyBatches.id, built.id));
    const ctx = await actorCtx(DEMO_ACCOUNTS.schoolAdmin);
    const ib = { batch, imp: null };
    const rows101 = Array.from({ length: ROWS - 100 }, (_, i) => 101 + i);

    const third = await reviewPage(ctx, ib, { page: 3, errors_only: false });
    expect(third.rows.items.map((r) => r.position)).toEqual(rows101);
    expect(third.rows.meta).toEqual({
      from: 101,
      to: ROWS,
      per_page: 50,
      total: ROWS,
      current_page: 3,
      last_page: 3,
    });
    expect(third.counts.total).toBe(ROWS);
    const past = await reviewPage(ctx, ib, { page: 9, errors_only: false });
    expect(past.rows.meta).toMatchObject({ current_page: 3, from: 101, to: ROWS });
    expect(past.rows.items.map((r) => r.position)).toEqual(rows101);
    // No row has an error: the "errors only" grid is one empty page.
    const errorsOnly = await reviewPage(ctx, ib, { page: 2, errors_only: true });
    expect(errorsOnly.rows).toEqual({
      items: [],
      meta: { from: 0, to: 0, per_page: 50, total: 0, current_page: 1, last_page: 1 },
    });

    const fees = await feesStep(ctx, ib, 3);
    expect(fees.totals.count).toBe(ROWS);
    expect(fees.rows.items.map((r) => r.position)).toEqual(rows101);
    expect((await feesStep(ctx, ib, 40)).rows.meta).toMatchObject({ current_page: 3, last_page: 3 });
  });
});

describe('the /billing aging table', () => {
  it('pages rows in memory as the lists do: 25 a page, past the last the last', () => {
    const rows = Array.from({ length: 120 }, (_, i) => i + 1);
    expect(agingPage(rows, 5)).toEqual({
      items: rows.slice(100, 120),
      meta: { from: 101, to: 120, per_page: 25, total: 120, current_page: 5, last_page: 5 },
    });
    expect(agingPage(rows, 9).meta).toMatchObject({ current_page: 5, from: 101 });
    expect(agingPage(rows, 0).meta).toMatchObject({ current_page: 1, from: 1, to: 25 });
    expect(agingPage([], 3)).toEqual({
      items: [],
      meta: { from: 0, to: 0, per_page: 25, total: 0, current_page: 1, last_page: 1 },
    });
  });
});
