import { beforeAll, describe, expect, it, vi } from 'vitest';
import { countryId } from '../../drizzle/seed/builders';
import { apiToken, call, type ErrorEnvelope } from '../support/api';
import { DEMO_ACCOUNTS, db, seedUk, SETUP_TIMEOUT_MS } from '../support/world';

vi.mock('@remix-run/cloudflare', () => import('../support/remix-stub'));

type TaxRate = {
  id: number;
  tax_rate: number | null;
  tax_amount: number | null;
  active: boolean;
  status: string;
};

let admin: string;
let finance: string;
let school: string;
let pt: number;

beforeAll(async () => {
  await seedUk();
  [admin, finance, school] = await Promise.all([
    apiToken(DEMO_ACCOUNTS.seniorAdmin),
    apiToken(DEMO_ACCOUNTS.finance),
    apiToken(DEMO_ACCOUNTS.schoolAdmin),
  ]);
  pt = await countryId(db(), 'PT');
}, SETUP_TIMEOUT_MS);

describe('GET /api/countries', () => {
  it('answers the active countries for dropdowns, without a portal prefix and without signing in', async () => {
    const r = await call<{
      data: { countries: { abbreviation: string; dial_code: string; currency_code: string }[] };
    }>('/api/countries');
    expect(r.status).toBe(200);
    expect(r.body.data.countries.length).toBeGreaterThanOrEqual(245);
    expect(r.body.data.countries.find((c) => c.abbreviation === 'GB')).toMatchObject({
      dial_code: '44',
      currency_code: 'GBP',
      code: 'GBR',
      name: 'United Kingdom',
    });
  });
});

