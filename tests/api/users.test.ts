/**
 * The users calls (catalogue: "Company users", "School users"): good and bad input for each, the
 * envelope of lists, and the school portal's own calls, which reach only the school's own users.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { campuses, clients, companies, outbox, users } from '../../drizzle/schema';
import { apiToken, call, type ErrorEnvelope } from '../support/api';
import { db, DEMO_ACCOUNTS, seedUk, SETUP_TIMEOUT_MS, userByEmail } from '../support/world';

vi.mock('@remix-run/cloudflare', () => import('../support/remix-stub'));

type UserBody = { data: { user: { id: string; status: string; invitation: { state: string } | null } } };
type ListBody = {
  data: { users: { items: { id: string; email: string; status: string }[]; meta: { total: number } } };
};

let admin: string;
let master: string;
let finance: string;
let oakwood: string;
let north: string;
let n = 0;
const email = () => `api-user-${++n}@users.test`;

beforeAll(async () => {
  await seedUk();
  admin = await apiToken(DEMO_ACCOUNTS.admin);
  master = await apiToken(DEMO_ACCOUNTS.schoolAdmin);
  finance = await apiToken(DEMO_ACCOUNTS.finance);
  [{ public_id: oakwood }] = await db()
    .select({ public_id: clients.public_id })
    .from(clients)
    .where(eq(clients.name, 'Oakwood International School'));
  [{ public_id: north }] = await db()
    .select({ public_id: campuses.public_id })
    .from(campuses)
    .where(eq(campuses.name, 'Oakwood North Campus'));
}, SETUP_TIMEOUT_MS);

const companyBody = (over: Record<string, unknown> = {}) => ({
  first_name: 'Api',
  last_name: 'Colleague',
  email: email(),
  member_type: 'employee',
  roles: ['finance'],
  companies: [],
  ...over,
});

const schoolBody = (over: Record<string, unknown> = {}) => ({
  first_name: 'Api',
  last_name: 'Teacher',
  email: email(),
  member_type: 'employee',
  roles: ['school_employee'],
  client: oakwood,
  campuses: [north],
  ...over,
});

async function companyId(token: string) {
  const me = await call<{ data: { company: { companies: { id: string }[] } } }>('/api/company/auth/get', {
    token,
  });
  return me.body.data.company.companies[0].id;
}

describe('company users', () => {
  it('POST users/company/add invites (201), GET reads it, the list is active by default', async () => {
    const body = companyBody({ companies: [await companyId(admin)] });
    const added = await call<UserBody>('/api/company/users/company/add', {
      method: 'POST',
      json: body,
      token: admin,
    });
    expect(added.status).toBe(201);
    expect(added.body.data.user).toMatchObject({ status: 'invited', invitation: { state: 'pending' } });
    const id = added.body.data.user.id;
    const read = await call<UserBody>(`/api/company/users/company/${id}`, { token: admin });
    expect(read.status).toBe(200);
    const list = await call<ListBody>('/api/company/users/company/list?items=100', { token: admin });
    expect(list.status).toBe(200);
    expect(list.body.data.users.items.every((u) => u.status === 'active')).toBe(true);
    expect(list.body.data.users.items.map((u) => u.id)).not.toContain(id);
    const invited = await call<ListBody>('/api/company/users/company/list?status=invited&items=100', {
      token: admin,
    });
    expect(invited.body.data.users.items.map((u) => u.id)).toContain(id);
    const summary = await call<{ data: { summary: { invited: number } } }>(
      '/api/company/users/company/summary',
      {
        token: admin,
      },
    );
    expect(summary.body.data.summary.invited).toBeGreaterThan(0);
    // Decline, which deletes.
    expect((await call(`/api/company/users/company/${id}`, { method: 'DELETE', token: admin })).status).toBe(
      200,
    );
    expect((await call(`/api/company/users/company/${id}`, { token: admin })).status).toBe(404);
  });

  it('422 with each field named for bad input', async () => {
    const bad = await call<ErrorEnvelope>('/api/company/users/company/add', {
      method: 'POST',
      json: { first_name: 'R2D2', email: 'not-an-email', member_type: 'boss', roles: [], companies: [] },
      token: admin,
    });
    expect(bad.status).toBe(422);
    const keys = bad.body.errors.map((e) => e.key);
    for (const key of ['first_name', 'last_name', 'email', 'member_type', 'roles', 'companies'])
      expect(keys).toContain(key);
  });

  it('403 for a role beyond the caller, and for a caller without create_user', async () => {
    const body = companyBody({ companies: [await companyId(admin)], roles: ['senior_admin'] });
    expect(
      (await call('/api/company/users/company/add', { method: 'POST', json: body, token: admin })).status,
    ).toBe(403);
    expect((await call('/api/company/users/company/list', { token: finance })).status).toBe(403);
  });

  it('PATCH status archives and activates; an unknown status is 422', async () => {
    const fiona = await userByEmail(DEMO_ACCOUNTS.external);
    const path = `/api/company/users/company/${fiona.public_id}/status`;
    expect((await call(path, { method: 'PATCH', json: { status: 'archived' }, token: admin })).status).toBe(
      200,
    );
    expect((await userByEmail(DEMO_ACCOUNTS.external)).status).toBe('archived');
    expect(
      (
        await call(`/api/company/users/company/${fiona.public_id}/activate`, {
          method: 'PATCH',
          token: admin,
        })
      ).status,
    ).toBe(200);
    expect((await userByEmail(DEMO_ACCOUNTS.external)).status).toBe('active');
    expect((await call(path, { method: 'PATCH', json: { status: 'gone' }, token: admin })).status).toBe(422);
  });
});

describe('school users', () => {
  it('invite, suspend, unsuspend, resend and revoke; a second revoke is 422', async () => {
    const added = await call<UserBody>('/api/company/users/school/add', {
      method: 'POST',
      json: schoolBody(),
      token: admin,
    });
    expect(added.status).toBe(201);
    const id = added.body.data.user.id;
    const resend = await call(`/api/company/users/school/${id}/invitation/resend`, {
      method: 'POST',
      token: admin,
    });
    expect(resend.status).toBe(200);
    expect(
      (await call(`/api/company/users/school/${id}/invitation/revoke`, { method: 'POST', token: admin }))
        .status,
    ).toBe(200);
    const again = await call<ErrorEnvelope>(`/api/company/users/school/${id}/invitation/revoke`, {
      method: 'POST',
      token: admin,
    });
    expect(again.status).toBe(422);
    expect(again.body.message).toBe('This user has no open invitation.');
    // An invited user cannot be suspended yet.
    expect(
      (await call(`/api/company/users/school/${id}/suspend`, { method: 'POST', token: admin })).status,
    ).toBe(422);
    const carl = await userByEmail(DEMO_ACCOUNTS.campusEmployee);
    expect(
      (await call(`/api/company/users/school/${carl.public_id}/suspend`, { method: 'POST', token: admin }))
        .status,
    ).toBe(200);
    expect((await userByEmail(DEMO_ACCOUNTS.campusEmployee)).suspended).toBe(true);
    expect(
      (await call(`/api/company/users/school/${carl.public_id}/unsuspend`, { method: 'POST', token: admin }))
        .status,
    ).toBe(200);
    // Suspending is for school users only.
    const fiona = await userByEmail(DEMO_ACCOUNTS.finance);
    expect(
      (await call(`/api/company/users/company/${fiona.public_id}/suspend`, { method: 'POST', token: admin }))
        .status,
    ).toBe(404);
  });

  it('422 for a school user with no campus and no all-campuses access', async () => {
    const bad = await call<ErrorEnvelope>('/api/company/users/school/add', {
      method: 'POST',
      json: schoolBody({ campuses: [] }),
      token: admin,
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toContainEqual({
      key: 'campuses',
      message: 'Choose at least one campus, or allow all campuses.',
    });
  });

  it('the declined list, and the client summary', async () => {
    const declined = await call<ListBody>('/api/company/users/school/declined/list', { token: admin });
    expect(declined.status).toBe(200);
    expect(declined.body.data.users.items.every((u) => u.status === 'declined')).toBe(true);
    const summary = await call<{ data: { summary: { active: number } } }>(
      `/api/company/clients/${oakwood}/school-users/summary`,
      { token: admin },
    );
    expect(summary.body.data.summary.active).toBeGreaterThan(0);
    expect(
      (await call('/api/company/clients/nosuchclient/school-users/summary', { token: admin })).status,
    ).toBe(404);
  });

  it("the school portal's calls: the master user adds staff (pending) and reads only their own school", async () => {
    const added = await call<{ data: { school_user: { id: string; status: string } } }>(
      '/api/school/school-users/add',
      { method: 'POST', json: schoolBody({ client: undefined }), token: master },
    );
    expect(added.status).toBe(201);
    expect(added.body.data.school_user.status).toBe('pending');
    const list = await call<{ data: { school_users: { items: { email: string }[] } } }>(
      '/api/school/school-users?items=100',
      { token: master },
    );
    expect(list.status).toBe(200);
    expect(list.body.data.school_users.items.length).toBeGreaterThan(0);
    const id = added.body.data.school_user.id;
    const update = await call(`/api/school/school-users/${id}/update`, {
      method: 'POST',
      json: schoolBody({ client: undefined, first_name: 'Renamed' }),
      token: master,
    });
    expect(update.status).toBe(200);
    // Company users are not theirs to see.
    expect((await call('/api/company/users/company/list', { token: master })).status).toBe(403);
  });
});

describe("a company's own role", () => {
  it('users/company/add refuses (403) a role of a company the user or the administrator is not in', async () => {
    // Signed in with "all companies" in view (0 is that choice, stored).
    await db()
      .update(users)
      .set({ selected_company_id: 0 })
      .where(eq(users.email, DEMO_ACCOUNTS.seniorAdmin));
    const senior = await apiToken(DEMO_ACCOUNTS.seniorAdmin);
    const [britannia] = await db()
      .select({ public_id: companies.public_id })
      .from(companies)
      .where(eq(companies.name, 'Britannia Travel Cover Ltd'));
    const made = await call<{ data: { role: { id: string; company_id: string } } }>(
      '/api/company/roles/company/role',
      {
        method: 'POST',
        json: {
          title: `Britannia clerk ${++n}`,
          company_id: britannia.public_id,
          permissions: ['read_client'],
        },
        token: senior,
      },
    );
    expect(made.status).toBe(201);
    expect(made.body.data.role.company_id).toBe(britannia.public_id);
    // The id the roles call answers is the id the users calls take.
    const role = made.body.data.role.id;
    const albion = await companyId(admin);

    // The administrator of Albion alone, giving Britannia's role to an Albion user.
    const byAdmin = await call<ErrorEnvelope>('/api/company/users/company/add', {
      method: 'POST',
      json: companyBody({ companies: [albion], roles: [role] }),
      token: admin,
    });
    expect(byAdmin.status).toBe(403);
    // The senior admin (both companies), giving it to a user of Albion only.
    const toOutsider = await call('/api/company/users/company/add', {
      method: 'POST',
      json: companyBody({ companies: [albion], roles: [role] }),
      token: senior,
    });
    expect(toOutsider.status).toBe(403);
    // ... and to a user of Britannia: allowed.
    const toMember = await call('/api/company/users/company/add', {
      method: 'POST',
      json: companyBody({ companies: [britannia.public_id], roles: [role] }),
      token: senior,
    });
    expect(toMember.status).toBe(201);
  });
});

describe("the school portal's additions and cancellations", () => {
  async function addByMaster() {
    const body = schoolBody({ client: undefined });
    const added = await call<{ data: { school_user: { id: string; status: string } }; message: string }>(
      '/api/school/school-users/add',
      { method: 'POST', json: body, token: master },
    );
    expect(added.status).toBe(201);
    return { ...added.body, email: body.email };
  }

  it('school-users/add says the user waits for approval, and no email goes out', async () => {
    const added = await addByMaster();
    expect(added.data.school_user.status).toBe('pending');
    expect(added.message).toBe('Waiting for approval; the invitation is sent once approved.');
    expect(await db().select().from(outbox).where(eq(outbox.recipient, added.email))).toEqual([]);
  });

  it('users/school/add by the insurer says the invitation was sent', async () => {
    const added = await call<{ message: string }>('/api/company/users/school/add', {
      method: 'POST',
      json: schoolBody(),
      token: admin,
    });
    expect(added.status).toBe(201);
    expect(added.body.message).toBe('Invitation sent.');
  });

  it('school-users/{id}/cancel withdraws a user waiting for approval', async () => {
    const added = await addByMaster();
    const id = added.data.school_user.id;
    const cancelled = await call<{ message: string }>(`/api/school/school-users/${id}/cancel`, {
      method: 'POST',
      token: master,
    });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.message).toBe('Invitation cancelled: the user has been removed.');
    expect((await call(`/api/school/school-users/${id}`, { token: master })).status).toBe(404);
    // Cancelled once: there is nothing left to cancel.
    expect(
      (await call(`/api/school/school-users/${id}/cancel`, { method: 'POST', token: master })).status,
    ).toBe(404);
  });

  it('school-users/{id}/cancel refuses a user who has signed up (422), an unknown or foreign id (404), no token (401)', async () => {
    const carl = await userByEmail(DEMO_ACCOUNTS.campusEmployee);
    const active = await call<ErrorEnvelope>(`/api/school/school-users/${carl.public_id}/cancel`, {
      method: 'POST',
      token: master,
    });
    expect(active.status).toBe(422);
    expect(active.body.errors).toEqual([
      { key: 'status', message: 'Only a user who has not signed up yet can be cancelled.' },
    ]);
    expect((await userByEmail(DEMO_ACCOUNTS.campusEmployee)).status).toBe('active');
    expect(
      (await call('/api/school/school-users/nosuchuser/cancel', { method: 'POST', token: master })).status,
    ).toBe(404);
    const fiona = await userByEmail(DEMO_ACCOUNTS.finance);
    expect(
      (await call(`/api/school/school-users/${fiona.public_id}/cancel`, { method: 'POST', token: master }))
        .status,
    ).toBe(404);
    const added = await addByMaster();
    expect(
      (await call(`/api/school/school-users/${added.data.school_user.id}/cancel`, { method: 'POST' })).status,
    ).toBe(401);
    // A user without the permission to add school users may not withdraw one either.
    const staff = await apiToken(DEMO_ACCOUNTS.campusEmployee);
    expect(
      (
        await call(`/api/school/school-users/${added.data.school_user.id}/cancel`, {
          method: 'POST',
          token: staff,
        })
      ).status,
    ).toBe(403);
  });
});
