import { beforeAll, describe, expect, it, vi } from 'vitest';
import { buildContract } from '../../drizzle/seed/contracts';
import { createApp } from '../../workers/http';
import { apiToken, call, type ErrorEnvelope } from '../support/api';
import { pdfBytes } from '../support/files';
import { DEMO_ACCOUNTS, SETUP_TIMEOUT_MS, testEnv, uniqueIp } from '../support/world';
import { STRANGER, day, db, seedContractsWorld, type ContractsWorld } from '../support/contracts';

vi.mock('@remix-run/cloudflare', () => import('../support/remix-stub'));

type Campus = {
  id: string;
  name: string;
  status: string;
  payment_terms: string | null;
  contacts: { owner: { email: string } | null };
  summary: { contracts: number; users: number };
};
type CampusAnswer = { data: { campus: Campus }; message: string };

let w: ContractsWorld;
let token: string;
let strangerToken: string;
let schoolToken: string;
let contractId: string;

beforeAll(async () => {
  w = await seedContractsWorld();
  contractId = (
    await buildContract(db(), {
      campusId: w.north.id,
      productId: w.product.id,
      startDate: day(-1),
      name: 'North API',
    })
  ).public_id;
  token = await apiToken(DEMO_ACCOUNTS.seniorAdmin);
  strangerToken = await apiToken(STRANGER.companyUser);
  schoolToken = await apiToken(DEMO_ACCOUNTS.campusEmployee);
}, SETUP_TIMEOUT_MS);

const campusBody = (over: Record<string, unknown> = {}) => ({
  client_id: w.oakwood.public_id,
  name: 'API Campus',
  payment_terms: 'monthly',
  contacts: { owner: { first_name: 'Olga', last_name: 'Owner', email: 'olga@oakwood.example' } },
  billing_address: { address: '1 API Street', city: 'York', country_id: w.north.country_id },
  ...over,
});

async function createCampus(over: Record<string, unknown> = {}) {
  const answer = await call<CampusAnswer>('/api/company/campuses/add', {
    method: 'POST',
    json: campusBody(over),
    token,
  });
  expect(answer.status).toBe(201);
  return answer.body.data.campus;
}

