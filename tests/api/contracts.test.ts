import { beforeAll, describe, expect, it, vi } from 'vitest';
import { buildContract } from '../../drizzle/seed/contracts';
import { apiToken, call, type ErrorEnvelope } from '../support/api';
import { DEMO_ACCOUNTS, SETUP_TIMEOUT_MS } from '../support/world';
import { STRANGER, day, db, seedContractsWorld, type ContractsWorld } from '../support/contracts';

vi.mock('@remix-run/cloudflare', () => import('../support/remix-stub'));

type ContractAnswer = {
  data: {
    contract: {
      id: string;
      name: string;
      status: string;
      net_price: number;
      sale_price: number;
      start_date: string;
    };
  };
  message?: string;
};
type ListAnswer = {
  data: { contracts: { items: { id: string; name: string }[]; meta: { total: number; per_page: number } } };
};

let w: ContractsWorld;
let token: string;
let strangerToken: string;
let financeToken: string;
let existing: { public_id: string };

beforeAll(async () => {
  w = await seedContractsWorld();
  existing = await buildContract(db(), {
    campusId: w.north.id,
    productId: w.product.id,
    startDate: day(-10),
    endDate: day(100),
    name: 'API contract',
  });
  token = await apiToken(DEMO_ACCOUNTS.seniorAdmin);
  strangerToken = await apiToken(STRANGER.companyUser);
  financeToken = await apiToken(DEMO_ACCOUNTS.finance);
}, SETUP_TIMEOUT_MS);

const goodContract = () => ({
  campus_id: w.south.public_id,
  product_id: w.product.public_id,
  start_date: day(3),
  end_date: day(40),
  net_price: 20,
  sale_price: 30,
  min_days: 6,
});

describe('contracts API', () => {
  it('answers 401 without a token', async () => {
    expect((await call('/api/company/contracts/list')).status).toBe(401);
  });

  it('lists contracts in data.contracts with items and meta, filtered and paged', async () => {
    const answer = await call<ListAnswer>(
      `/api/company/contracts/list?campus_id=${w.north.public_id}&search=API&items=5`,
      { token },
    );
    expect(answer.status).toBe(200);
    expect(answer.body.data.contracts.items.map((c) => c.name)).toEqual(['API contract']);
    expect(answer.body.data.contracts.meta).toMatchObject({ total: 1, per_page: 5 });
  });

  it('answers a bad list query with the 422 envelope', async () => {
    const answer = await call<ErrorEnvelope>('/api/company/contracts/list?status=deleted', { token });
    expect(answer.status).toBe(422);
    expect(answer.body.errors[0].key).toBe('status');
  });

  it('adds a contract with the spec success message', async () => {
    const answer = await call<ContractAnswer>('/api/company/contracts/add', {
      method: 'POST',
      json: goodContract(),
      token,
    });
    expect(answer.status).toBe(201);
    expect(answer.body.message).toBe('Contract has been created/updated');
    expect(answer.body.data.contract).toMatchObject({ status: 'active', net_price: 20, sale_price: 30 });
  });

  it('refuses bad contract input with the exact English texts', async () => {
    const answer = await call<ErrorEnvelope>('/api/company/contracts/add', {
      method: 'POST',
      json: { ...goodContract(), start_date: day(-1), net_price: 'ten', min_days: 2 },
      token,
    });
    expect(answer.status).toBe(422);
    expect(answer.body.errors).toEqual(
      expect.arrayContaining([
        { key: 'net_price', message: 'Value must be numeric' },
        { key: 'min_days', message: 'Minimum days must be at least 6' },
      ]),
    );
    const dates = await call<ErrorEnvelope>('/api/company/contracts/add', {
      method: 'POST',
      json: { ...goodContract(), start_date: day(-1) },
      token,
    });
    expect(dates.status).toBe(422);
    expect(dates.body).toEqual({
      message: 'Start date should not be in the past',
      errors: [{ key: 'start_date', message: 'Start date should not be in the past' }],
    });
  });

  it('reads one contract, and answers 404 for an unknown id or another company', async () => {
    const answer = await call<ContractAnswer>(`/api/company/contracts/${existing.public_id}`, { token });
    expect(answer.status).toBe(200);
    expect(answer.body.data.contract.name).toBe('API contract');
    expect((await call(`/api/company/contracts/nope`, { token })).status).toBe(404);
    expect(
      (await call(`/api/company/contracts/${existing.public_id}`, { token: strangerToken })).status,
    ).toBe(404);
  });

  it('updates the status, and refuses an unknown status or a repeat', async () => {
    const path = `/api/company/contracts/${existing.public_id}/status/update`;
    const bad = await call<ErrorEnvelope>(path, { method: 'PATCH', json: { status: 'deleted' }, token });
    expect(bad.status).toBe(422);
    const archived = await call<ContractAnswer>(path, {
      method: 'PATCH',
      json: { status: 'archived' },
      token,
    });
    expect(archived.status).toBe(200);
    expect(archived.body.data.contract.status).toBe('archived');
    const again = await call<ErrorEnvelope>(path, { method: 'PATCH', json: { status: 'archived' }, token });
    expect(again.status).toBe(422);
    expect(again.body.message).toBe('This contract is already archived.');
    const reactivated = await call<ContractAnswer>(path, {
      method: 'PATCH',
      json: { status: 'active' },
      token,
    });
    expect(reactivated.body.data.contract.status).toBe('active');
  });

  it('lists the activities of a contract', async () => {
    const answer = await call<{ data: { activities: { items: { action: string }[] } } }>(
      `/api/company/contracts/${existing.public_id}/activities`,
      { token },
    );
    expect(answer.status).toBe(200);
    expect(answer.body.data.activities.items.map((a) => a.action)).toEqual(['activated', 'archived']);
  });

  it('clones a contract with new dates, and refuses past dates', async () => {
    const path = `/api/company/contracts/${existing.public_id}/clone`;
    const copy = await call<ContractAnswer>(path, {
      method: 'POST',
      json: { start_date: day(5), end_date: day(50) },
      token,
    });
    expect(copy.status).toBe(201);
    expect(copy.body.data.contract).toMatchObject({ name: 'API contract', start_date: day(5) });
    const past = await call<ErrorEnvelope>(path, { method: 'POST', json: {}, token });
    expect(past.status).toBe(422);
    expect(past.body.errors).toContainEqual({
      key: 'start_date',
      message: 'Start date should not be in the past',
    });
  });

  it('summarises the contracts the caller sees', async () => {
    const answer = await call<{ data: { summary: { total: number; active: number } } }>(
      '/api/company/contracts/summary',
      { token },
    );
    expect(answer.status).toBe(200);
    expect(answer.body.data.summary.total).toBeGreaterThanOrEqual(3);
  });

  it('answers 403 to a role without the permission', async () => {
    const answer = await call<ErrorEnvelope>('/api/company/contracts/add', {
      method: 'POST',
      json: goodContract(),
      token: financeToken,
    });
    expect(answer.status).toBe(403);
  });
});
