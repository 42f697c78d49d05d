/**
 * The roles calls (catalogue: Roles) with good and bad input: GET roles, GET roles/{family}/list,
 * POST roles/{family}/role (create or copy), PATCH roles/{family} (rename, permissions) and our DELETE
 * roles/{family}/role/{id}. A role is named by one id everywhere, its slug: in these calls, and in the
 * users calls' `roles`; a row number is not a role's id.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { apiToken, call, type ErrorEnvelope } from '../support/api';
import { DEMO_ACCOUNTS, seedUk, SETUP_TIMEOUT_MS } from '../support/world';

vi.mock('@remix-run/cloudflare', () => import('../support/remix-stub'));

type Role = { id: string; name: string; family: string; permissions: string[]; users: number };

let senior: string;
let admin: string;
let school: string;

beforeAll(async () => {
  await seedUk();
  [senior, admin, school] = await Promise.all([
    apiToken(DEMO_ACCOUNTS.seniorAdmin),
    apiToken(DEMO_ACCOUNTS.admin),
    apiToken(DEMO_ACCOUNTS.schoolAdmin),
  ]);
}, SETUP_TIMEOUT_MS);

async function companyRoles(token = senior) {
  const answer = await call<{ data: { roles: Role[]; permissions: { name: string; group: string }[] } }>(
    '/api/company/roles/company/list',
    { token },
  );
  expect(answer.status).toBe(200);
  return answer.body.data;
}

describe('roles API', () => {
  it('POST roles/{family}/role names its company by the public id every call uses; a row number is refused', async () => {
    const me = await call<{ data: { company: { companies: { id: string; name: string }[] } } }>(
      '/api/company/auth/get',
      { token: senior },
    );
    const company = me.body.data.company.companies[0];
    const made = await call<{ data: { role: Role & { company_id: string | null; company_name: string } } }>(
      '/api/company/roles/company/role',
      { method: 'POST', json: { title: 'One company only', company_id: company.id }, token: senior },
    );
    expect(made.status).toBe(201);
    expect(made.body.data.role).toMatchObject({ company_id: company.id, company_name: company.name });
    const listed = await call<{ data: { roles: (Role & { company_id: string | null })[] } }>(
      '/api/company/roles',
      { token: senior },
    );
    for (const role of listed.body.data.roles)
      expect([null, 'string']).toContain(role.company_id && typeof role.company_id);
    for (const wrong of [1, 'nosuchcompany']) {
      const refused = await call<ErrorEnvelope>('/api/company/roles/company/role', {
        method: 'POST',
        json: { title: `Refused ${wrong}`, company_id: wrong },
        token: senior,
      });
      expect(refused.status).toBe(422);
      expect(refused.body.errors.map((e) => e.key)).toEqual(['company_id']);
    }
  });

  it('GET roles/{family}/list answers data.roles with their permissions and data.permissions', async () => {
    const { roles, permissions } = await companyRoles();
    const finance = roles.find((r) => r.id === 'finance')!;
    expect(finance.permissions).toContain('read_invoice');
    expect(permissions).toContainEqual({ name: 'read_invoice', group: 'invoice' });
    const school = await call<{ data: { roles: Role[] } }>('/api/company/roles/school/list', {
      token: senior,
    });
    expect(school.body.data.roles.every((r) => r.family === 'school')).toBe(true);
    expect((await call('/api/company/roles/nonsense/list', { token: senior })).status).toBe(404);
  });

  it('GET roles answers data.roles of every family', async () => {
    const answer = await call<{ data: { roles: Role[] } }>('/api/company/roles', { token: senior });
    expect(new Set(answer.body.data.roles.map((r) => r.family))).toEqual(
      new Set(['company', 'school', 'student']),
    );
  });

  it('POST roles/{family}/role copies a reference role (201), and PATCH roles/{family} renames and removes a permission', async () => {
    const { roles } = await companyRoles();
    const finance = roles.find((r) => r.id === 'finance')!;
    const created = await call<{ data: { role: Role }; message: string }>('/api/company/roles/company/role', {
      method: 'POST',
      token: senior,
      json: { title: 'API finance copy', reference_role_id: finance.id },
    });
    expect(created.status).toBe(201);
    expect(created.body.message).toBe('Role created.');
    expect(created.body.data.role.permissions).toEqual(finance.permissions);

    const patched = await call<{ data: { roles: Role[] } }>('/api/company/roles/company', {
      method: 'PATCH',
      token: senior,
      json: {
        roles: [
          {
            id: created.body.data.role.id,
            name: 'API finance copy, no invoices',
            permissions: finance.permissions.filter((p) => p !== 'read_invoice'),
          },
        ],
      },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data.roles[0].name).toBe('API finance copy, no invoices');
    expect(patched.body.data.roles[0].permissions).not.toContain('read_invoice');

    const deleted = await call(`/api/company/roles/company/role/${created.body.data.role.id}`, {
      method: 'DELETE',
      token: senior,
    });
    expect(deleted.status).toBe(200);
    expect((await companyRoles()).roles.some((r) => r.id === created.body.data.role.id)).toBe(false);
  });

  it('refuses bad input with field errors: no title, a permission not of the family, an unknown field', async () => {
    const missing = await call<ErrorEnvelope>('/api/company/roles/company/role', {
      method: 'POST',
      token: senior,
      json: { title: '' },
    });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toContainEqual({ key: 'title', message: 'This field is required' });

    const wrongFamily = await call<ErrorEnvelope>('/api/company/roles/student/role', {
      method: 'POST',
      token: senior,
      json: { title: 'Student reader', permissions: ['read_company'] },
    });
    expect(wrongFamily.status).toBe(422);
    expect(wrongFamily.body.errors).toEqual([
      { key: 'permissions', message: 'These permissions are not for roles of this portal: read_company.' },
    ]);

    const empty = await call<ErrorEnvelope>('/api/company/roles/company', {
      method: 'PATCH',
      token: senior,
      json: { roles: [] },
    });
    expect(empty.status).toBe(422);
  });

  it('answers 409 to deleting a default role or a held role, and 404 to a role that does not exist', async () => {
    const { roles } = await companyRoles();
    const finance = roles.find((r) => r.id === 'finance')!;
    const builtIn = await call<ErrorEnvelope>(`/api/company/roles/company/role/${finance.id}`, {
      method: 'DELETE',
      token: senior,
    });
    expect(builtIn.status).toBe(409);
    expect(builtIn.body.message).toBe('A default role cannot be deleted.');
    const held = roles.find((r) => r.name === 'Finance (read only)')!;
    const inUse = await call<ErrorEnvelope>(`/api/company/roles/company/role/${held.id}`, {
      method: 'DELETE',
      token: senior,
    });
    expect(inUse.status).toBe(409);
    expect(inUse.body.message).toBe('This role is held by 1 user and cannot be deleted.');
    expect(
      (await call('/api/company/roles/company/role/no_such_role', { method: 'DELETE', token: senior }))
        .status,
    ).toBe(404);
  });

  it('names a role by the same id as the users calls; a row number is refused (422) or not found (404)', async () => {
    const { roles } = await companyRoles();
    expect(roles.map((r) => r.id)).toEqual(
      expect.arrayContaining(['senior_admin', 'administrator', 'finance']),
    );
    // The users calls answer a user's roles by the same ids.
    const list = await call<{ data: { users: { items: { id: string }[] } } }>(
      '/api/company/users/company/list?items=10',
      { token: senior },
    );
    const held: { id: string; name: string }[] = [];
    for (const { id } of list.body.data.users.items) {
      const user = await call<{ data: { user: { roles: { id: string; name: string }[] } } }>(
        `/api/company/users/company/${id}`,
        { token: senior },
      );
      held.push(...user.body.data.user.roles);
    }
    expect(held.length).toBeGreaterThan(0);
    for (const role of held) expect(roles.find((r) => r.id === role.id)?.name).toBe(role.name);

    const byNumber = await call<ErrorEnvelope>('/api/company/roles/company', {
      method: 'PATCH',
      token: senior,
      json: { roles: [{ id: 3, name: 'Renamed by number' }] },
    });
    expect(byNumber.status).toBe(422);
    expect(byNumber.body.errors).toEqual([
      { key: 'roles.0.id', message: 'Choose a role of this portal by its id.' },
    ]);
    const byNumberText = await call<ErrorEnvelope>('/api/company/roles/company/role', {
      method: 'POST',
      token: senior,
      json: { title: 'Copied by number', reference_role_id: '3' },
    });
    expect(byNumberText.status).toBe(422);
    expect(byNumberText.body.errors).toEqual([
      { key: 'reference_role_id', message: 'Choose a role of this portal by its id.' },
    ]);
    expect(
      (await call('/api/company/roles/company/role/3', { method: 'DELETE', token: senior })).status,
    ).toBe(404);
    expect((await companyRoles()).roles.map((r) => r.name)).not.toContain('Renamed by number');
  });

  it('refuses an administrator creating or editing roles (403), and a school user every roles call (403)', async () => {
    expect((await companyRoles(admin)).roles.length).toBeGreaterThan(0);
    const create = await call('/api/company/roles/company/role', {
      method: 'POST',
      token: admin,
      json: { title: 'Sneaky' },
    });
    expect(create.status).toBe(403);
    expect((await call('/api/company/roles/company/list', { token: school })).status).toBe(403);
    expect((await call('/api/company/roles', { token: school })).status).toBe(403);
    expect((await call('/api/company/roles', {})).status).toBe(401);
  });
});
