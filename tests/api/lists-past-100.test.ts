/**
 * Lists and selections larger than D1's 100 bound parameters in a statement: a page of up to 500 rows,
 * selections of 101 and of 5,000 insureds, a school user limited to 120 campuses, 120 contracts behind one
 * quote, 500 invoices, 5,000 notifications and a log page naming 200 people. Every one of them once
 * answered 500 when its ids were bound one parameter each; each list is tried at 101 values and at the
 * largest the call takes.
 *
 * The world is one policy issued through the real checkout, copied 5,000 times (tests/support/copies.ts:
 * a few set-based statements) over 120 contracts on 120 campuses of the demo school.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { env, SELF } from 'cloudflare:test';
import { createSession } from '../../workers/domain/auth/sessions';
import { cookieName } from '../../workers/web/cookies';
import { eq, sql } from 'drizzle-orm';
import {
  activityLogs,
  campuses,
  contracts,
  invoices,
  notifications,
  policies,
  users,
} from '../../drizzle/schema';
import { buildUser } from '../../drizzle/seed/builders';
import { activityFeed } from '../../workers/domain/activity/feed';
import { markNotificationsRead, unreadNotificationCount } from '../../workers/domain/notifications/service';
import { selectionSize } from '../../workers/domain/policies/amendments/pages';
import { policyListQuerySchema } from '../../workers/domain/policies/list-query';
import { MAX_PER_PAGE } from '../../workers/domain/list-query';
import { apiToken, call, type ErrorEnvelope } from '../support/api';
import { issuePolicies, seedAmendmentsWorld } from '../support/amendments';
import type { CheckoutWorld } from '../support/checkout';
import { COPY_NUMBER, FRESH_PUBLIC_ID, copyRow, oneOf } from '../support/copies';
import { day } from '../support/contracts';
import { DEMO_ACCOUNTS, SETUP_TIMEOUT_MS, actorCtx, db, userByEmail } from '../support/world';

vi.mock('@remix-run/cloudflare', () => import('../support/remix-stub'));

const MANY = 5000;
const CAMPUSES = 120;
const LIMITED = 'limited.campuses@demo.test';

interface ListAnswer<T> {
  data: Record<string, { items: T[]; meta: { total: number; per_page: number; last_page: number } }>;
}
type PolicyItem = { id: string; policy_number: string };

let w: CheckoutWorld;
let senior: string;
let school: string;
let limited: string;
/** Public ids of the copies, in copy order. */
let copies: string[];
let campusIds: number[];
let contractIds: number[];

beforeAll(async () => {
  w = await seedAmendmentsWorld();
  const [template] = await issuePolicies(w, 1);
  const d = db();
  campusIds = [
    w.north.id,
    ...(await copyRow(campuses, w.north.id, CAMPUSES - 1, {
      public_id: FRESH_PUBLIC_ID,
      name: sql`t.name || ' ' || ${COPY_NUMBER}`,
    })),
  ];
  contractIds = await copyRow(contracts, template.contract_id, CAMPUSES, {
    public_id: FRESH_PUBLIC_ID,
    campus_id: oneOf(campusIds),
    service_agreement_id: sql`NULL`,
    service_agreement_row_id: sql`NULL`,
  });
  const ids = await copyRow(policies, template.id, MANY, {
    public_id: FRESH_PUBLIC_ID,
    policy_number: sql`'P9' || printf('%07d', ${COPY_NUMBER})`,
    first_name: sql`'Insured ' || ${COPY_NUMBER}`,
    last_name: sql`'Many'`,
    contract_id: oneOf(contractIds),
    campus_id: sql`(SELECT c.campus_id FROM contracts c WHERE c.id = ${oneOf(contractIds)})`,
    enrollment_id: sql`NULL`,
    group_leader_id: sql`NULL`,
    dependency_id: sql`NULL`,
  });
  copies = (
    await d.all<{ public_id: string }>(sql`SELECT public_id FROM policies WHERE id >= ${ids[0]} ORDER BY id`)
  ).map((r) => r.public_id);
  await buildUser(d, {
    email: LIMITED,
    first_name: 'Lim',
    last_name: 'Ited',
    roles: ['school_master_user'],
    clientId: w.oakwood.id,
    campusIds,
  });
  [senior, school, limited] = await Promise.all([
    apiToken(DEMO_ACCOUNTS.seniorAdmin),
    apiToken(DEMO_ACCOUNTS.schoolAdmin),
    apiToken(LIMITED),
  ]);
}, SETUP_TIMEOUT_MS);

const listPolicies = (query: string, token: string) =>
  call<ListAnswer<PolicyItem>>(`/api/company/policies?${query}`, { token });

