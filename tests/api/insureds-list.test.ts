/**
 * `GET insureds/list` (spec 002 s.7: by type and order, and by policy batch 25 a page until a page is not
 * full, reading data.insureds.items and meta) and `POST policies/{id}/notes/{noteId}/download`: good and
 * bad input, another tenant's ids answer 404, a user without the permission 403.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { permissions, policyBatches, rolePermissions, roles } from '../../drizzle/schema';
import { buildUser } from '../../drizzle/seed/builders';
import { addPolicyNote } from '../../workers/domain/policies/details';
import { apiToken, call, type ErrorEnvelope } from '../support/api';
import { actorCtx, DEMO_ACCOUNTS, SETUP_TIMEOUT_MS } from '../support/world';
import { fileOf, pdfBytes } from '../support/files';
import { db, day, POLICY_STRANGER, seedPoliciesWorld, type PoliciesWorld } from '../support/policies';

import type { ListMeta } from '../../workers/domain/list-query';

vi.mock('@remix-run/cloudflare', () => import('../support/remix-stub'));

interface Insured {
  id: string;
  id_numeric: number;
  policy_number: string;
  product_code: string;
  type: string;
  first_name: string;
  last_name: string;
  gender: string | null;
  date_of_birth: string;
  residence_country_id: number | null;
  destination_country_id: number | null;
  passport_number: string | null;
  student_number: string | null;
  address: string | null;
  start_date: string;
  end_date: string;
  booking_date: string;
  status: string;
  campus: { id: string; name: string };
}
type Meta = ListMeta;
type Insureds = { data: { insureds: { items: Insured[]; meta: Meta } } };

const NO_POLICIES = 'clients.only@albion.test';

let w: PoliciesWorld;
let admin: string;
let stranger: string;
let northBatch: string;
let strangerBatch: string;

beforeAll(async () => {
  w = await seedPoliciesWorld();
  admin = await apiToken(DEMO_ACCOUNTS.admin);
  stranger = await apiToken(POLICY_STRANGER);
  const d = db();
  const batchOf = async (id: number) =>
    (await d.select().from(policyBatches).where(eq(policyBatches.id, id)))[0].public_id;
  northBatch = await batchOf(w.p.lukasz.batch_id);
  strangerBatch = await batchOf(w.p.stranger.batch_id);
  // A company user who may read clients but not policies.
  const [role] = await d
    .insert(roles)
    .values({ slug: 'clients_only', name: 'Clients only', family: 'company' })
    .returning();
  const [readClient] = await d.select().from(permissions).where(eq(permissions.name, 'read_client'));
  await d.insert(rolePermissions).values({ role_id: role.id, permission_id: readClient.id });
  await buildUser(d, {
    email: NO_POLICIES,
    first_name: 'Cleo',
    last_name: 'Clients',
    roles: ['clients_only'],
    companyIds: [w.albion.id],
  });
}, SETUP_TIMEOUT_MS);

const insureds = (query: string, token = admin) =>
  call<Insureds>(`/api/company/insureds/list?${query}`, { token });

describe('GET insureds/list', () => {
  it('pages through a batch 25 (here 3) at a time in policy-number order until a page is not full', async () => {
    const seen: Insured[] = [];
    const metas: Meta[] = [];
    for (let page = 1; page < 10; page++) {
      const r = await insureds(`policy_batch=${northBatch}&items=3&page=${page}`);
      expect(r.status).toBe(200);
      seen.push(...r.body.data.insureds.items);
      metas.push(r.body.data.insureds.meta);
      if (r.body.data.insureds.items.length < 3) break;
    }
    expect(metas.map((m) => [m.from, m.to, m.per_page])).toEqual([
      [1, 3, 3],
      [4, 6, 3],
      [7, 7, 3],
    ]);
    expect(metas[0]).toMatchObject({ total: 7, current_page: 1, last_page: 3 });
    const numbers = seen.map((i) => i.policy_number);
    expect(numbers).toEqual([...numbers].sort());
    expect(new Set(seen.map((i) => i.id)).size).toBe(7);
    expect(seen.map((i) => i.first_name).sort()).toEqual(
      ['Anna', 'Carla', 'Greta', 'Seán', 'Seán', 'Zoë', 'Łukasz'].sort(),
    );
  });

  it("answers the catalogue's policy row", async () => {
    const r = await insureds(`policy_batch=${northBatch}&type=student&first_name=zo`);
    expect(r.body.data.insureds.items).toHaveLength(1);
    const zoe = r.body.data.insureds.items[0];
    expect(zoe).toMatchObject({
      id: w.p.zoe.public_id,
      id_numeric: w.p.zoe.id,
      policy_number: w.p.zoe.policy_number,
      product_code: w.product.code,
      type: 'student',
      first_name: 'Zoë',
      last_name: 'Martin',
      date_of_birth: '2006-11-02',
      residence_country_id: w.p.zoe.residence_country_id,
      destination_country_id: w.p.zoe.destination_country_id,
      start_date: day(20),
      end_date: day(50),
      status: 'not_started',
      campus: { id: w.north.public_id, name: w.north.name },
    });
    for (const key of ['gender', 'passport_number', 'student_number', 'address', 'booking_date'])
      expect(zoe).toHaveProperty(key);
  });

  it('filters by type and sorts on request, and answers the whole scope without a batch', async () => {
    const leaders = await insureds('type=group_leader');
    expect(leaders.body.data.insureds.items.map((i) => i.first_name)).toEqual(['Greta']);
    const byName = await insureds(`policy_batch=${northBatch}&order=full_name_desc&items=2`);
    expect(byName.body.data.insureds.items.map((i) => i.last_name)).toEqual(['Murphy', 'Murphy']);
    const all = await insureds('items=100');
    expect(all.body.data.insureds.meta.total).toBe(8);
  });

  it("answers 404 for another tenant's batch, 422 for bad filters, 403 and 401", async () => {
    const other = await insureds(`policy_batch=${strangerBatch}`);
    expect(other.status).toBe(404);
    expect((await insureds('policy_batch=no-such-batch')).status).toBe(404);
    // The stranger sees its own batch, and nothing of the demo company's.
    const own = await insureds(`policy_batch=${strangerBatch}`, stranger);
    expect(own.body.data.insureds.items.map((i) => i.id)).toEqual([w.p.stranger.public_id]);
    expect((await insureds(`policy_batch=${northBatch}`, stranger)).status).toBe(404);

    const bad = await call<ErrorEnvelope>('/api/company/insureds/list?type=pilot&start_from=2026-13-01', {
      token: admin,
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e) => e.key).sort()).toEqual(['start_from', 'type.0']);

    const forbidden = await insureds('', await apiToken(NO_POLICIES));
    expect(forbidden.status).toBe(403);
    expect((await insureds('', '')).status).toBe(401);
  });
});

describe('POST policies/{id}/notes/{noteId}/download', () => {
  it("answers the note's file with its type and name, and refuses what is not there", async () => {
    const ctx = await actorCtx(DEMO_ACCOUNTS.admin);
    const note = await addPolicyNote(
      ctx,
      w.p.lukasz.public_id,
      { title: 'Visa', note: 'Copy of the visa', date: day(0), source: 'email', type: 'admin_note' },
      fileOf(pdfBytes('Visa copy'), 'Visa Łukasz.pdf'),
    );
    const plain = await addPolicyNote(ctx, w.p.lukasz.public_id, {
      title: 'Call',
      note: 'Called the school',
      date: day(0),
      source: 'call',
      type: 'admin_note',
    });
    const path = (policy: string, noteId: number | string) =>
      `/api/company/policies/${policy}/notes/${noteId}/download`;

    for (const method of ['POST', 'GET']) {
      const r = await call<string>(path(w.p.lukasz.public_id, note.id), { method, token: admin });
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toBe('application/pdf');
      expect(r.headers.get('content-disposition')).toBe(
        `attachment; filename="Visa _ukasz.pdf"; filename*=UTF-8''Visa%20%C5%81ukasz.pdf`,
      );
      expect(r.body).toContain('% Visa copy');
    }

    // A note without a file, a note of another insured, another tenant's insured: not found.
    expect((await call(path(w.p.lukasz.public_id, plain.id), { method: 'POST', token: admin })).status).toBe(
      404,
    );
    expect((await call(path(w.p.zoe.public_id, note.id), { method: 'POST', token: admin })).status).toBe(404);
    expect(
      (await call(path(w.p.lukasz.public_id, note.id), { method: 'POST', token: stranger })).status,
    ).toBe(404);
    const bad = await call<ErrorEnvelope>(path(w.p.lukasz.public_id, 'first'), {
      method: 'POST',
      token: admin,
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([{ key: 'noteId', message: 'Value must be digit' }]);
    const forbidden = await call(path(w.p.lukasz.public_id, note.id), {
      method: 'POST',
      token: await apiToken(NO_POLICIES),
    });
    expect(forbidden.status).toBe(403);
  });
});