describe('countries calls', () => {
  it('needs a token (401) and read_country (403 for a school user)', async () => {
    expect((await call('/api/company/countries/summary')).status).toBe(401);
    const r = await call<ErrorEnvelope>('/api/company/countries/summary', { token: school });
    expect(r.status).toBe(403);
    expect(r.body.message).toBe('You do not have permission to do this.');
  });

  it('GET countries/summary counts the countries', async () => {
    const r = await call<{ data: { summary: { total: number; active: number } } }>(
      '/api/company/countries/summary',
      {
        token: finance,
      },
    );
    expect(r.status).toBe(200);
    expect(r.body.data.summary.total).toBeGreaterThanOrEqual(245);
  });

  it('GET countries/list pages and filters into data.countries.items and meta', async () => {
    const r = await call<{
      data: { countries: { items: { abbreviation: string }[]; meta: { total: number; per_page: number } } };
    }>('/api/company/countries/list?search=portugal&items=5', { token: finance });
    expect(r.status).toBe(200);
    expect(r.body.data.countries.items.map((c) => c.abbreviation)).toEqual(['PT']);
    expect(r.body.data.countries.meta).toMatchObject({ total: 1, per_page: 5 });
  });

  it('POST countries/add creates a country; bad input answers 422 with the messages', async () => {
    const ok = await call<{ data: { country: { id: number; abbreviation: string } } }>(
      '/api/company/countries/add',
      {
        method: 'POST',
        token: admin,
        json: { name: 'Freedonia', abbreviation: 'qf', code: 'qff', region_code: 'EU', currency_code: 'eur' },
      },
    );
    expect(ok.status).toBe(201);
    expect(ok.body.data.country).toMatchObject({ abbreviation: 'QF', code: 'QFF', currency_code: 'EUR' });

    const bad = await call<ErrorEnvelope>('/api/company/countries/add', {
      method: 'POST',
      token: admin,
      json: { name: '', abbreviation: 'GBR', code: 'GB', region_code: 'XX', travel_restriction_notes: 'no' },
    });
    expect(bad.status).toBe(422);
    const byKey = Object.fromEntries(bad.body.errors.map((e) => [e.key, e.message]));
    expect(byKey).toMatchObject({
      name: 'This field is required',
      abbreviation: 'Abbreviation must be two letters.',
      code: 'Code must be three letters.',
      region_code: 'Choose a region.',
      travel_restriction_notes: 'Minimum of "5" characters required',
    });

    const taken = await call<ErrorEnvelope>('/api/company/countries/add', {
      method: 'POST',
      token: admin,
      json: { name: 'Britain again', abbreviation: 'GB', code: 'GBX', region_code: 'EU' },
    });
    expect(taken.status).toBe(422);
    expect(taken.body.errors).toEqual([
      { key: 'abbreviation', message: 'A country with this abbreviation already exists.' },
    ]);
  });

  it('PUT countries/{id}/update saves the settings; unknown ids answer 404', async () => {
    const r = await call<{
      data: { country: { age_min: number; requires_passport_number: boolean } };
      message: string;
    }>(`/api/company/countries/${pt}/update`, {
      method: 'PUT',
      token: admin,
      json: {
        name: 'Portugal',
        abbreviation: 'PT',
        code: 'PRT',
        region_code: 'EU',
        age_min: 18,
        age_max: 65,
        stamp_duty_applicable: true,
        requires_passport_number: true,
        travel_restriction_notes: 'None at present.',
      },
    });
    expect(r.status).toBe(200);
    expect(r.body.data.country).toMatchObject({ age_min: 18, requires_passport_number: true });
    expect(r.body.message).toBe('Country updated successfully');
    const bad = await call<ErrorEnvelope>(`/api/company/countries/${pt}/update`, {
      method: 'PUT',
      token: admin,
      json: {
        name: 'Portugal',
        abbreviation: 'PT',
        code: 'PRT',
        region_code: 'EU',
        age_min: 40,
        age_max: 20,
      },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([
      { key: 'age_max', message: 'Maximum age must not be below the minimum age.' },
    ]);
    const missing = await call('/api/company/countries/999999/update', {
      method: 'PUT',
      token: admin,
      json: { name: 'X', abbreviation: 'XX', code: 'XXX', region_code: 'EU' },
    });
    expect(missing.status).toBe(404);
    expect((await call('/api/company/countries/abc', { token: admin })).status).toBe(404);
    expect(
      (
        await call(`/api/company/countries/${pt}/update`, {
          method: 'PUT',
          token: finance,
          json: { name: 'Portugal', abbreviation: 'PT', code: 'PRT', region_code: 'EU' },
        })
      ).status,
    ).toBe(403);
  });

  it('PATCH countries/{id}/status/update archives and activates; a bad status answers 422', async () => {
    const archived = await call<{ data: { country: { status: string } } }>(
      `/api/company/countries/${pt}/status/update`,
      {
        method: 'PATCH',
        token: admin,
        json: { status: 'archived' },
      },
    );
    expect(archived.status).toBe(200);
    expect(archived.body.data.country.status).toBe('archived');
    const dropdown = await call<{ data: { countries: { abbreviation: string }[] } }>('/api/countries');
    expect(dropdown.body.data.countries.some((c) => c.abbreviation === 'PT')).toBe(false);
    const back = await call<{ data: { country: { status: string } } }>(
      `/api/company/countries/${pt}/status/update`,
      {
        method: 'PATCH',
        token: admin,
        json: { status: 'active' },
      },
    );
    expect(back.body.data.country.status).toBe('active');
    const bad = await call<ErrorEnvelope>(`/api/company/countries/${pt}/status/update`, {
      method: 'PATCH',
      token: admin,
      json: { status: 'deleted' },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0]).toEqual({ key: 'status', message: 'This field is required' });
  });
});

describe('tax-rate calls', () => {
  let rateId: number;

  it("POST countries/tax-rates/add: 'Tax rate must be a number between 0 and 100' and the amount rule", async () => {
    for (const tax_rate of [0, 100, 'abc']) {
      const bad = await call<ErrorEnvelope>('/api/company/countries/tax-rates/add', {
        method: 'POST',
        token: admin,
        json: { country_id: pt, tax_rate, start_date: '2026-01-01' },
      });
      expect(bad.status, String(tax_rate)).toBe(422);
      expect(bad.body.message).toBe('Tax rate must be a number between 0 and 100');
      expect(bad.body.errors).toEqual([
        { key: 'tax_rate', message: 'Tax rate must be a number between 0 and 100' },
      ]);
    }
    const amount = await call<ErrorEnvelope>('/api/company/countries/tax-rates/add', {
      method: 'POST',
      token: admin,
      json: { country_id: pt, tax_amount: 0, start_date: '2026-01-01' },
    });
    expect(amount.body.errors).toEqual([{ key: 'tax_amount', message: 'Tax amount must be greater than 0' }]);
    const dates = await call<ErrorEnvelope>('/api/company/countries/tax-rates/add', {
      method: 'POST',
      token: admin,
      json: { country_id: pt, tax_rate: 23, start_date: '2026-05-01', end_date: '2026-04-30' },
    });
    expect(dates.body.errors).toEqual([
      { key: 'end_date', message: 'End date should be after the start date' },
    ]);
    const noStart = await call<ErrorEnvelope>('/api/company/countries/tax-rates/add', {
      method: 'POST',
      token: admin,
      json: { country_id: pt, tax_rate: 23 },
    });
    expect(noStart.body.errors).toEqual([{ key: 'start_date', message: 'This field is required' }]);

    const ok = await call<{ data: { tax_rate: TaxRate }; message: string }>(
      '/api/company/countries/tax-rates/add',
      {
        method: 'POST',
        token: admin,
        json: { country_id: pt, tax_rate: 23, start_date: '2026-01-01' },
      },
    );
    expect(ok.status).toBe(201);
    expect(ok.body.data.tax_rate).toMatchObject({ tax_rate: 23, active: false, status: 'inactive' });
    rateId = ok.body.data.tax_rate.id;
  });

  it("POST tax-rates/{id}/activate: 'Tax rate activated successfully', then 'This tax rate is already active.'", async () => {
    const ok = await call<{ data: { tax_rate: TaxRate }; message: string }>(
      `/api/company/tax-rates/${rateId}/activate`,
      {
        method: 'POST',
        token: admin,
      },
    );
    expect(ok.status).toBe(200);
    expect(ok.body.message).toBe('Tax rate activated successfully');
    expect(ok.body.data.tax_rate.active).toBe(true);
    const again = await call<ErrorEnvelope>(`/api/company/tax-rates/${rateId}/activate`, {
      method: 'POST',
      token: admin,
    });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('This tax rate is already active.');
    expect(
      (await call(`/api/company/tax-rates/${rateId}/activate`, { method: 'POST', token: finance })).status,
    ).toBe(403);
  });

  it("PATCH countries/tax-rates/{id}/update: 'Tax rate updated successfully'; bad input 422", async () => {
    const ok = await call<{ data: { tax_rate: TaxRate }; message: string }>(
      `/api/company/countries/tax-rates/${rateId}/update`,
      {
        method: 'PATCH',
        token: admin,
        json: { tax_rate: 22.5, start_date: '2026-01-01', end_date: '2026-12-31' },
      },
    );
    expect(ok.status).toBe(200);
    expect(ok.body.message).toBe('Tax rate updated successfully');
    expect(ok.body.data.tax_rate).toMatchObject({ tax_rate: 22.5, active: true });
    const bad = await call<ErrorEnvelope>(`/api/company/countries/tax-rates/${rateId}/update`, {
      method: 'PATCH',
      token: admin,
      json: { tax_rate: 150, start_date: '2026-01-01' },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toBe('Tax rate must be a number between 0 and 100');
    expect(
      (
        await call('/api/company/countries/tax-rates/999999/update', {
          method: 'PATCH',
          token: admin,
          json: { tax_rate: 5, start_date: '2026-01-01' },
        })
      ).status,
    ).toBe(404);
  });

  it('GET countries/{id} shows the country with its tax rates', async () => {
    const r = await call<{ data: { country: { abbreviation: string; tax_rates: TaxRate[] } } }>(
      `/api/company/countries/${pt}`,
      {
        token: finance,
      },
    );
    expect(r.status).toBe(200);
    expect(r.body.data.country.tax_rates.map((t) => t.id)).toEqual([rateId]);
  });

  it("DELETE tax-rates/{id}/delete: 'Tax rate deleted successfully', then 404", async () => {
    expect(
      (await call(`/api/company/tax-rates/${rateId}/delete`, { method: 'DELETE', token: finance })).status,
    ).toBe(403);
    const ok = await call<{ message: string }>(`/api/company/tax-rates/${rateId}/delete`, {
      method: 'DELETE',
      token: admin,
    });
    expect(ok.status).toBe(200);
    expect(ok.body.message).toBe('Tax rate deleted successfully');
    const gone = await call<ErrorEnvelope>(`/api/company/tax-rates/${rateId}/delete`, {
      method: 'DELETE',
      token: admin,
    });
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe('Tax rate not found');
  });
});
