import { beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { enrollments } from '../../drizzle/schema';
import { countryId } from '../../drizzle/seed/builders';
import { buildContract } from '../../drizzle/seed/contracts';
import { apiToken, call, type ErrorEnvelope } from '../support/api';
import { DEMO_ACCOUNTS, SETUP_TIMEOUT_MS } from '../support/world';
import { STRANGER, day, db, seedContractsWorld, type ContractsWorld } from '../support/contracts';

vi.mock('@remix-run/cloudflare', () => import('../support/remix-stub'));

interface ApiEnrollment {
  id: string;
  batch_id: string;
  first_name: string;
  type: string;
  errors: { key: string; message: string }[];
  group_leader_id: string | null;
  dependency_id: string | null;
  fee: { total_minor: number; currency: string } | null;
  data: { date_of_birth: string; start_date: string; end_date: string };
  policy_batch: { id: string };
}
interface Batch {
  id: string;
  status: string;
  contract_id: string;
  contact_source: string | null;
  campus: { id: string; name: string };
}
type Items = { index: number; id: string; errors: { key: string; message: string }[] }[];

let w: ContractsWorld;
let school: string;
let senior: string;
let stranger: string;
let external: string;
let contract: string;
let FR: number;
let GB: number;

beforeAll(async () => {
  w = await seedContractsWorld();
  const c = await buildContract(db(), {
    campusId: w.north.id,
    productId: w.product.id,
    startDate: day(-30),
    saleMinor: 9500,
  });
  contract = c.public_id;
  FR = await countryId(db(), 'FR');
  GB = await countryId(db(), 'GB');
  school = await apiToken(DEMO_ACCOUNTS.schoolAdmin);
  senior = await apiToken(DEMO_ACCOUNTS.seniorAdmin);
  stranger = await apiToken(STRANGER.companyUser);
  external = await apiToken(DEMO_ACCOUNTS.external);
}, SETUP_TIMEOUT_MS);

const person = (first: string, over: Record<string, unknown> = {}) => ({
  type: 'student',
  first_name: first,
  last_name: 'Mensah',
  date_of_birth: '2006-09-10',
  residence_country_id: FR,
  destination_country_id: GB,
  start_date: day(7),
  end_date: day(40),
  ...over,
});

const post = <T = unknown>(path: string, json: unknown, token = school) =>
  call<T>(`/api/company/${path}`, { method: 'POST', json, token });

async function newBatch(token = school): Promise<Batch> {
  const r = await post<{ data: { policy_batch: Batch } }>(
    'policy-batches/add',
    { contract_id: contract },
    token,
  );
  expect(r.status).toBe(201);
  return r.body.data.policy_batch;
}

async function addTo(batch: string, items: unknown[], validate_first = false) {
  const r = await post<{ data: { items: Items; inserted: number; with_errors: number } }>(
    `policy-batches/${batch}/enrollments/add`,
    { items, validate_first },
  );
  expect(r.status).toBe(201);
  return r.body.data;
}

describe('campuses policies calls', () => {
  it('validates one applicant: 200 with its fee, or 422 with its errors on their fields', async () => {
    const path = `campuses/${w.north.public_id}/policies/validate/single`;
    const ok = await post<{ data: { valid: boolean; fee: { total_minor: number } } }>(path, {
      contract_id: contract,
      item: person('Ama'),
    });
    expect(ok.status).toBe(200);
    // 95.00 plus the 12 % insurance premium tax of the UK demo data.
    expect(ok.body.data).toMatchObject({ valid: true, fee: { total_minor: 10640 } });
    const bad = await post<ErrorEnvelope>(path, {
      contract_id: contract,
      item: person('Am4', { destination_country_id: FR }),
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([
      { key: 'first_name', message: 'Name has invalid characters' },
      { key: 'destination_country_id', message: 'The destination must differ from the country of residence' },
    ]);
    const noContract = await post<ErrorEnvelope>(path, { item: person('Ama') });
    expect(noContract.status).toBe(422);
    expect(noContract.body.errors[0]).toEqual({ key: 'contract_id', message: 'This field is required' });
    const otherContract = await post<ErrorEnvelope>(path, { contract_id: 'nope', item: person('Ama') });
    expect(otherContract.body.errors[0]).toEqual({ key: 'contract_id', message: 'Contract not found' });
  });

  it('validates many applicants with errors per index, duplicates across them included', async () => {
    const r = await post<{
      data: {
        valid: boolean;
        items: { index: number; valid: boolean; errors: { key: string; message: string }[] }[];
      };
    }>(`campuses/${w.north.public_id}/policies/validate/batch`, {
      contract_id: contract,
      items: [person('Ama'), person('Kofi'), person('Ama')],
    });
    expect(r.status).toBe(200);
    expect(r.body.data.valid).toBe(false);
    expect(r.body.data.items.map((i) => i.valid)).toEqual([false, true, false]);
    expect(r.body.data.items[0]!.errors[0]!.message).toBe(
      `Duplicate found with Trip Dates ${day(7).split('-').reverse().join('/')} to ${day(40).split('-').reverse().join('/')}. Delete applicant or edit trip dates to continue.`,
    );
    const empty = await post<ErrorEnvelope>(`campuses/${w.north.public_id}/policies/validate/batch`, {
      contract_id: contract,
      items: [],
    });
    expect(empty.status).toBe(422);
    expect(empty.body.errors[0]).toEqual({ key: 'items', message: 'Add at least one applicant' });
  });

  it('adds a batch with its applicants, refusing them all when validate_first finds an error', async () => {
    const path = `campuses/${w.north.public_id}/policies/add/batch`;
    const refused = await post<ErrorEnvelope>(path, {
      contract_id: contract,
      items: [person('Ama'), person('K0fi')],
      validate_first: true,
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([
      { key: 'items.1.first_name', message: 'Name has invalid characters' },
    ]);
    const made = await post<{
      data: { policy_batch: Batch; inserted: number; with_errors: number; items: Items };
    }>(path, { contract_id: contract, items: [person('Ama'), person('K0fi')], contact_source: 'phone' });
    expect(made.status).toBe(201);
    expect(made.body.data).toMatchObject({
      inserted: 2,
      with_errors: 1,
      policy_batch: { status: 'draft', contact_source: 'phone' },
    });
    expect(made.body.data.items[1]!.errors).toEqual([
      { key: 'first_name', message: 'Name has invalid characters' },
    ]);
  });

  it('answers 404 for a campus of another company, 403 without the ordering permission, 401 without a token', async () => {
    const body = { contract_id: contract, item: person('Ama') };
    expect(
      (await post(`campuses/${w.north.public_id}/policies/validate/single`, body, stranger)).status,
    ).toBe(404);
    expect(
      (await post(`campuses/${w.north.public_id}/policies/validate/single`, body, external)).status,
    ).toBe(403);
    expect(
      (
        await call(`/api/company/campuses/${w.north.public_id}/policies/validate/single`, {
          method: 'POST',
          json: body,
        })
      ).status,
    ).toBe(401);
  });
});

describe('policy batches', () => {
  it('creates a batch under a contract (the contract names the campus) and reads it back', async () => {
    const batch = await newBatch();
    expect(batch).toMatchObject({
      status: 'draft',
      contract_id: contract,
      campus: { id: w.north.public_id },
    });
    const read = await call<{ data: { policy_batch: Batch } }>(`/api/company/policy-batches/${batch.id}`, {
      token: school,
    });
    expect(read.body.data.policy_batch.id).toBe(batch.id);
    const bad = await post<ErrorEnvelope>('policy-batches/add', { contract_id: 'nope' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0]).toEqual({ key: 'contract_id', message: 'Contract not found' });
    const missing = await post<ErrorEnvelope>('policy-batches/add', {});
    expect(missing.body.errors[0]!.key).toBe('contract_id');
    // Staff order on behalf of the client.
    const staff = await newBatch(senior);
    expect(staff.status).toBe('draft');
    // A stranger cannot use this client's contract.
    expect(
      (await post<ErrorEnvelope>('policy-batches/add', { contract_id: contract }, stranger)).status,
    ).toBe(422);
  });

  it('adds enrollments (validate_first refuses all), gives the overview, and confirms into the cart', async () => {
    const batch = await newBatch();
    const refused = await post<ErrorEnvelope>(`policy-batches/${batch.id}/enrollments/add`, {
      items: [person('Ama'), person('Ama')],
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.map((e) => e.key)).toEqual(['items.0.row', 'items.1.row']);
    const added = await addTo(
      batch.id,
      [
        person('Ama'),
        person('Efua', { type: 'immediate_family', date_of_birth: '1980-02-02', dependency_index: 0 }),
      ],
      true,
    );
    expect(added).toMatchObject({ inserted: 2, with_errors: 0 });
    const overview = await call<{ data: { overview: Record<string, unknown> } }>(
      `/api/company/policy-batches/${batch.id}/enrollments/overview`,
      { token: school },
    );
    expect(overview.body.data.overview).toMatchObject({
      total: 2,
      with_errors: 0,
      students: 1,
      immediate_family: 1,
      fees: { total_minor: 21280, currency: 'GBP' },
    });
    const confirmed = await post<{ data: { policy_batch: Batch } }>(
      `policy-batches/${batch.id}/enrollments/confirm`,
      {},
    );
    expect(confirmed.body.data.policy_batch.status).toBe('open');
    const cart = await call<{
      data: { batches: { id: string; count: number }[]; summary: { count: number } };
    }>('/api/company/policy-batches/overview-open-batches', { token: school });
    expect(cart.body.data.batches.find((b) => b.id === batch.id)?.count).toBe(2);
    const campusCart = await call<{ data: { policy_batches: { id: string }[] } }>(
      `/api/company/campuses/${w.north.public_id}/open-policy-batches`,
      { token: school },
    );
    expect(campusCart.body.data.policy_batches.map((b) => b.id)).toContain(batch.id);
  });

  it('refuses to confirm a batch with errors, with the count in the message', async () => {
    const batch = await newBatch();
    await addTo(batch.id, [person('Am4')]);
    const r = await post<ErrorEnvelope>(`policy-batches/${batch.id}/enrollments/confirm`, {});
    expect(r.status).toBe(422);
    expect(r.body.message).toBe('1 applicant still has errors. Fix or delete it to continue.');
  });

  it('deletes a batch by either path, and answers 404 afterwards', async () => {
    const a = await newBatch();
    const b = await newBatch();
    expect(
      (await call(`/api/company/policy-batches/${a.id}`, { method: 'DELETE', token: school })).status,
    ).toBe(200);
    expect(
      (await call(`/api/company/policy-batches/${b.id}/delete`, { method: 'DELETE', token: school })).status,
    ).toBe(200);
    const gone = await call<ErrorEnvelope>(`/api/company/policy-batches/${a.id}`, { token: school });
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe('Order not found');
  });
});

describe('enrollments', () => {
  it('lists a batch 500 a page with meta, and reads one', async () => {
    const batch = await newBatch();
    await addTo(batch.id, [person('Ama'), person('Kofi'), person('Yaw')]);
    const page = await call<{
      data: { enrollments: { items: ApiEnrollment[]; meta: Record<string, number> } };
    }>(`/api/company/enrollments?policy_batch=${batch.id}&items=2&page=2`, { token: school });
    expect(page.status).toBe(200);
    expect(page.body.data.enrollments.meta).toMatchObject({ from: 3, to: 3, per_page: 2, total: 3 });
    const [yaw] = page.body.data.enrollments.items;
    expect(yaw).toMatchObject({
      first_name: 'Yaw',
      policy_batch: { id: batch.id },
      data: { start_date: day(7) },
    });
    const full = await call<{ data: { enrollments: { meta: { per_page: number } } } }>(
      `/api/company/enrollments?policy_batch=${batch.id}`,
      { token: school },
    );
    expect(full.body.data.enrollments.meta.per_page).toBe(500);
    const one = await call<{ data: { enrollment: ApiEnrollment } }>(`/api/company/enrollments/${yaw!.id}`, {
      token: school,
    });
    expect(one.body.data.enrollment.first_name).toBe('Yaw');
    expect((await call(`/api/company/enrollments/nope`, { token: school })).status).toBe(404);
    expect((await call(`/api/company/enrollments/${yaw!.id}`, { token: stranger })).status).toBe(404);
    expect(
      (await call(`/api/company/enrollments?policy_batch=${batch.id}`, { token: stranger })).status,
    ).toBe(404);
  });

  it('updates an enrollment and checks it again; validate_first refuses with the errors', async () => {
    const batch = await newBatch();
    const [item] = (await addTo(batch.id, [person('Ama')])).items;
    const path = `/api/company/enrollments/${item!.id}/update`;
    const kept = await call<{ data: { enrollment: ApiEnrollment } }>(path, {
      method: 'PATCH',
      json: { first_name: 'Am4' },
      token: school,
    });
    expect(kept.status).toBe(200);
    expect(kept.body.data.enrollment).toMatchObject({
      first_name: 'Am4',
      errors: [{ key: 'first_name', message: 'Name has invalid characters' }],
      fee: null,
    });
    const refused = await call<ErrorEnvelope>(path, {
      method: 'PATCH',
      json: { end_date: day(8), validate_first: true },
      token: school,
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.map((e) => e.key)).toEqual(['first_name']);
    const fixed = await call<{ data: { enrollment: ApiEnrollment } }>(path, {
      method: 'PATCH',
      json: { first_name: 'Ama', validate_first: true },
      token: school,
    });
    expect(fixed.body.data.enrollment).toMatchObject({ errors: [], fee: { total_minor: 10640 } });
    const badType = await call<ErrorEnvelope>(path, {
      method: 'PATCH',
      json: { first_name: { x: 1 } },
      token: school,
    });
    expect(badType.status).toBe(422);
    expect((await call(path, { method: 'PATCH', json: { first_name: 'X' }, token: stranger })).status).toBe(
      404,
    );
  });

  it('assigns a group leader to applicants of the batch (policies/group-leader/update)', async () => {
    const batch = await newBatch();
    const { items } = await addTo(batch.id, [
      person('Ama'),
      person('Kofi'),
      person('Nana', { type: 'group_leader', date_of_birth: '1978-01-01' }),
    ]);
    const [ama, kofi, nana] = items;
    const r = await post<{ data: { updated: number }; message: string }>('policies/group-leader/update', {
      group_leader_id: nana!.id,
      policies: [ama!.id, kofi!.id],
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      data: { updated: 2 },
      message: 'Selected insured(s) have been updated successfully',
    });
    const read = await call<{ data: { enrollment: ApiEnrollment } }>(`/api/company/enrollments/${ama!.id}`, {
      token: school,
    });
    expect(read.body.data.enrollment.group_leader_id).toBe(nana!.id);
    const notLeader = await post<ErrorEnvelope>('policies/group-leader/update', {
      group_leader_id: kofi!.id,
      policies: [ama!.id],
    });
    expect(notLeader.status).toBe(422);
    expect(notLeader.body.errors[0]).toEqual({
      key: 'group_leader_id',
      message: 'Choose a group leader of this order',
    });
    const none = await post<ErrorEnvelope>('policies/group-leader/update', {
      group_leader_id: null,
      policies: [],
    });
    expect(none.body.errors[0]).toEqual({ key: 'policies', message: 'Select at least one applicant' });
    expect(
      (await post('policies/group-leader/update', { group_leader_id: null, policies: [ama!.id] }, stranger))
        .status,
    ).toBe(404);
  });

  it('moves enrollments to another batch of the campus (update-plan) and deletes selected ones', async () => {
    const from = await newBatch();
    const to = await newBatch();
    const { items } = await addTo(from.id, [person('Ama'), person('Kofi')]);
    const moved = await call<{ data: { moved: number } }>('/api/company/enrollments/update-plan', {
      method: 'PUT',
      json: { batch_id: to.id, enrollment_ids: [items[0]!.id] },
      token: school,
    });
    expect(moved.status).toBe(200);
    expect(moved.body.data.moved).toBe(1);
    const del = await call<{ data: { deleted: number } }>('/api/company/enrollments/delete', {
      method: 'PUT',
      json: { enrollment_ids: [items[1]!.id] },
      token: school,
    });
    expect(del.body.data.deleted).toBe(1);
    const rows = await db().select().from(enrollments).where(eq(enrollments.public_id, items[1]!.id));
    expect(rows).toHaveLength(0);
    const unknown = await call<ErrorEnvelope>('/api/company/enrollments/delete', {
      method: 'PUT',
      json: { enrollment_ids: [items[0]!.id, 'nope'] },
      token: school,
    });
    expect(unknown.status).toBe(404);
    expect(await db().select().from(enrollments).where(eq(enrollments.public_id, items[0]!.id))).toHaveLength(
      1,
    );
    const empty = await call<ErrorEnvelope>('/api/company/enrollments/delete', {
      method: 'PUT',
      json: { enrollment_ids: [] },
      token: school,
    });
    expect(empty.status).toBe(422);
    const strangerDelete = await call('/api/company/enrollments/delete', {
      method: 'PUT',
      json: { enrollment_ids: [items[0]!.id] },
      token: stranger,
    });
    expect(strangerDelete.status).toBe(404);
  });

  it('lists the cart across batches when no batch is named', async () => {
    const r = await call<{ data: { enrollments: { items: ApiEnrollment[]; meta: { per_page: number } } } }>(
      '/api/company/enrollments',
      { token: school },
    );
    expect(r.status).toBe(200);
    expect(r.body.data.enrollments.meta.per_page).toBe(500);
    expect(r.body.data.enrollments.items.every((e) => e.policy_batch.id)).toBe(true);
  });
});