describe('the insureds list past 100 rows a page', () => {
  it('answers pages of 101 and of 500 insureds across 5,000, each page following the last', async () => {
    const first = await listPolicies('items=101&order=policy_number_desc', senior);
    expect(first.status).toBe(200);
    const page1 = first.body.data.policies;
    expect(page1.items).toHaveLength(101);
    expect(page1.meta.total).toBeGreaterThan(MANY);
    const numbers = page1.items.map((p) => p.policy_number);
    expect(numbers[0]).toBe(`P9${String(MANY).padStart(7, '0')}`);
    expect(numbers).toEqual([...numbers].sort().reverse());

    const second = await listPolicies('items=101&page=2&order=policy_number_desc', senior);
    expect(second.body.data.policies.items[0].policy_number).toBe(`P9${String(MANY - 101).padStart(7, '0')}`);

    const wide = await listPolicies(`items=${MAX_PER_PAGE}&page=3&order=policy_number_desc`, senior);
    expect(wide.status).toBe(200);
    const page3 = wide.body.data.policies;
    expect(page3.items).toHaveLength(MAX_PER_PAGE);
    expect(page3.meta.per_page).toBe(MAX_PER_PAGE);
    expect(new Set(page3.items.map((p) => p.id)).size).toBe(MAX_PER_PAGE);
    expect(page3.items[0].policy_number).toBe(`P9${String(MANY - 2 * MAX_PER_PAGE).padStart(7, '0')}`);
  });

  it('answers the /insureds page with 101 and with 500 rows', async () => {
    // Through the built Worker, as the page's own data request (Remix's `_data`) with a session.
    const user = await userByEmail(DEMO_ACCOUNTS.seniorAdmin);
    const { token } = await createSession(db(), {
      userId: user.id,
      kind: 'web',
      stage: 'active',
      now: new Date(),
    });
    const route = encodeURIComponent('routes/($lang)._main.insureds._index');
    for (const items of [101, MAX_PER_PAGE]) {
      const res = await SELF.fetch(`http://localhost:8787/insureds?items=${items}&_data=${route}`, {
        headers: { cookie: `${cookieName(env, 'sid')}=${token}` },
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { list: { items: unknown[]; meta: { total: number } } };
      expect(body.list.items).toHaveLength(items);
      expect(body.list.meta.total).toBeGreaterThan(MANY);
    }
  });

  it('answers a school user limited to 120 campuses: every page, the invoices and the campuses', async () => {
    const mine = await listPolicies(`items=${MAX_PER_PAGE}`, limited);
    expect(mine.status).toBe(200);
    expect(mine.body.data.policies.items).toHaveLength(MAX_PER_PAGE);
    expect(mine.body.data.policies.meta.total).toBeGreaterThan(MANY);

    const bills = await call<ListAnswer<unknown>>('/api/company/invoices?items=101', { token: limited });
    expect(bills.status).toBe(200);
    const places = await call<ListAnswer<unknown>>(`/api/company/campuses/fetch?items=${MAX_PER_PAGE}`, {
      token: limited,
    });
    expect(places.status).toBe(200);
    expect(Object.values(places.body.data)[0].meta.total).toBeGreaterThanOrEqual(CAMPUSES);
  });
});

describe('selections of 101 and of 5,000 insureds', () => {
  it('reads 101 and 1,000 named insureds (policies/list), and refuses 5,000 with a message', async () => {
    for (const n of [101, 1000]) {
      const res = await call<{ data: { policies: PolicyItem[] } }>('/api/company/policies/list', {
        method: 'POST',
        json: { policy_ids: copies.slice(0, n) },
        token: senior,
      });
      expect(res.status).toBe(200);
      expect(res.body.data.policies).toHaveLength(n);
    }
    const tooMany = await call<ErrorEnvelope>('/api/company/policies/list', {
      method: 'POST',
      json: { policy_ids: copies },
      token: senior,
    });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.errors.length).toBeGreaterThan(0);
  });

  it('adds a note to 101 and to 1,000 selected insureds', async () => {
    const note = {
      title: 'Many',
      note: 'One note on each',
      date: day(0),
      source: 'email',
      type: 'admin_note',
    };
    for (const n of [101, 1000]) {
      const res = await call<{ data: { added: number } }>('/api/company/policies/notes/add', {
        method: 'POST',
        json: { ...note, policies: copies.slice(1000, 1000 + n) },
        token: senior,
      });
      expect(res.status).toBe(201);
      expect(res.body.data.added).toBe(n);
    }
  });

  it('quotes an extension of 101 and of 5,000 insureds on 120 contracts', async () => {
    for (const n of [101, MANY]) {
      const res = await call<{ data: { amendment: { status: string; counts: Record<string, number> } } }>(
        '/api/company/policies/amount',
        {
          method: 'POST',
          json: { type: 'extend', policies: copies.slice(0, n), new_end_date: day(60) },
          token: school,
        },
      );
      expect(res.status).toBe(200);
      expect(res.body.data.amendment).toMatchObject({
        status: 'quoted',
        counts: expect.objectContaining({ selected: n, policies: n }),
      });
    }
  });

  it('counts a selection of all 5,000 matching insureds and of 5,000 named ones', async () => {
    const ctx = await actorCtx(DEMO_ACCOUNTS.seniorAdmin);
    const query = policyListQuerySchema.parse({ last_name: 'Many' });
    expect(await selectionSize(ctx, { all_matching: true }, query)).toBe(MANY);
    expect(await selectionSize(ctx, { ids: copies }, policyListQuerySchema.parse({}))).toBe(MANY);
  });
});

describe('invoices past 100', () => {
  it('lists 101 and 500 invoices a page, and sends overdue reminders for 101 and 500 named ones', async () => {
    const [template] = await db()
      .select()
      .from(invoices)
      .where(eq(invoices.client_id, w.oakwood.id))
      .limit(1);
    await copyRow(invoices, template.id, MANY, {
      public_id: FRESH_PUBLIC_ID,
      number: sql`'INV9' || printf('%06d', ${COPY_NUMBER})`,
      payment_reference: sql`'REF9' || printf('%06d', ${COPY_NUMBER})`,
      checkout_key: sql`NULL`,
      status: sql`'unpaid'`,
      paid_minor: sql`0`,
      due_at: sql`${day(-40)}`,
    });
    for (const items of [101, MAX_PER_PAGE]) {
      const res = await call<ListAnswer<unknown>>(`/api/company/invoices?items=${items}`, { token: senior });
      expect(res.status).toBe(200);
      expect(Object.values(res.body.data)[0].items).toHaveLength(items);
    }
    const overdue = await db().all<{ public_id: string }>(
      sql`SELECT public_id FROM invoices WHERE number LIKE 'INV9%' ORDER BY id`,
    );
    for (const n of [101, 500]) {
      const res = await call<{ data: { invoices: number } }>('/api/company/invoices/overdue-email', {
        method: 'POST',
        json: { invoice_ids: overdue.slice(0, n).map((i) => i.public_id) },
        token: senior,
      });
      expect(res.status).toBe(200);
    }
  });
});

describe('notifications and logs past 100', () => {
  it('marks 101, 500 (the API) and 5,000 (the service) notifications read', async () => {
    const me = await userByEmail(DEMO_ACCOUNTS.seniorAdmin);
    const [one] = await db()
      .insert(notifications)
      .values({
        user_id: me.id,
        title: 'Many',
        description: 'Read in bulk',
        to: null,
        created_at: new Date(),
      })
      .returning();
    const ids = [one.id, ...(await copyRow(notifications, one.id, MANY - 1))];
    const unread = () => unreadNotificationCount(db(), me.id);
    const before = await unread();
    for (const [from, n] of [
      [0, 101],
      [101, 500],
    ]) {
      const res = await call('/api/company/notifications/read', {
        method: 'POST',
        json: { ids: ids.slice(from, from + n) },
        token: senior,
      });
      expect(res.status).toBe(200);
    }
    expect(await unread()).toBe(before - 601);
    await markNotificationsRead(await actorCtx(DEMO_ACCOUNTS.seniorAdmin), ids);
    expect(await unread()).toBe(before - MANY);
  });

  it('shows a log page of 100 rows naming 200 different people', async () => {
    const me = await userByEmail(DEMO_ACCOUNTS.seniorAdmin);
    const people = await copyRow(users, me.id, 200, {
      public_id: FRESH_PUBLIC_ID,
      email: sql`'person' || ${COPY_NUMBER} || '@many.test'`,
      first_name: sql`'Person'`,
      last_name: sql`${COPY_NUMBER}`,
    });
    const [policy] = await db()
      .select({ id: policies.id })
      .from(policies)
      .where(eq(policies.public_id, copies[0]));
    const [row] = await db()
      .insert(activityLogs)
      .values({
        entity_type: 'policy',
        entity_id: policy.id,
        action: 'updated',
        actor_user_id: people[0],
        on_behalf_of_user_id: people[1],
        created_at: new Date(),
      })
      .returning();
    const actors = people.filter((_, i) => i % 2 === 0);
    const behalf = people.filter((_, i) => i % 2 === 1);
    await copyRow(activityLogs, row.id, 99, {
      actor_user_id: oneOf(actors.slice(1)),
      on_behalf_of_user_id: oneOf(behalf.slice(1)),
    });
    const feed = await activityFeed(db(), 'policy', policy.id, 1, 100);
    expect(feed.items).toHaveLength(100);
    const named = new Set(feed.items.flatMap((r) => [r.actor, r.on_behalf_of]));
    expect(named.size).toBe(200);
    expect([...named].every((name) => name?.startsWith('Person '))).toBe(true);
  });
});
