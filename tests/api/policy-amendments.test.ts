import { beforeAll, describe, expect, it, vi } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { invoices, policies } from '../../drizzle/schema';
import { apiToken, call, type ErrorEnvelope } from '../support/api';
import { DEMO_ACCOUNTS, SETUP_TIMEOUT_MS } from '../support/world';
import { STRANGER } from '../support/contracts';
import { day, db, issuePolicies, reload, seedAmendmentsWorld, trip } from '../support/amendments';
import type { CheckoutWorld } from '../support/checkout';

vi.mock('@remix-run/cloudflare', () => import('../support/remix-stub'));

interface Quote {
  data: {
    amendment: {
      id: string;
      status: string;
      totals: { charge_minor: number; charge_tax_minor: number; credit_minor: number };
      counts: { policies: number; dependants: number };
      lines: { items: { errors: { message: string }[] }[] };
    };
  };
}
interface Applied {
  data: {
    amendment: {
      status: string;
      updated: number;
      invoices: { number: string; type: string; total_minor: number }[];
    };
  };
  message: string;
}

let w: CheckoutWorld;
let school: string;
let stranger: string;

beforeAll(async () => {
  w = await seedAmendmentsWorld();
  school = await apiToken(DEMO_ACCOUNTS.schoolAdmin);
  stranger = await apiToken(STRANGER.companyUser);
}, SETUP_TIMEOUT_MS);

const invoiceCount = async () =>
  (
    await db()
      .select({ n: sql<number>`count(*)` })
      .from(invoices)
  )[0].n;

describe('quote then confirm (policies/amount)', () => {
  it('answers a quote id and totals; confirming it applies it once', async () => {
    const issued = await issuePolicies(w, 3);
    const quote = await call<Quote>('/api/company/policies/amount', {
      method: 'POST',
      json: { type: 'extend', policies: issued.map((p) => p.public_id), new_end_date: day(36) },
      token: school,
    });
    expect(quote.status).toBe(200);
    const a = quote.body.data.amendment;
    expect(a).toMatchObject({
      status: 'quoted',
      totals: { charge_minor: 28500, charge_tax_minor: 3420, credit_minor: 0 },
    });

    const read = await call<Quote>(`/api/company/policies/amount/${a.id}?items=2`, { token: school });
    expect(read.status).toBe(200);
    expect(read.body.data.amendment.lines.items).toHaveLength(2);

    const before = await invoiceCount();
    const first = await call<Applied>(`/api/company/policies/amount/${a.id}/confirm`, {
      method: 'POST',
      token: school,
    });
    expect(first.status).toBe(200);
    expect(first.body.message).toBe('Selected insured(s) have been updated successfully');
    expect(first.body.data.amendment.invoices).toEqual([
      expect.objectContaining({ type: 'supplementary', total_minor: 31920 }),
    ]);
    const second = await call<Applied>(`/api/company/policies/amount/${a.id}/confirm`, {
      method: 'POST',
      token: school,
    });
    expect(second.status).toBe(200);
    expect(second.body.data).toEqual(first.body.data);
    expect(await invoiceCount()).toBe(before + 1);
    expect((await reload(issued)).map((p) => p.version)).toEqual([2, 2, 2]);
  });

  it('refuses a bad type, a missing date and an unknown quote', async () => {
    const [p] = await issuePolicies(w, 1);
    const badType = await call<ErrorEnvelope>('/api/company/policies/amount', {
      method: 'POST',
      json: { type: 'renew', policies: [p.public_id] },
      token: school,
    });
    expect(badType.status).toBe(422);
    expect(badType.body.errors[0].key).toBe('type');
    const noDate = await call<ErrorEnvelope>('/api/company/policies/amount', {
      method: 'POST',
      json: { type: 'trip_dates', policies: [p.public_id], new_end_date: day(40) },
      token: school,
    });
    expect(noDate.status).toBe(422);
    expect(noDate.body.errors).toEqual([{ key: 'new_start_date', message: 'This field is required' }]);
    const unknown = await call(`/api/company/policies/amount/nosuchquote/confirm`, {
      method: 'POST',
      token: school,
    });
    expect(unknown.status).toBe(404);
  });
});

