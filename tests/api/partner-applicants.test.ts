/**
 * The partner applicants' calls: `GET company/insured-applicants` (the catalogue's, answered as
 * `data.insured_applicants` with items and meta) and `POST company/insured-applicants` (ours, the
 * partner's intake: 201 for a new reference, 200 for one received before, 422 with the field's message).
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { seedPartnerApplicants } from '../../drizzle/seed/applicants';
import { apiToken, call, type ErrorEnvelope } from '../support/api';
import { STRANGER } from '../support/contracts';
import { seedDocumentsWorld } from '../support/policy-documents';
import { db, DEMO_ACCOUNTS, SETUP_TIMEOUT_MS } from '../support/world';

vi.mock('@remix-run/cloudflare', () => import('../support/remix-stub'));

interface Applicant {
  id: string;
  partner_reference: string;
  status: string;
  policy: { id: string; policy_number: string } | null;
}
type List = { data: { insured_applicants: { items: Applicant[]; meta: { total: number } } } };
type One = { data: { insured_applicant: Applicant }; message: string };

let senior: string;
let stranger: string;
let school: string;

beforeAll(async () => {
  const w = await seedDocumentsWorld();
  await seedPartnerApplicants(db(), { companyId: w.albion.id });
  [senior, stranger, school] = await Promise.all([
    apiToken(DEMO_ACCOUNTS.seniorAdmin),
    apiToken(STRANGER.companyUser),
    apiToken(DEMO_ACCOUNTS.schoolAdmin),
  ]);
}, SETUP_TIMEOUT_MS);

const body = {
  partner_reference: 'ASI-API-1',
  first_name: 'Irene',
  last_name: 'Soler',
  date_of_birth: '2008-02-02',
  start_date: '2027-02-01',
  end_date: '2027-07-01',
};

describe('GET company/insured-applicants', () => {
  it('answers the company’s applicants as a paged list, filtered by status', async () => {
    const all = await call<List>('/api/company/insured-applicants', { token: senior });
    expect(all.status).toBe(200);
    expect(all.body.data.insured_applicants.meta.total).toBeGreaterThanOrEqual(6);
    const enrolled = await call<List>('/api/company/insured-applicants?status=enrolled', { token: senior });
    expect(enrolled.body.data.insured_applicants.items.map((a) => a.status)).toEqual(['enrolled']);
  });

  it('shows another company nothing, refuses a school user and a caller without a token', async () => {
    const other = await call<List>('/api/company/insured-applicants', { token: stranger });
    expect(other.body.data.insured_applicants.meta.total).toBe(0);
    expect((await call('/api/company/insured-applicants', { token: school })).status).toBe(403);
    expect((await call('/api/company/insured-applicants')).status).toBe(401);
  });
});

describe('POST company/insured-applicants', () => {
  it('receives a new applicant (201) and the same reference again as an update (200)', async () => {
    const first = await call<One>('/api/company/insured-applicants', {
      method: 'POST',
      json: body,
      token: senior,
    });
    expect(first.status).toBe(201);
    expect(first.body.data.insured_applicant).toMatchObject({
      partner_reference: 'ASI-API-1',
      status: 'pending',
    });
    expect(first.body.message).toBe('The applicant was received.');
    const again = await call<One>('/api/company/insured-applicants', {
      method: 'POST',
      json: { ...body, end_date: '2027-08-01' },
      token: senior,
    });
    expect(again.status).toBe(200);
    expect(again.body.data.insured_applicant.id).toBe(first.body.data.insured_applicant.id);
  });

  it('refuses a cover that ends before it starts, and a body that is not JSON', async () => {
    const bad = await call<ErrorEnvelope>('/api/company/insured-applicants', {
      method: 'POST',
      json: { ...body, end_date: '2027-01-01' },
      token: senior,
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([
      { key: 'end_date', message: 'End date should be after the start date' },
    ]);
    const text = await call('/api/company/insured-applicants', {
      method: 'POST',
      raw: 'partner_reference=x',
      contentType: 'text/plain',
      token: senior,
    });
    expect(text.status).toBe(415);
  });
});
