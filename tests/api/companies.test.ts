import { beforeAll, describe, expect, it, vi } from 'vitest';
import { countryId } from '../../drizzle/seed/builders';
import { apiToken, call, type ErrorEnvelope } from '../support/api';
import { DEMO_ACCOUNTS, db, SETUP_TIMEOUT_MS } from '../support/world';
import { chooseCompany, seedConfigWorld, STRANGER, type ConfigWorld } from '../support/config';

vi.mock('@remix-run/cloudflare', () => import('../support/remix-stub'));

type Company = {
  id: string;
  name: string;
  iban: string | null;
  status: string;
  contacts: { owner: { email: string } | null };
  billing_address: { city: string } | null;
};

let w: ConfigWorld;
let admin: string;
let stranger: string;
let finance: string;
let gb: number;

beforeAll(async () => {
  w = await seedConfigWorld();
  await chooseCompany(DEMO_ACCOUNTS.seniorAdmin, 0);
  [admin, stranger, finance] = await Promise.all([
    apiToken(DEMO_ACCOUNTS.seniorAdmin),
    apiToken(STRANGER.companyUser),
    apiToken(DEMO_ACCOUNTS.finance),
  ]);
  gb = await countryId(db(), 'GB');
}, SETUP_TIMEOUT_MS);

const body = (over: Record<string, unknown> = {}) => ({
  name: 'Northumbria Cover Ltd',
  country_id: gb,
  currency: 'GBP',
  preferred_lang: 'en',
  bank_name: 'NatWest',
  bic: 'NWBKGB2L',
  iban: 'GB29 NWBK 6016 1331 9268 19',
  payment_gateway: 'barclaycard_epdq',
  order_status_default: 'pending',
  failed_order_status: 'unpaid',
  change_status_after: 14,
  contacts: {
    owner: { first_name: 'Nora', last_name: 'North', email: 'nora@northumbria.test' },
    secondary: [],
  },
  billing_address: { address: '1 Quayside', city: 'Newcastle', postal_code: 'NE1 3AF', country_id: gb },
  ...over,
});