describe('campuses API', () => {
  it('answers 401 without a token', async () => {
    expect((await call('/api/company/campuses/fetch')).status).toBe(401);
  });

  it('adds a campus with contacts and addresses', async () => {
    const answer = await call<CampusAnswer>('/api/company/campuses/add', {
      method: 'POST',
      json: campusBody(),
      token,
    });
    expect(answer.status).toBe(201);
    expect(answer.body.message).toBe('Campus saved successfully');
    expect(answer.body.data.campus).toMatchObject({
      name: 'API Campus',
      status: 'active',
      payment_terms: 'monthly',
    });
    expect(answer.body.data.campus.contacts.owner?.email).toBe('olga@oakwood.example');
  });

  it("refuses bad campus input with the spec's texts", async () => {
    const answer = await call<ErrorEnvelope>('/api/company/campuses/add', {
      method: 'POST',
      json: campusBody({
        name: '',
        website: 'nope',
        contacts: { owner: { first_name: 'O2', last_name: 'Owner', email: 'bad' } },
        mailing_address: { address: '1 Road', country_id: w.north.country_id, email: 'post@oakwood.example' },
      }),
      token,
    });
    expect(answer.status).toBe(422);
    expect(answer.body.errors).toEqual(
      expect.arrayContaining([
        { key: 'name', message: 'This field is required' },
        { key: 'website', message: 'This value must be a valid URL' },
        { key: 'contacts.owner.first_name', message: 'Name has invalid characters' },
        { key: 'contacts.owner.email', message: 'Invalid email address provided.' },
        { key: 'mailing_address.city', message: 'Mailing city is required when a mailing email is given.' },
      ]),
    );
  });

  it('fetches campuses with filters and paging, and the summary', async () => {
    const list = await call<{
      data: { campuses: { items: { name: string }[]; meta: { per_page: number } } };
    }>(`/api/company/campuses/fetch?client_id=${w.oakwood.public_id}&search=North&items=10`, { token });
    expect(list.status).toBe(200);
    expect(list.body.data.campuses.items.map((c) => c.name)).toEqual(['Oakwood North Campus']);
    expect(list.body.data.campuses.meta.per_page).toBe(10);
    const summary = await call<{ data: { summary: { total: number } } }>(
      `/api/company/campuses/summary?client_id=${w.oakwood.public_id}`,
      { token },
    );
    expect(summary.body.data.summary.total).toBeGreaterThanOrEqual(2);
    expect((await call<ErrorEnvelope>('/api/company/campuses/fetch?status=gone', { token })).status).toBe(
      422,
    );
  });

  it('reads a campus, its users, contracts, one contract and logs', async () => {
    const read = await call<CampusAnswer>(`/api/company/campuses/${w.north.public_id}`, { token });
    expect(read.status).toBe(200);
    expect(read.body.data.campus.summary.users).toBe(2);
    const users = await call<{ data: { users: { items: { email: string }[] } } }>(
      `/api/company/campuses/${w.north.public_id}/users`,
      { token },
    );
    expect(users.body.data.users.items).toHaveLength(2);
    // The same list and answer as the users screens' own call filtered by this campus.
    const same = await call<{ data: { users: unknown } }>(
      `/api/company/users/school/list?clients=${w.oakwood.public_id}&campuses=${w.north.public_id}`,
      { token },
    );
    expect(users.body.data.users).toEqual(same.body.data.users);
    const contracts = await call<{ data: { contracts: { items: { id: string }[] } } }>(
      `/api/company/campuses/${w.north.public_id}/contracts?search=North%20API`,
      { token },
    );
    expect(contracts.body.data.contracts.items.map((c) => c.id)).toEqual([contractId]);
    const one = await call<{ data: { contract: { name: string } } }>(
      `/api/company/campuses/${w.north.public_id}/contracts/${contractId}`,
      { token },
    );
    expect(one.body.data.contract.name).toBe('North API');
    expect(
      (await call(`/api/company/campuses/${w.south.public_id}/contracts/${contractId}`, { token })).status,
    ).toBe(404);
    const logs = await call<{ data: { logs: { items: unknown[] } } }>(
      `/api/company/campuses/${w.north.public_id}/logs`,
      { token },
    );
    expect(logs.status).toBe(200);
  });

  it('updates profile, contacts and billing, and each address', async () => {
    const campus = await createCampus({ name: 'Updatable' });
    const profile = await call<CampusAnswer>(`/api/company/campuses/${campus.id}/update`, {
      method: 'PATCH',
      json: { name: 'Updated name' },
      token,
    });
    expect(profile.body.data.campus.name).toBe('Updated name');
    const bad = await call<ErrorEnvelope>(`/api/company/campuses/${campus.id}/update`, {
      method: 'PATCH',
      json: { name: 'x'.repeat(101) },
      token,
    });
    expect(bad.status).toBe(422);
    const contacts = await call<CampusAnswer>(`/api/company/campuses/${campus.id}/update-contact`, {
      method: 'PATCH',
      json: { contacts: { owner: { first_name: 'Nina', last_name: 'New', email: 'nina@oakwood.example' } } },
      token,
    });
    expect(contacts.body.data.campus.contacts.owner?.email).toBe('nina@oakwood.example');
    const billing = await call<CampusAnswer>(`/api/company/campuses/${campus.id}/update-billing`, {
      method: 'PATCH',
      json: { payment_terms: 'weekly', account_number_ap: 'AP-2', pay_with_bank_transfer: true },
      token,
    });
    expect(billing.body.data.campus.payment_terms).toBe('weekly');
    const address = await call<{ data: { mailing_address: { city: string } } }>(
      `/api/company/campuses/${campus.id}/mailing-address/update`,
      {
        method: 'PATCH',
        json: { address: { address: '5 Post Lane', city: 'Bath', country_id: w.north.country_id } },
        token,
      },
    );
    expect(address.status).toBe(200);
    expect(address.body.data.mailing_address.city).toBe('Bath');
    const fetched = await call<{ data: { mailing_address: { address: string } } }>(
      `/api/company/campuses/${campus.id}/mailing-address/fetch`,
      { token },
    );
    expect(fetched.body.data.mailing_address.address).toBe('5 Post Lane');
    const billingAddress = await call<{ data: { billing_address: { city: string } } }>(
      `/api/company/campuses/${campus.id}/billing-address/fetch`,
      { token },
    );
    expect(billingAddress.body.data.billing_address.city).toBe('York');
    const badAddress = await call<ErrorEnvelope>(
      `/api/company/campuses/${campus.id}/billing-address/update`,
      {
        method: 'PATCH',
        json: { address: { address: '1 Road', postal_code: '!!!', country_id: w.north.country_id } },
        token,
      },
    );
    expect(badAddress.body.errors).toContainEqual({
      key: 'address.postal_code',
      message: 'Invalid postal code',
    });
  });

  it('archives, activates and clones', async () => {
    const campus = await createCampus({ name: 'Lifecycle' });
    const archived = await call<CampusAnswer>(`/api/company/campuses/${campus.id}/archive`, {
      method: 'PATCH',
      token,
    });
    expect(archived.body.data.campus.status).toBe('archived');
    const again = await call<ErrorEnvelope>(`/api/company/campuses/${campus.id}/archive`, {
      method: 'PATCH',
      token,
    });
    expect(again.status).toBe(422);
    expect(again.body.message).toBe('This campus is already archived.');
    const active = await call<CampusAnswer>(`/api/company/campuses/${campus.id}/activate`, {
      method: 'PATCH',
      token,
    });
    expect(active.body.data.campus.status).toBe('active');
    const clone = await call<CampusAnswer>(`/api/company/campuses/${campus.id}/clone`, {
      method: 'POST',
      json: {},
      token,
    });
    expect(clone.status).toBe(201);
    expect(clone.body.data.campus.name).toBe('Lifecycle (copy)');
  });

  it('answers the enrolment template URL, which downloads an .xlsx', async () => {
    const answer = await call<{ data: { url: string } }>(
      `/api/company/campuses/${w.north.public_id}/enrollment-template`,
      { token },
    );
    expect(answer.status).toBe(200);
    const path = new URL(answer.body.data.url).pathname;
    expect(path).toBe(`/api/company/campuses/${w.north.public_id}/enrollment-template/download`);
    const file = await call<string>(path, { token });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(file.headers.get('content-disposition')).toContain('enrolment-template-oakwood-north-campus.xlsx');
  });

  it('adds a note with a file, lists notes and downloads the file', async () => {
    const form = new FormData();
    form.append('title', 'Welcome visit');
    form.append('note', 'Met the registrar');
    form.append('date', day(0));
    form.append('source', 'call');
    form.append('type', 'admin_note');
    form.append('file', new File([pdfBytes('visit') as BlobPart], 'visit.pdf'));
    const res = await createApp().request(
      `/api/company/campuses/${w.south.public_id}/notes/add`,
      {
        method: 'POST',
        body: form,
        headers: { authorization: `Bearer ${token}`, 'cf-connecting-ip': uniqueIp() },
      },
      testEnv(),
    );
    expect(res.status).toBe(201);
    const { data } = (await res.json()) as { data: { note: { id: number } } };
    const notes = await call<{ data: { notes: { items: { title: string }[] } } }>(
      `/api/company/campuses/${w.south.public_id}/notes?type=admin_note`,
      { token },
    );
    expect(notes.body.data.notes.items.map((n) => n.title)).toContain('Welcome visit');
    const file = await call<string>(
      `/api/company/campuses/${w.south.public_id}/notes/${data.note.id}/download`,
      {
        method: 'POST',
        json: {},
        token,
      },
    );
    expect(file.status).toBe(200);
    expect(file.body).toContain('visit');
    const bad = new FormData();
    bad.append('title', 'Chat');
    bad.append('note', 'A chat');
    bad.append('date', day(0));
    bad.append('source', 'message_centre');
    bad.append('type', 'communication');
    const refused = await createApp().request(
      `/api/company/campuses/${w.south.public_id}/notes/add`,
      {
        method: 'POST',
        body: bad,
        headers: { authorization: `Bearer ${token}`, 'cf-connecting-ip': uniqueIp() },
      },
      testEnv(),
    );
    expect(refused.status).toBe(422);
    expect(JSON.stringify(await refused.json())).toContain('Link to message is required');
  });

  it('answers 404 to another company and to a school user outside the campus', async () => {
    const paths = [
      `/api/company/campuses/${w.north.public_id}`,
      `/api/company/campuses/${w.north.public_id}/users`,
      `/api/company/campuses/${w.north.public_id}/contracts`,
      `/api/company/campuses/${w.north.public_id}/logs`,
      `/api/company/campuses/${w.north.public_id}/notes`,
      `/api/company/campuses/${w.north.public_id}/enrollment-template`,
      `/api/company/campuses/${w.north.public_id}/billing-address/fetch`,
    ];
    for (const path of paths)
      expect([path, (await call(path, { token: strangerToken })).status]).toEqual([path, 404]);
    expect((await call(`/api/company/campuses/${w.south.public_id}`, { token: schoolToken })).status).toBe(
      404,
    );
    expect((await call(`/api/company/campuses/${w.north.public_id}`, { token: schoolToken })).status).toBe(
      200,
    );
  });
});
