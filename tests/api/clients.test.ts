import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../workers/http';
import { apiToken, call, type ErrorEnvelope } from '../support/api';
import { DEMO_ACCOUNTS, SETUP_TIMEOUT_MS, testEnv, uniqueIp } from '../support/world';
import { CLIENT_STRANGERS, seedClientsWorld, type ClientsWorld } from '../support/clients';
import { fileOf, pdfBytes, pngBytes } from '../support/files';

vi.mock('@remix-run/cloudflare', () => import('../support/remix-stub'));

const app = createApp();

/** A multipart call, as a browser or an API client sends files. */
async function callForm<T = unknown>(path: string, form: FormData, token: string, method = 'POST') {
  const res = await app.request(
    path,
    { method, body: form, headers: { authorization: `Bearer ${token}`, 'cf-connecting-ip': uniqueIp() } },
    testEnv(),
  );
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, headers: res.headers, body: body as T };
}

interface ClientAnswer {
  data: { client: { id: string; name: string; status: string; [k: string]: unknown } };
  message: string;
}

let world: ClientsWorld;
let senior: string;
let finance: string;
let schoolAdmin: string;
let employee: string;
let stranger: string;

const body = (overrides: Record<string, unknown> = {}) => ({
  name: 'Api Academy',
  type: 'school',
  company_id: world.albion.public_id,
  website: 'https://api-academy.test',
  payment_terms: 'monthly',
  contacts: {
    owner: { first_name: 'Ada', last_name: 'Api', email: 'ada@api-academy.test' },
    secondary: [
      { first_name: 'Sam', last_name: 'Second', email: 'sam@api-academy.test', job_title: 'Deputy' },
    ],
  },
  billing_address: { address: '1 Api Road', city: 'Bath', postal_code: 'BA1 1AA', country_id: 1 },
  fact_find: { renewal_month: '09' },
  ...overrides,
});

async function created(name: string, extra: Record<string, unknown> = {}) {
  const r = await call<ClientAnswer>('/api/company/clients/add', {
    method: 'POST',
    token: senior,
    json: body({ name, ...extra }),
  });
  expect(r.status).toBe(201);
  return r.body.data.client;
}

beforeAll(async () => {
  world = await seedClientsWorld();
  [senior, finance, schoolAdmin, employee, stranger] = await Promise.all([
    apiToken(DEMO_ACCOUNTS.seniorAdmin),
    apiToken(DEMO_ACCOUNTS.finance),
    apiToken(DEMO_ACCOUNTS.schoolAdmin),
    apiToken(DEMO_ACCOUNTS.campusEmployee),
    apiToken(CLIENT_STRANGERS.companyUser),
  ]);
}, SETUP_TIMEOUT_MS);