describe('direct calls', () => {
  it('POST policies/{id}/extend charges the difference', async () => {
    const [p] = await issuePolicies(w, 1);
    const r = await call<Applied>(`/api/company/policies/${p.public_id}/extend`, {
      method: 'POST',
      json: { new_end_date: day(36) },
      token: school,
    });
    expect(r.status).toBe(200);
    expect(r.body.data.amendment.invoices[0]).toMatchObject({ type: 'supplementary', total_minor: 10640 });
    expect((await reload([p]))[0].end_date).toBe(day(36));
  });

  it('refuses an extension ending before the current end, in the call language, writing nothing', async () => {
    const [p] = await issuePolicies(w, 1); // ends on day(29)
    const amendments = async () =>
      (
        await db()
          .select({ n: sql<number>`count(*)` })
          .from(sql`policy_amendments`)
      )[0].n;
    const before = { invoices: await invoiceCount(), amendments: await amendments() };
    const current = day(29).split('-').reverse().join('/');
    const direct = await call<ErrorEnvelope>(`/api/company/policies/${p.public_id}/extend`, {
      method: 'POST',
      json: { new_end_date: day(20) },
      token: school,
    });
    expect(direct.status).toBe(422);
    expect(direct.body.errors).toEqual([
      { key: 'new_end_date', message: `The new end date must be after the current end date (${current})` },
    ]);
    const quoted = await call<ErrorEnvelope>('/api/company/policies/amount', {
      method: 'POST',
      json: { type: 'extend', policies: [p.public_id], new_end_date: day(29) },
      token: school,
      headers: { 'accept-language': 'de' },
    });
    expect(quoted.status).toBe(422);
    expect(quoted.body.errors[0].key).toBe('new_end_date');
    expect(quoted.body.errors[0].message).toBe(
      `Das neue Enddatum muss nach dem aktuellen Enddatum (${current}) liegen`,
    );
    expect({ invoices: await invoiceCount(), amendments: await amendments() }).toEqual(before);
    expect((await reload([p]))[0]).toMatchObject({ end_date: day(29), version: 1 });
  });

  it('POST policies/extend and POST policies/trip-dates/update work in bulk', async () => {
    const issued = await issuePolicies(w, 2);
    const ids = issued.map((p) => p.public_id);
    const ext = await call<Applied>('/api/company/policies/extend', {
      method: 'POST',
      json: { policies: ids, new_end_date: day(30) },
      token: school,
    });
    expect(ext.status).toBe(200);
    expect(ext.body.data.amendment.invoices).toEqual([]); // still three weeks
    const moved = await call<Applied>('/api/company/policies/trip-dates/update', {
      method: 'POST',
      json: { policies: ids, new_start_date: day(11), new_end_date: day(23) },
      token: school,
    });
    expect(moved.status).toBe(200);
    expect(moved.body.data.amendment.invoices).toEqual([
      expect.objectContaining({ type: 'credit_note', total_minor: 2 * 10640 }),
    ]);
  });

  it('PATCH policies/{id}/trip-dates/update refuses an end before the start', async () => {
    const [p] = await issuePolicies(w, 1);
    const r = await call<ErrorEnvelope>(`/api/company/policies/${p.public_id}/trip-dates/update`, {
      method: 'PATCH',
      json: { new_start_date: day(20), new_end_date: day(15) },
      token: school,
    });
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual([
      { key: 'new_end_date', message: 'End date should be after the start date' },
    ]);
  });

  it('cancel: a started policy is refused with the spec message; a reason is required', async () => {
    const [started, fresh] = await issuePolicies(w, 2);
    await db()
      .update(policies)
      .set({ start_date: day(-2) })
      .where(eq(policies.id, started.id));
    const refused = await call<ErrorEnvelope>('/api/company/policies/cancel', {
      method: 'POST',
      json: { policies: [started.public_id, fresh.public_id], reason: 'Did not travel' },
      token: school,
    });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe('You can only cancel policies that have not yet started');
    const noReason = await call<ErrorEnvelope>(`/api/company/policies/${fresh.public_id}/cancel`, {
      method: 'POST',
      json: { reason: '  ' },
      token: school,
    });
    expect(noReason.status).toBe(422);
    expect(noReason.body.errors[0].key).toBe('reason');
    const ok = await call<Applied>(`/api/company/policies/${fresh.public_id}/cancel`, {
      method: 'POST',
      json: { reason: 'Did not travel' },
      token: school,
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data.amendment.invoices[0].type).toBe('credit_note');
    const again = await call<ErrorEnvelope>(`/api/company/policies/${fresh.public_id}/extend`, {
      method: 'POST',
      json: { new_end_date: day(40) },
      token: school,
    });
    expect(again.status).toBe(422);
    expect(again.body.message).toBe('You cannot edit cancelled insureds');
  });
});

describe('group name and group leader', () => {
  it('PUT policies sets the group name; a bad name is refused', async () => {
    const issued = await issuePolicies(w, 2);
    const ids = issued.map((p) => p.public_id);
    const bad = await call<ErrorEnvelope>('/api/company/policies', {
      method: 'PUT',
      json: { policies: ids, group_name: 'x' },
      token: school,
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0]).toEqual({ key: 'group_name', message: 'Invalid group name' });
    const ok = await call<{ data: { updated: number } }>('/api/company/policies', {
      method: 'PUT',
      json: { policies: ids, group_name: 'Spring Group' },
      token: school,
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data.updated).toBe(2);
  });

  it('POST policies/group-leader/update and POST policies/{id}/update/group-leader', async () => {
    const t = trip(20);
    const [leader, a, b] = await issuePolicies(w, [
      { first_name: 'Lola', last_name: 'Lead', type: 'group_leader', date_of_birth: '1988-02-02', ...t },
      { first_name: 'Abe', last_name: 'One', ...t },
      { first_name: 'Bea', last_name: 'Two', ...t },
    ]);
    const bulk = await call<{ data: { updated: number } }>('/api/company/policies/group-leader/update', {
      method: 'POST',
      json: { group_leader_id: leader.public_id, policies: [a.public_id, b.public_id] },
      token: school,
    });
    expect(bulk.status).toBe(200);
    expect(bulk.body.data.updated).toBe(2);
    const one = await call<{ data: { updated: number } }>(
      `/api/company/policies/${a.public_id}/update/group-leader`,
      {
        method: 'POST',
        json: { group_leader_id: null },
        token: school,
      },
    );
    expect(one.body.data.updated).toBe(1);
    expect((await reload([a, b])).map((p) => p.group_leader_id)).toEqual([null, leader.id]);
    const notLeader = await call<ErrorEnvelope>(`/api/company/policies/${a.public_id}/update/group-leader`, {
      method: 'POST',
      json: { group_leader_id: b.public_id },
      token: school,
    });
    expect(notLeader.status).toBe(422);
  });
});

describe('isolation over the API', () => {
  it("another company's administrator gets not found for every id-taking call", async () => {
    const [p] = await issuePolicies(w, 1);
    const quote = await call<Quote>('/api/company/policies/amount', {
      method: 'POST',
      json: { type: 'extend', policies: [p.public_id], new_end_date: day(36) },
      token: school,
    });
    const id = quote.body.data.amendment.id;
    const calls: [string, string, unknown?][] = [
      ['GET', `/api/company/policies/amount/${id}`],
      ['POST', `/api/company/policies/amount/${id}/confirm`],
      [
        'POST',
        '/api/company/policies/amount',
        { type: 'extend', policies: [p.public_id], new_end_date: day(36) },
      ],
      ['POST', `/api/company/policies/${p.public_id}/extend`, { new_end_date: day(36) }],
      ['POST', '/api/company/policies/extend', { policies: [p.public_id], new_end_date: day(36) }],
      [
        'PATCH',
        `/api/company/policies/${p.public_id}/trip-dates/update`,
        { new_start_date: day(11), new_end_date: day(30) },
      ],
      [
        'POST',
        '/api/company/policies/trip-dates/update',
        { policies: [p.public_id], new_start_date: day(11), new_end_date: day(30) },
      ],
      ['POST', `/api/company/policies/${p.public_id}/cancel`, { reason: 'x' }],
      ['POST', '/api/company/policies/cancel', { policies: [p.public_id], reason: 'x' }],
      ['POST', `/api/company/policies/${p.public_id}/update/group-leader`, { group_leader_id: null }],
      [
        'POST',
        '/api/company/policies/group-leader/update',
        { policies: [p.public_id], group_leader_id: null },
      ],
      ['PUT', '/api/company/policies', { policies: [p.public_id], group_name: 'Their group' }],
    ];
    for (const [method, path, json] of calls) {
      const r = await call(path, { method, json, token: stranger });
      expect(r.status, `${method} ${path}`).toBe(404);
    }
    expect((await reload([p]))[0].version).toBe(1);
  });
});