describe('companies API', () => {
  let id: string;

  it('needs a token', async () => {
    expect((await call('/api/company/companies/list')).status).toBe(401);
  });

  it('POST companies/add creates the company with contacts and billing address (201)', async () => {
    const r = await call<{ data: { company: Company }; message: string }>('/api/company/companies/add', {
      method: 'POST',
      token: admin,
      json: body(),
    });
    expect(r.status).toBe(201);
    expect(r.body.message).toBe('Company created successfully');
    expect(r.body.data.company).toMatchObject({
      name: 'Northumbria Cover Ltd',
      iban: 'GB29NWBK60161331926819',
      status: 'active',
      contacts: { owner: { email: 'nora@northumbria.test' } },
      billing_address: { city: 'Newcastle' },
    });
    id = r.body.data.company.id;
  });

  it('POST companies/add with bad input answers 422 with each field’s message', async () => {
    const r = await call<ErrorEnvelope>('/api/company/companies/add', {
      method: 'POST',
      token: admin,
      json: body({
        name: '',
        iban: 'GB00NWBK60161331926819',
        bic: 'X',
        payment_gateway: 'stripe',
        change_status_after: 'soon',
      }),
    });
    expect(r.status).toBe(422);
    expect(Object.fromEntries(r.body.errors.map((e) => [e.key, e.message]))).toEqual({
      name: 'This field is required',
      iban: 'Enter a valid IBAN.',
      bic: 'Enter a valid BIC (8 or 11 characters).',
      payment_gateway: 'This field is required',
      change_status_after: 'Value must be digit',
    });
    const taken = await call<ErrorEnvelope>('/api/company/companies/add', {
      method: 'POST',
      token: admin,
      json: body(),
    });
    expect(taken.status).toBe(422);
    expect(taken.body.message).toBe('Unable to save the company!');
    expect(taken.body.errors).toEqual([{ key: 'name', message: 'A company with this name already exists.' }]);
    expect(
      (
        await call('/api/company/companies/add', {
          method: 'POST',
          token: finance,
          json: body({ name: 'F Co' }),
        })
      ).status,
    ).toBe(403);
  });

  it('GET companies/list and companies/{id} answer the caller’s companies; another company is 404', async () => {
    const list = await call<{ data: { companies: { items: { name: string }[]; meta: { total: number } } } }>(
      '/api/company/companies/list?search=northumbria',
      { token: admin },
    );
    expect(list.status).toBe(200);
    expect(list.body.data.companies.items.map((c) => c.name)).toEqual(['Northumbria Cover Ltd']);
    const one = await call<{ data: { company: Company } }>(`/api/company/companies/${id}`, { token: admin });
    expect(one.status).toBe(200);
    expect(one.body.data.company.name).toBe('Northumbria Cover Ltd');
    const foreign = await call<ErrorEnvelope>(`/api/company/companies/${id}`, { token: stranger });
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe('Company not found');
    const theirs = await call<{ data: { companies: { items: { name: string }[] } } }>(
      '/api/company/companies/list',
      {
        token: stranger,
      },
    );
    expect(theirs.body.data.companies.items.map((c) => c.name)).toEqual([STRANGER.company]);
  });

  it('PATCH companies/{id}/update saves every field; bad input 422; another company 404', async () => {
    const r = await call<{ data: { company: Company }; message: string }>(
      `/api/company/companies/${id}/update`,
      {
        method: 'PATCH',
        token: admin,
        json: body({ bank_name: 'Barclays', billing_address: null }),
      },
    );
    expect(r.status).toBe(200);
    expect(r.body.message).toBe('Company updated successfully');
    expect(r.body.data.company.billing_address).toBeNull();
    const bad = await call<ErrorEnvelope>(`/api/company/companies/${id}/update`, {
      method: 'PATCH',
      token: admin,
      json: body({ mailing_address: { address: '1 Road', email: 'post@n.test', country_id: gb } }),
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([
      { key: 'mailing_address.city', message: 'Mailing city is required when a mailing email is given.' },
    ]);
    expect(
      (
        await call(`/api/company/companies/${id}/update`, {
          method: 'PATCH',
          token: stranger,
          json: body({ name: 'Mine now' }),
        })
      ).status,
    ).toBe(404);
  });

  it('PATCH companies/{id}/update saves the overdue reminder days, sorted; bad days 422', async () => {
    const saved = await call<{ data: { company: Company & { overdue_reminder_days: number[] } } }>(
      `/api/company/companies/${id}/update`,
      { method: 'PATCH', token: admin, json: body({ overdue_reminder_days: [14, 3, 3] }) },
    );
    expect(saved.status).toBe(200);
    expect(saved.body.data.company.overdue_reminder_days).toEqual([3, 14]);
    const bad = await call<ErrorEnvelope>(`/api/company/companies/${id}/update`, {
      method: 'PATCH',
      token: admin,
      json: body({ overdue_reminder_days: [0] }),
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([
      {
        key: 'overdue_reminder_days.0',
        message: 'Enter whole days from 1 to 365, separated by commas (at most 10)',
      },
    ]);
  });

  it('PATCH companies/{id}/status/update archives and activates; a bad status answers 422', async () => {
    const archived = await call<{ data: { company: Company }; message: string }>(
      `/api/company/companies/${id}/status/update`,
      { method: 'PATCH', token: admin, json: { status: 'archived' } },
    );
    expect(archived.status).toBe(200);
    expect(archived.body.message).toBe('Company archived successfully');
    expect(archived.body.data.company.status).toBe('archived');
    const back = await call<{ data: { company: Company } }>(`/api/company/companies/${id}/status/update`, {
      method: 'PATCH',
      token: admin,
      json: { status: 'active' },
    });
    expect(back.body.data.company.status).toBe('active');
    const bad = await call<ErrorEnvelope>(`/api/company/companies/${id}/status/update`, {
      method: 'PATCH',
      token: admin,
      json: { status: 'closed' },
    });
    expect(bad.status).toBe(422);
  });

  it('GET companies/{company}/users/finance answers the Finance users, filtered by search', async () => {
    const r = await call<{ data: { users: { email: string; full_name: string }[] } }>(
      `/api/company/companies/${w.albion.public_id}/users/finance?search=fiona`,
      { token: admin },
    );
    expect(r.status).toBe(200);
    expect(r.body.data.users).toEqual([
      expect.objectContaining({ email: DEMO_ACCOUNTS.finance, full_name: 'Fiona Finance' }),
    ]);
    const none = await call<{ data: { users: unknown[] } }>(
      `/api/company/companies/${w.albion.public_id}/users/finance?search=nobody`,
      { token: admin },
    );
    expect(none.body.data.users).toEqual([]);
    expect(
      (await call(`/api/company/companies/${w.albion.public_id}/users/finance`, { token: stranger })).status,
    ).toBe(404);
  });
});