describe('POST clients/add', () => {
  it('creates a client from JSON and says so', async () => {
    const r = await call<ClientAnswer>('/api/company/clients/add', {
      method: 'POST',
      token: senior,
      json: body(),
    });
    expect(r.status).toBe(201);
    expect(r.body.message).toBe('Client saved successfully');
    expect(r.body.data.client).toMatchObject({
      name: 'Api Academy',
      status: 'active',
      payment_terms: 'monthly',
    });
  });

  it('creates a client from multipart with its logo and return policy', async () => {
    const form = new FormData();
    form.set('name', 'Multipart School');
    form.set('type', 'agency');
    form.set('company_id', world.albion.public_id);
    form.set('contacts.owner.first_name', 'Mo');
    form.set('contacts.owner.last_name', 'Part');
    form.set('contacts.owner.email', 'mo@multipart.test');
    form.set('contacts.secondary[0].first_name', 'Sue');
    form.set('contacts.secondary[0].last_name', 'Second');
    form.set('contacts.secondary[0].email', 'sue@multipart.test');
    form.set('logo', fileOf(pngBytes(), 'logo.png', 'image/png'));
    form.set('return_policy', fileOf(pdfBytes(), 'returns.pdf', 'application/pdf'));
    const r = await callForm<ClientAnswer>('/api/company/clients/add', form, senior);
    expect(r.status).toBe(201);
    expect(r.body.data.client).toMatchObject({
      name: 'Multipart School',
      type: 'agency',
      logo: 'logo.png',
      return_policy: 'returns.pdf',
    });
    const id = r.body.data.client.id;
    const logo = await call(`/api/company/clients/${id}/logo`, { token: senior });
    expect(logo.status).toBe(200);
    expect(logo.headers.get('content-type')).toBe('image/png');
    const policy = await call(`/api/company/clients/${id}/return-policy`, { token: senior });
    expect(policy.headers.get('content-type')).toBe('application/pdf');
  });

  it("answers 422 'Unable to save the client!' with each field's message, never 500", async () => {
    const r = await call<ErrorEnvelope>('/api/company/clients/add', {
      method: 'POST',
      token: senior,
      json: body({
        name: '',
        website: 'nope',
        contacts: { owner: { first_name: 'Ada', last_name: 'Api', email: 'ada@x.test', job_title: 'Boss' } },
        mailing_address: { address: '1 Road', country_id: 1, email: 'post@x.test' },
      }),
    });
    expect(r.status).toBe(422);
    expect(r.body.message).toBe('Unable to save the client!');
    expect(r.body.errors).toEqual(
      expect.arrayContaining([
        { key: 'name', message: 'This field is required' },
        { key: 'website', message: 'This value must be a valid URL' },
        {
          key: 'contacts.owner.job_title',
          message: 'A job title is only kept for initial, secondary and accounting contacts.',
        },
        { key: 'mailing_address.city', message: 'Mailing city is required when a mailing email is given.' },
      ]),
    );
    const broken = await call<ErrorEnvelope>('/api/company/clients/add', {
      method: 'POST',
      token: senior,
      raw: '{not json',
      contentType: 'application/json',
    });
    // A body that does not parse is refused as such, never read as an empty client.
    expect(broken.status).toBe(400);
    expect(broken.body.errors).toEqual([{ key: 'body', message: 'The request body could not be read.' }]);
  });

  it("refuses a logo that is not an image, and a file over 10 MB, with the spec's text", async () => {
    const form = new FormData();
    form.set('name', 'Bad Files');
    form.set('type', 'school');
    form.set('company_id', world.albion.public_id);
    form.set('logo', fileOf(new Uint8Array(10 * 1024 * 1024 + 1), 'huge.png', 'image/png'));
    const r = await callForm<ErrorEnvelope>('/api/company/clients/add', form, senior);
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual([{ key: 'logo', message: 'File cannot be larger than 10MB' }]);
  });

  it('refuses users without create_client (403) and callers without a token (401)', async () => {
    expect(
      (await call('/api/company/clients/add', { method: 'POST', token: finance, json: body() })).status,
    ).toBe(403);
    expect((await call('/api/company/clients/add', { method: 'POST', json: body() })).status).toBe(401);
  });
});

describe('GET clients, clients/list, summary, metadata', () => {
  it('lists in data.clients with items and meta, filtered, sorted and paged', async () => {
    await created('Listed Agency One', { type: 'agency' });
    await created('Listed Agency Two', { type: 'agency' });
    for (const path of ['/api/company/clients', '/api/company/clients/list']) {
      const r = await call<{
        data: { clients: { items: { name: string }[]; meta: Record<string, number> } };
      }>(`${path}?search=Listed%20Agency&order=name_desc&items=1&page=1`, { token: senior });
      expect(r.status).toBe(200);
      expect(r.body.data.clients.items.map((c) => c.name)).toEqual(['Listed Agency Two']);
      expect(r.body.data.clients.meta).toMatchObject({
        total: 2,
        per_page: 1,
        current_page: 1,
        last_page: 2,
        from: 1,
        to: 1,
      });
    }
    const bad = await call('/api/company/clients?status=nonsense&tab=nope&items=abc', { token: senior });
    expect(bad.status).toBe(200);
  });

  it("opens the account manager's list on their clients, clears it on request, and others' own list on request", async () => {
    const mark = await apiToken(DEMO_ACCOUNTS.accountManager);
    const r = await call<{ data: { clients: { items: { name: string }[] } } }>(
      '/api/company/clients?items=100',
      { token: mark },
    );
    expect(r.body.data.clients.items.map((c) => c.name)).toContain('Oakwood International School');
    expect(r.body.data.clients.items.map((c) => c.name)).not.toContain('Maple College');
    const all = await call<{ data: { clients: { items: { name: string }[] } } }>(
      '/api/company/clients?items=100&account_manager_clients=0',
      { token: mark },
    );
    expect(all.body.data.clients.items.map((c) => c.name)).toContain('Maple College');
    const own = await call<{ data: { clients: { items: unknown[] } } }>(
      '/api/company/clients?account_manager_clients=1',
      { token: senior },
    );
    expect(own.body.data.clients.items).toEqual([]);
  });

  it('summarises and describes the forms', async () => {
    const s = await call<{
      data: { summary: { total: number; active: number; by_status: Record<string, number> } };
    }>('/api/company/clients/summary', { token: senior });
    expect(s.status).toBe(200);
    expect(s.body.data.summary.total).toBeGreaterThan(0);
    const m = await call<{ data: { metadata: { types: string[]; account_managers: { name: string }[] } } }>(
      '/api/company/clients/metadata',
      { token: senior },
    );
    expect(m.body.data.metadata.types).toEqual(['school', 'agency', 'guardianship', 'other']);
    expect(m.body.data.metadata.account_managers.map((a) => a.name)).toContain('Mark Manager');
  });
});

