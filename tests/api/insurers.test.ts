import { beforeAll, describe, expect, it, vi } from 'vitest';
import { apiToken, call, type ErrorEnvelope } from '../support/api';
import { DEMO_ACCOUNTS, SETUP_TIMEOUT_MS } from '../support/world';
import { chooseCompany, seedConfigWorld, STRANGER, type ConfigWorld } from '../support/config';

vi.mock('@remix-run/cloudflare', () => import('../support/remix-stub'));

type Insurer = {
  id: string;
  name: string;
  code: string | null;
  status: string;
  company_id: string;
  created_at: string;
};

let w: ConfigWorld;
let admin: string;
let stranger: string;
let executive: string;

beforeAll(async () => {
  w = await seedConfigWorld();
  await chooseCompany(DEMO_ACCOUNTS.seniorAdmin, w.albion.id);
  [admin, stranger, executive] = await Promise.all([
    apiToken(DEMO_ACCOUNTS.seniorAdmin),
    apiToken(STRANGER.companyUser),
    apiToken(DEMO_ACCOUNTS.executive),
  ]);
}, SETUP_TIMEOUT_MS);

describe('insurers API', () => {
  let id: string;

  it('needs a token', async () => {
    expect((await call('/api/company/insurers/list')).status).toBe(401);
  });

  it('POST insurers/add creates an insurer in the top-bar company (201); bad input answers 422', async () => {
    const ok = await call<{ data: { insurer: Insurer }; message: string }>('/api/company/insurers/add', {
      method: 'POST',
      token: admin,
      json: {
        name: 'Severn Assurance',
        code: 'SEVERN',
        email: 'hello@severn.test',
        phone_country: 'GB',
        phone_number: '1179000000',
        website: 'https://severn.test',
      },
    });
    expect(ok.status).toBe(201);
    expect(ok.body.message).toBe('Insurer created successfully');
    expect(ok.body.data.insurer).toMatchObject({
      name: 'Severn Assurance',
      status: 'active',
      company_id: w.albion.public_id,
    });
    expect(typeof ok.body.data.insurer.created_at).toBe('string');
    id = ok.body.data.insurer.id;

    const bad = await call<ErrorEnvelope>('/api/company/insurers/add', {
      method: 'POST',
      token: admin,
      json: { name: '', email: 'nope', website: 'severn', phone_number: '12' },
    });
    expect(bad.status).toBe(422);
    const byKey = Object.fromEntries(bad.body.errors.map((e) => [e.key, e.message]));
    expect(byKey).toEqual({
      name: 'This field is required',
      email: 'Invalid email address provided.',
      website: 'This value must be a valid URL',
      phone_number: 'Phone number must be 3 to 18 digits.',
      phone_country: 'This field is required',
    });
    const pair = await call<ErrorEnvelope>('/api/company/insurers/add', {
      method: 'POST',
      token: admin,
      json: { name: 'Half Phone', phone_number: '1179000000' },
    });
    expect(pair.body.errors).toEqual([{ key: 'phone_country', message: 'This field is required' }]);
    const dial = await call<ErrorEnvelope>('/api/company/insurers/add', {
      method: 'POST',
      token: admin,
      json: { name: 'Odd Dial', phone_country: 'QQ', phone_number: '1179000000' },
    });
    expect(dial.status).toBe(422);
    expect(dial.body.errors).toEqual([{ key: 'phone_country', message: 'Dial code not found.' }]);
  });

  it('GET insurers/list answers data.insurers.items and meta, filtered and scoped', async () => {
    const r = await call<{ data: { insurers: { items: Insurer[]; meta: { total: number } } } }>(
      '/api/company/insurers/list?search=severn',
      { token: admin },
    );
    expect(r.status).toBe(200);
    expect(r.body.data.insurers.items.map((i) => i.name)).toEqual(['Severn Assurance']);
    const theirs = await call<{ data: { insurers: { items: Insurer[] } } }>('/api/company/insurers/list', {
      token: stranger,
    });
    expect(theirs.body.data.insurers.items.map((i) => i.name)).toEqual(['Dalriada Mutual']);
  });

  it('PATCH insurers/{id}/update saves; another company answers 404', async () => {
    const ok = await call<{ data: { insurer: Insurer }; message: string }>(
      `/api/company/insurers/${id}/update`,
      {
        method: 'PATCH',
        token: admin,
        json: { name: 'Severn Assurance plc', code: 'SEVERN' },
      },
    );
    expect(ok.status).toBe(200);
    expect(ok.body.message).toBe('Insurer updated successfully');
    expect(ok.body.data.insurer.name).toBe('Severn Assurance plc');
    const bad = await call<ErrorEnvelope>(`/api/company/insurers/${id}/update`, {
      method: 'PATCH',
      token: admin,
      json: { name: '' },
    });
    expect(bad.status).toBe(422);
    const foreign = await call<ErrorEnvelope>(`/api/company/insurers/${id}/update`, {
      method: 'PATCH',
      token: stranger,
      json: { name: 'Hijacked' },
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe('Insurer not found');
    expect(
      (
        await call(`/api/company/insurers/${id}/update`, {
          method: 'PATCH',
          token: executive,
          json: { name: 'X' },
        })
      ).status,
    ).toBe(403);
  });

  it('PATCH insurers/{id}/status/update archives and activates; a bad status answers 422', async () => {
    const archived = await call<{ data: { insurer: Insurer }; message: string }>(
      `/api/company/insurers/${id}/status/update`,
      {
        method: 'PATCH',
        token: admin,
        json: { status: 'archived' },
      },
    );
    expect(archived.status).toBe(200);
    expect(archived.body.message).toBe('Insurer archived successfully');
    expect(archived.body.data.insurer.status).toBe('archived');
    const bad = await call<ErrorEnvelope>(`/api/company/insurers/${id}/status/update`, {
      method: 'PATCH',
      token: admin,
      json: { status: 'gone' },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([{ key: 'status', message: 'This field is required' }]);
  });

  it('DELETE insurers/company/{id} deletes an unused insurer; another company gets 404, then it is gone', async () => {
    expect(
      (await call(`/api/company/insurers/company/${id}`, { method: 'DELETE', token: stranger })).status,
    ).toBe(404);
    const ok = await call<{ message: string }>(`/api/company/insurers/company/${id}`, {
      method: 'DELETE',
      token: admin,
    });
    expect(ok.status).toBe(200);
    expect(ok.body.message).toBe('Insurer deleted successfully');
    expect((await call(`/api/company/insurers/${id}`, { token: admin })).status).toBe(404);
  });
});
