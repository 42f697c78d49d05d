import { beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { clients } from '../../drizzle/schema';
import { apiToken, call, type ErrorEnvelope } from '../support/api';
import { DEMO_ACCOUNTS, SETUP_TIMEOUT_MS, db } from '../support/world';
import { chooseCompany, seedConfigWorld, STRANGER } from '../support/config';

vi.mock('@remix-run/cloudflare', () => import('../support/remix-stub'));

type Notice = { id: string; title: string; status: string; recipients: number; acknowledged: number };

let admin: string;
let stranger: string;
let executive: string;
let school: string;
let employee: string;
let oakwood: string;

beforeAll(async () => {
  const w = await seedConfigWorld();
  await chooseCompany(DEMO_ACCOUNTS.seniorAdmin, w.albion.id);
  await chooseCompany(DEMO_ACCOUNTS.executive, w.albion.id);
  [admin, stranger, executive, school, employee] = await Promise.all([
    apiToken(DEMO_ACCOUNTS.seniorAdmin),
    apiToken(STRANGER.companyUser),
    apiToken(DEMO_ACCOUNTS.executive),
    apiToken(DEMO_ACCOUNTS.schoolAdmin),
    apiToken(DEMO_ACCOUNTS.campusEmployee),
  ]);
  [{ public_id: oakwood }] = await db()
    .select()
    .from(clients)
    .where(eq(clients.name, 'Oakwood International School'));
}, SETUP_TIMEOUT_MS);

describe('notices API', () => {
  let id: string;

  it('needs a token', async () => {
    expect((await call('/api/company/notices/list')).status).toBe(401);
    expect((await call('/api/school/notices/list')).status).toBe(401);
  });

  it('POST notices/add publishes a notice to its audience (201); bad input answers 422 with the fields', async () => {
    const ok = await call<{ data: { notice: Notice }; message: string }>('/api/company/notices/add', {
      method: 'POST',
      token: admin,
      json: { title: 'Term dates', message: 'Send us your term dates.', clients: [oakwood] },
    });
    expect(ok.status).toBe(201);
    expect(ok.body.message).toBe('Notice published successfully');
    expect(ok.body.data.notice.recipients).toBeGreaterThanOrEqual(2);
    id = ok.body.data.notice.id;
    const bad = await call<ErrorEnvelope>('/api/company/notices/add', {
      method: 'POST',
      token: admin,
      json: { title: '', message: 'x', clients: ['nobody'] },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e) => e.key)).toContain('title');
  });

  it('refuses a body it cannot read', async () => {
    const r = await call('/api/company/notices/add', {
      method: 'POST',
      token: admin,
      raw: 'title=x',
      contentType: 'text/plain',
    });
    expect([400, 415]).toContain(r.status);
  });

  it('GET notices/list, notices/{id} and notices/{id}/recipients', async () => {
    const list = await call<{ data: { notices: { items: Notice[]; meta: { total: number } } } }>(
      '/api/company/notices/list?status=active',
      { token: admin },
    );
    expect(list.body.data.notices.items.map((n) => n.id)).toContain(id);
    const one = await call<{ data: { notice: Notice } }>(`/api/company/notices/${id}`, { token: admin });
    expect(one.body.data.notice.title).toBe('Term dates');
    const who = await call<{ data: { recipients: { items: { email: string }[] } } }>(
      `/api/company/notices/${id}/recipients?acknowledged=no`,
      { token: admin },
    );
    expect(who.body.data.recipients.items.map((r) => r.email)).toContain(DEMO_ACCOUNTS.schoolAdmin);
  });

  it('a school user lists their notices and acknowledges one; the other recipient stays pending', async () => {
    const mine = await call<{ data: { notices: { id: string; acknowledged_at: string | null }[] } }>(
      '/api/school/notices/list',
      { token: school },
    );
    expect(mine.body.data.notices.find((n) => n.id === id)?.acknowledged_at).toBeNull();
    const ack = await call<{ message: string }>(`/api/school/notices/${id}/acknowledge`, {
      method: 'POST',
      token: school,
    });
    expect(ack.status).toBe(200);
    const after = await call<{ data: { notice: Notice } }>(`/api/company/notices/${id}`, { token: admin });
    expect(after.body.data.notice.acknowledged).toBe(1);
    const theirs = await call<{ data: { notices: { id: string; acknowledged_at: string | null }[] } }>(
      '/api/school/notices/list',
      { token: employee },
    );
    expect(theirs.body.data.notices.find((n) => n.id === id)?.acknowledged_at).toBeNull();
  });

  it('PUT notices/{id}/update, POST notices/{id}/remind and PATCH notices/{id}/status/update', async () => {
    const up = await call<{ data: { notice: Notice } }>(`/api/company/notices/${id}/update`, {
      method: 'PUT',
      token: admin,
      json: { title: 'Term dates 2027', message: 'Send us your term dates.', clients: [oakwood] },
    });
    expect(up.status).toBe(200);
    expect(up.body.data.notice.acknowledged).toBe(1);
    const remind = await call<{ data: { reminded: number }; message: string }>(
      `/api/company/notices/${id}/remind`,
      {
        method: 'POST',
        token: admin,
      },
    );
    expect(remind.body.data.reminded).toBe(up.body.data.notice.recipients - 1);
    const archived = await call<{ data: { notice: Notice }; message: string }>(
      `/api/company/notices/${id}/status/update`,
      { method: 'PATCH', token: admin, json: { status: 'archived' } },
    );
    expect(archived.body.message).toBe('Notice archived successfully');
    expect(
      (await call(`/api/school/notices/${id}/acknowledge`, { method: 'POST', token: employee })).status,
    ).toBe(404);
  });

  it("answers 404 for another company's notice on every id-taking call, and 403 to read-only staff writing", async () => {
    const calls: [string, string, unknown?][] = [
      ['GET', `/api/company/notices/${id}`],
      ['GET', `/api/company/notices/${id}/recipients`],
      ['PUT', `/api/company/notices/${id}/update`, { title: 'x', message: 'y' }],
      ['PATCH', `/api/company/notices/${id}/status/update`, { status: 'active' }],
      ['POST', `/api/company/notices/${id}/remind`],
    ];
    for (const [method, path, json] of calls) {
      const r = await call(path, { method, token: stranger, json });
      expect(r.status, `${method} ${path}`).toBe(404);
    }
    const write = await call(`/api/company/notices/${id}/status/update`, {
      method: 'PATCH',
      token: executive,
      json: { status: 'active' },
    });
    expect(write.status).toBe(403);
  });
});
