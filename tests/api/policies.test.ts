/**
 * The insureds calls of the JSON API (spec 002 s.7 "Insureds and policies", read side and personal
 * details): each with good input and bad input, in the catalogue's answer shapes, as the demo
 * administrator; another tenant's ids answer 404.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { notes, policyBatches } from '../../drizzle/schema';
import { apiToken, call, type ErrorEnvelope } from '../support/api';
import { DEMO_ACCOUNTS, SETUP_TIMEOUT_MS } from '../support/world';
import { db, policyRow, seedPoliciesWorld, type PoliciesWorld } from '../support/policies';

vi.mock('@remix-run/cloudflare', () => import('../support/remix-stub'));

type Answer<T> = { data: T; message?: string };
type Row = { id: string; policy_number: string; status: string };
type Meta = {
  from: number;
  to: number;
  per_page: number;
  total: number;
  current_page: number;
  last_page: number;
};

let w: PoliciesWorld;
let token: string;
let finance: string;
beforeAll(async () => {
  w = await seedPoliciesWorld();
  token = await apiToken(DEMO_ACCOUNTS.admin);
  finance = await apiToken(DEMO_ACCOUNTS.finance);
}, SETUP_TIMEOUT_MS);

const get = <T>(path: string, t = token) => call<T>(`/api/company/${path}`, { token: t });
const send = <T>(path: string, json: unknown, method = 'POST', t = token) =>
  call<T>(`/api/company/${path}`, { method, json, token: t });

describe('GET policies and insureds/summary', () => {
  it('answers data.policies.items and meta, filtered and ordered', async () => {
    const r = await get<Answer<{ policies: { items: Row[]; meta: Meta } }>>(
      'policies?status=active&order=policy_number_asc&items=2',
    );
    expect(r.status).toBe(200);
    expect(r.body.data.policies.meta).toMatchObject({ total: 5, per_page: 2, last_page: 3, from: 1, to: 2 });
    expect(r.body.data.policies.items.every((p) => p.status === 'active')).toBe(true);
    const names = await get<Answer<{ policies: { items: Row[] } }>>('policies?first_name=se%C3%A1');
    expect(names.body.data.policies.items).toHaveLength(2);
    const types = await get<Answer<{ policies: { items: (Row & { full_name: string })[] } }>>(
      'policies?type=group_leader,immediate_family&order=full_name_asc',
    );
    expect(types.body.data.policies.items.map((p) => p.full_name)).toEqual(['Anna Kowalski', 'Greta Leader']);
  });

  it('refuses filters that are not what they claim to be (422, each on its key)', async () => {
    const r = await get<ErrorEnvelope>('policies?status=sleeping&start_from=31-12-2026');
    expect(r.status).toBe(422);
    expect(r.body.errors.map((e) => e.key).sort()).toEqual(['start_from', 'status']);
  });

  it('answers the counts by status, and 401 without a token', async () => {
    const r = await get<Answer<{ summary: Record<string, number> }>>('insureds/summary');
    expect(r.body.data.summary).toEqual({ total: 8, active: 5, not_started: 1, expired: 1, cancelled: 1 });
    expect((await get('insureds/summary', '')).status).toBe(401);
  });
});

describe('GET policies/{id} and what hangs from it', () => {
  it('answers the policy, its contract with the product, the insured and their other policies', async () => {
    const r = await get<
      Answer<{
        policy: { id: string; full_name: string };
        contract: { product: { id: string } };
        insured: { full_name: string };
        previous_policies: Row[] | null;
        active_policies: Row[] | null;
        cancelled_policies: Row[] | null;
      }>
    >(`policies/${w.p.seanNew.public_id}`);
    expect(r.status).toBe(200);
    expect(r.body.data.policy.id).toBe(w.p.seanNew.public_id);
    expect(r.body.data.contract.product.id).toBe(w.product.public_id);
    expect(r.body.data.insured.full_name).toBe('Seán Murphy');
    expect(r.body.data.previous_policies?.map((p) => p.id)).toEqual([w.p.seanOld.public_id]);
    expect(r.body.data.cancelled_policies).toEqual([]);
  });

  it("answers 404 for an unknown id and for another tenant's policy", async () => {
    for (const id of ['nosuchpolicy', w.p.stranger.public_id]) {
      const r = await get<ErrorEnvelope>(`policies/${id}`);
      expect(r.status).toBe(404);
      expect(r.body.message).toBe('Insured not found');
    }
  });

  it('answers immediate family members and the linked policies summary', async () => {
    const family = await get<Answer<{ immediate_family_members: Row[] }>>(
      `policies/${w.p.lukasz.public_id}/immediate-family-members`,
    );
    expect(family.body.data.immediate_family_members.map((p) => p.id)).toEqual([w.p.anna.public_id]);
    const linked = await get<Answer<{ group_leader: Row | null; led_insureds: Row[]; led_count: number }>>(
      `policies/${w.p.greta.public_id}/linked-policies-summary`,
    );
    expect(linked.body.data).toMatchObject({ group_leader: null, led_count: 1 });
    expect((await get(`policies/${w.p.stranger.public_id}/linked-policies-summary`)).status).toBe(404);
    expect((await get(`policies/${w.p.stranger.public_id}/immediate-family-members`)).status).toBe(404);
  });

  it('answers the policies of a batch (404 for a batch of another tenant)', async () => {
    const [batch] = await db().select().from(policyBatches).where(eq(policyBatches.id, w.p.sam.batch_id));
    const r = await get<Answer<{ policies: Row[] }>>(`policies/in-batch/${batch.public_id}`);
    expect(r.body.data.policies.map((p) => p.id)).toEqual([w.p.sam.public_id]);
    const [other] = await db()
      .select()
      .from(policyBatches)
      .where(eq(policyBatches.id, w.p.stranger.batch_id));
    expect((await get(`policies/in-batch/${other.public_id}`)).status).toBe(404);
  });

  it('answers group names (data.group_names) and groups', async () => {
    const names = await get<Answer<{ group_names: string[] }>>('policies/group-names');
    expect(names.body.data.group_names).toEqual(['Alpha Group']);
    const groups =
      await get<Answer<{ groups: { group_name: string; insureds: number }[] }>>('policies/groups');
    expect(groups.body.data.groups).toEqual([
      expect.objectContaining({ group_name: 'Alpha Group', insureds: 2 }),
    ]);
  });
});

describe('POST policies/list and notes', () => {
  it('answers the policies named by policy_ids in scope; refuses a missing or empty list', async () => {
    const r = await send<Answer<{ policies: Row[] }>>('policies/list', {
      policy_ids: [w.p.zoe.public_id, w.p.stranger.public_id],
    });
    expect(r.status).toBe(200);
    expect(r.body.data.policies.map((p) => p.id)).toEqual([w.p.zoe.public_id]);
    expect((await send('policies/list', { policy_ids: [] })).status).toBe(422);
    expect((await send('policies/list', { ids: ['x'] })).status).toBe(422);
  });

  it('adds one note per insured, reads them back, and refuses a note without its fields', async () => {
    const r = await send<Answer<{ added: number }>>('policies/notes/add', {
      policies: [w.p.zoe.public_id, w.p.sam.public_id],
      title: 'Visa checked',
      note: 'Seen at the office',
      date: new Date().toISOString().slice(0, 10),
      source: 'email',
      type: 'admin_note',
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ data: { added: 2 }, message: 'Note added to 2 insureds' });
    const list = await get<Answer<{ notes: { items: { title: string }[] } }>>(
      `policies/${w.p.zoe.public_id}/notes`,
    );
    expect(list.body.data.notes.items.map((n) => n.title)).toContain('Visa checked');
    const bad = await send<ErrorEnvelope>('policies/notes/add', { policies: [w.p.zoe.public_id], title: '' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e) => e.key)).toEqual(expect.arrayContaining(['title', 'note']));
    expect((await get(`policies/${w.p.stranger.public_id}/notes`)).status).toBe(404);
    const rows = await db().select().from(notes).where(eq(notes.title, 'Visa checked'));
    expect(rows).toHaveLength(2);
  });
});

describe('PATCH|POST policies/{id}/update (personal details)', () => {
  const details = (p: PoliciesWorld['p']['sam'], changes: Record<string, unknown> = {}) => ({
    first_name: p.first_name,
    last_name: p.last_name,
    date_of_birth: p.date_of_birth,
    residence_country_id: p.residence_country_id,
    destination_country_id: p.destination_country_id,
    ...changes,
  });

  it('saves the details with PATCH and POST alike and answers the policy', async () => {
    const row = await policyRow(w.p.sam.id);
    const r = await send<Answer<{ policy: { last_name: string; version: number }; changed: boolean }>>(
      `policies/${row.public_id}/update`,
      details(row, { last_name: 'Southwell' }),
      'PATCH',
    );
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({
      changed: true,
      policy: { last_name: 'Southwell', version: row.version + 1 },
    });
    expect(r.body.message).toBe('Selected insured(s) have been updated successfully');
    const again = await send<Answer<{ changed: boolean }>>(
      `policies/${row.public_id}/update`,
      details(await policyRow(row.id), { email: 'sam@example.test' }),
    );
    expect(again.body.data.changed).toBe(true);
  });

  it('refuses bad details (422 on their fields), a cancelled insured, a reader and another tenant', async () => {
    const row = await policyRow(w.p.zoe.id);
    const bad = await send<ErrorEnvelope>(
      `policies/${row.public_id}/update`,
      details(row, { first_name: 'Zo3' }),
    );
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].key).toBe('first_name');
    const carla = await policyRow(w.p.carla.id);
    const cancelled = await send<ErrorEnvelope>(
      `policies/${carla.public_id}/update`,
      details(carla, { first_name: 'Carlotta' }),
    );
    expect(cancelled.status).toBe(422);
    expect(cancelled.body.message).toBe('You cannot edit cancelled insureds');
    expect((await send(`policies/${row.public_id}/update`, details(row), 'PATCH', finance)).status).toBe(403);
    const stranger = await policyRow(w.p.stranger.id);
    expect((await send(`policies/${stranger.public_id}/update`, details(stranger))).status).toBe(404);
  });
});