describe('one client', () => {
  it('reads it in data.client, and 404 for another tenant or an unknown id', async () => {
    const r = await call<ClientAnswer>(`/api/company/clients/${world.oakwood.public_id}`, { token: senior });
    expect(r.status).toBe(200);
    expect(r.body.data.client.name).toBe('Oakwood International School');
    const other = await call<ErrorEnvelope>(`/api/company/clients/${world.oakwood.public_id}`, {
      token: stranger,
    });
    expect(other.status).toBe(404);
    expect((await call(`/api/company/clients/doesnotexist`, { token: senior })).status).toBe(404);
  });

  it('updates some fields with PATCH clients/{id}/update; bad input is 422', async () => {
    const c = await created('Patch Me');
    const r = await call<ClientAnswer>(`/api/company/clients/${c.id}/update`, {
      method: 'PATCH',
      token: senior,
      json: { description: 'Patched', payment_terms: 'weekly' },
    });
    expect(r.status).toBe(200);
    expect(r.body.message).toBe('Client saved successfully');
    expect(r.body.data.client).toMatchObject({
      name: 'Patch Me',
      description: 'Patched',
      payment_terms: 'weekly',
    });
    const bad = await call<ErrorEnvelope>(`/api/company/clients/${c.id}/update`, {
      method: 'PATCH',
      token: senior,
      json: {
        payment_terms: 'yearly',
        contacts: { owner: [{ first_name: 'A', last_name: 'B', email: 'a@b.test' }] },
      },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toBe('Unable to save the client!');
    expect(bad.body.errors).toEqual(
      expect.arrayContaining([
        { key: 'payment_terms', message: 'Choose one of the options.' },
        { key: 'contacts.owner', message: 'Only one contact of this type is allowed.' },
      ]),
    );
    const forbidden = await call(`/api/company/clients/${c.id}/update`, {
      method: 'PATCH',
      token: finance,
      json: { name: 'x' },
    });
    expect(forbidden.status).toBe(403);
  });

  it('changes status with PATCH clients/{id}/status as the states allow', async () => {
    const c = await created('Status Api');
    const r = await call<{ data: { client: { status: string } } }>(`/api/company/clients/${c.id}/status`, {
      method: 'PATCH',
      token: senior,
      json: { status: 'archived' },
    });
    expect(r.status).toBe(200);
    expect(r.body.data.client.status).toBe('archived');
    const again = await call<ErrorEnvelope>(`/api/company/clients/${c.id}/status`, {
      method: 'PATCH',
      token: senior,
      json: { status: 'archived' },
    });
    expect(again.status).toBe(422);
    expect(again.body.errors).toEqual([{ key: 'status', message: 'The client is already archived.' }]);
    const unknown = await call<ErrorEnvelope>(`/api/company/clients/${c.id}/status`, {
      method: 'PATCH',
      token: senior,
      json: { status: 'gone' },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0].message).toBe('This status does not exist.');
  });

  it('applies bulk actions and deletes only clients without campuses', async () => {
    const a = await created('Bulk Api A');
    const r = await call<{ data: { result: { done: number; skipped: { name: string; reason: string }[] } } }>(
      '/api/company/clients/bulk-action',
      { method: 'POST', token: senior, json: { action: 'archive', ids: [a.id, world.oakwood.public_id] } },
    );
    expect(r.status).toBe(200);
    expect(r.body.data.result.done).toBe(2);
    const del = await call<ErrorEnvelope>(`/api/company/clients/${world.oakwood.public_id}`, {
      method: 'DELETE',
      token: senior,
    });
    expect(del.status).toBe(422);
    expect(del.body.message).toBe(
      'This client has campuses, service agreements, contracts or users and cannot be deleted. Archive it instead.',
    );
    const gone = await call(`/api/company/clients/${a.id}`, { method: 'DELETE', token: senior });
    expect(gone.status).toBe(200);
    expect((await call(`/api/company/clients/${a.id}`, { token: senior })).status).toBe(404);
    await call(`/api/company/clients/${world.oakwood.public_id}/status`, {
      method: 'PATCH',
      token: senior,
      json: { status: 'active' },
    });
  });

  it('fetches and updates the billing and mailing addresses', async () => {
    const c = await created('Address Api');
    const billing = await call<{ data: { billing_address: { city: string } } }>(
      `/api/company/clients/${c.id}/billing-address/fetch`,
      { token: senior },
    );
    expect(billing.body.data.billing_address.city).toBe('Bath');
    const saved = await call<{ data: { mailing_address: { city: string; email: string } } }>(
      `/api/company/clients/${c.id}/mailing-address/update`,
      {
        method: 'PATCH',
        token: senior,
        json: { address: 'PO Box 9', city: 'Wells', email: 'post@a.test', country_id: 1 },
      },
    );
    expect(saved.status).toBe(200);
    expect(saved.body.data.mailing_address).toMatchObject({ city: 'Wells', email: 'post@a.test' });
    const bad = await call<ErrorEnvelope>(`/api/company/clients/${c.id}/mailing-address/update`, {
      method: 'PATCH',
      token: senior,
      json: { address: 'PO Box 9', email: 'post@a.test', country_id: 1, postal_code: '!!' },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual(
      expect.arrayContaining([
        { key: 'city', message: 'Mailing city is required when a mailing email is given.' },
        { key: 'postal_code', message: 'Invalid postal code' },
      ]),
    );
  });

  it('lists campuses, school users, service agreements and activities', async () => {
    const id = world.oakwood.public_id;
    const campuses = await call<{ data: { campuses: { items: { name: string }[] } } }>(
      `/api/company/clients/${id}/campuses`,
      { token: senior },
    );
    expect(campuses.body.data.campuses.items.map((c) => c.name)).toEqual([
      'Oakwood North Campus',
      'Oakwood South Campus',
    ]);
    // The same list, filters and answer as the users screens' own call (users/school/list).
    const users = await call<{
      data: { users: { items: { email: string; belongs_to: string }[]; meta: { total: number } } };
    }>(`/api/company/clients/${id}/school-users?items=100`, { token: senior });
    expect(users.body.data.users.items.map((u) => u.email)).toEqual(
      expect.arrayContaining(['school.admin@demo.test', 'campus.employee@demo.test']),
    );
    expect(users.body.data.users.items.map((u) => u.email)).not.toContain('invited.user@demo.test');
    const same = await call<{ data: { users: unknown } }>(
      `/api/company/users/school/list?clients=${id}&items=100`,
      { token: senior },
    );
    expect(users.body.data.users).toEqual(same.body.data.users);
    const invited = await call<{ data: { users: { items: { email: string }[] } } }>(
      `/api/company/clients/${id}/school-users?status=invited`,
      { token: senior },
    );
    expect(invited.body.data.users.items.map((u) => u.email)).toEqual(['invited.user@demo.test']);
    const searched = await call<{ data: { users: { items: { email: string }[] } } }>(
      `/api/company/clients/${id}/school-users?search=campus.employee&items=1&page=1`,
      { token: senior },
    );
    expect(searched.body.data.users.items.map((u) => u.email)).toEqual(['campus.employee@demo.test']);
    const agreements = await call(`/api/company/clients/${id}/service-agreements`, { token: senior });
    expect(agreements.status).toBe(200);
    const activities = await call<{ data: { activities: { items: { action: string }[] } } }>(
      `/api/company/clients/${id}/activities`,
      { token: senior },
    );
    expect(activities.status).toBe(200);
    expect(activities.body.data.activities.items.map((a) => a.action)).toContain('archived');
  });

  it("adds notes (multipart, with the conversation rule) and downloads a note's file", async () => {
    const id = world.oakwood.public_id;
    const form = new FormData();
    form.set('title', 'From the message centre');
    form.set('note', 'Parent asked about cover.');
    form.set('date', '2026-04-01');
    form.set('source', 'message_centre');
    form.set('type', 'communication');
    form.set('requested_by', 'Susan School');
    form.set('requester_type', 'school');
    const missing = await callForm<ErrorEnvelope>(`/api/company/clients/${id}/notes/add`, form, senior);
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual([{ key: 'message_link', message: 'Link to message is required' }]);
    form.set('message_link', '/message-centre/abc');
    form.set('file', fileOf(pdfBytes('note'), 'note.pdf', 'application/pdf'));
    const added = await callForm<{ data: { note: { id: number } } }>(
      `/api/company/clients/${id}/notes/add`,
      form,
      senior,
    );
    expect(added.status).toBe(201);
    const noteId = added.body.data.note.id;
    const listed = await call<{ data: { notes: { items: { id: number; has_file: boolean }[] } } }>(
      `/api/company/clients/${id}/notes?type=communication`,
      { token: senior },
    );
    expect(listed.body.data.notes.items.find((n) => n.id === noteId)?.has_file).toBe(true);
    for (const method of ['GET', 'POST']) {
      const file = await call(`/api/company/clients/${id}/notes/${noteId}/download`, {
        method,
        token: senior,
      });
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe('application/pdf');
    }
    const foreign = await call(`/api/company/clients/${id}/notes/${noteId}/download`, { token: stranger });
    expect(foreign.status).toBe(404);
    const json = await call<ErrorEnvelope>(`/api/company/clients/${id}/notes/add`, {
      method: 'POST',
      token: senior,
      json: { title: '', note: 'x', date: 'yesterday', source: 'call', type: 'admin_note' },
    });
    expect(json.status).toBe(422);
    expect(json.body.errors).toEqual(
      expect.arrayContaining([
        { key: 'title', message: 'This field is required' },
        { key: 'date', message: 'Date format is invalid' },
      ]),
    );
    // The API reads a day as YYYY-MM-DD only: DD/MM/YYYY is what the forms take.
    const typed = await call<ErrorEnvelope>(`/api/company/clients/${id}/notes/add`, {
      method: 'POST',
      token: senior,
      json: { title: 'Call', note: 'x', date: '27/03/2026', source: 'call', type: 'admin_note' },
    });
    expect(typed.status).toBe(422);
    expect(typed.body.errors).toEqual([{ key: 'date', message: 'Date format is invalid' }]);
  });
});

describe('the school area: client/fetch and client/update', () => {
  it('gives a school user its own client and lets a master user change it', async () => {
    const r = await call<ClientAnswer>('/api/school/client/fetch', { token: schoolAdmin });
    expect(r.status).toBe(200);
    expect(r.body.data.client.name).toBe('Oakwood International School');
    const saved = await call<ClientAnswer>('/api/school/client/update', {
      method: 'POST',
      token: schoolAdmin,
      json: {
        name: 'Oakwood International School',
        website: 'https://oakwood.test',
        preferred_lang: 'en',
        contacts: { owner: { first_name: 'Susan', last_name: 'School', email: 'school.admin@demo.test' } },
      },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.message).toBe('Client saved successfully');
    expect(saved.body.data.client.website).toBe('https://oakwood.test');
    const bad = await call<ErrorEnvelope>('/api/school/client/update', {
      method: 'POST',
      token: schoolAdmin,
      json: { name: '', preferred_lang: 'xx' },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toBe('Unable to save the client!');
  });

  it('refuses the update to a read-only school user, and the company client calls to school users', async () => {
    const r = await call('/api/school/client/update', {
      method: 'POST',
      token: employee,
      json: { name: 'x', preferred_lang: 'en' },
    });
    expect(r.status).toBe(403);
    expect((await call(`/api/company/clients/${world.maple.public_id}`, { token: schoolAdmin })).status).toBe(
      403,
    );
    expect((await call('/api/school/client/fetch', { token: senior })).status).toBe(403);
  });
});
