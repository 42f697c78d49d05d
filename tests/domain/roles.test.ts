/**
 * Roles and the privileges matrix (spec 000 s.6, 002 s.7 "Roles"): list per family, create or copy from
 * a reference role, rename, change permissions, delete an unheld role; a change is read by the holder's
 * next request; every change is in the activity log with before and after; nobody grants beyond what they
 * hold.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import { activityLogs, companies, permissions, rolePermissions, roles } from '../../drizzle/schema';
import { buildUser } from '../../drizzle/seed/builders';
import { FINANCE_READ_ONLY } from '../../drizzle/seed/roles';
import { loadActor } from '../../workers/domain/access/actor';
import { DEFAULT_ROLES } from '../../workers/domain/access/default-roles';
import { familyPermissions } from '../../workers/domain/roles/families';
import { createRoleSchema, updateRolesSchema } from '../../workers/domain/roles/schema';
import {
  createRole,
  deleteRole,
  familyRoles,
  listRoles,
  updateRoles,
} from '../../workers/domain/roles/service';
import { Conflict, Forbidden, NotFound, ValidationFailed } from '../../workers/domain/errors';
import type { ActorCtx } from '../../workers/domain/context';
import { DEMO_ACCOUNTS, actorCtx, db, seedUk, SETUP_TIMEOUT_MS } from '../support/world';

let senior: ActorCtx;
let admin: ActorCtx;
let financeId: string;
let albionId: number;
let albionPublicId: string;

async function refusal(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (e) {
    return e;
  }
  throw new Error('expected a refusal');
}

/** A role's row number, which its audit entries name (the API names a role by its slug). */
const rowIdOf = async (slug: string) =>
  (await db().select({ id: roles.id }).from(roles).where(eq(roles.slug, slug)))[0].id;

const create = (title: string, more: Partial<Record<string, unknown>> = {}) =>
  createRoleSchema.parse({ title, ...more });

beforeAll(async () => {
  await seedUk();
  senior = await actorCtx(DEMO_ACCOUNTS.seniorAdmin);
  admin = await actorCtx(DEMO_ACCOUNTS.admin);
  const [finance] = await db().select().from(roles).where(eq(roles.slug, 'finance'));
  financeId = finance.slug;
  const [albion] = await db()
    .select()
    .from(companies)
    .where(eq(companies.name, 'Albion Student Insurance Ltd'));
  albionId = albion.id;
  albionPublicId = albion.public_id;
}, SETUP_TIMEOUT_MS);

/** A user of this test holding exactly the given permissions through a role of their own. */
let testers = 0;
async function actorHolding(names: string[]): Promise<ActorCtx> {
  testers += 1;
  const d = db();
  const [role] = await d
    .insert(roles)
    .values({ name: `Tester ${testers}`, slug: `tester_${testers}`, family: 'company' })
    .returning();
  const rows = await d.select().from(permissions).where(inArray(permissions.name, names));
  await d.insert(rolePermissions).values(rows.map((p) => ({ role_id: role.id, permission_id: p.id })));
  const user = await buildUser(d, {
    email: `roles-tester-${testers}@example.test`,
    first_name: 'Role',
    last_name: 'Tester',
    roles: [role.slug],
    companyIds: [albionId],
  });
  return { ...senior, actor: (await loadActor(d, user.id))! };
}

describe('the roles of each family', () => {
  it('lists every default role of the family with its permissions, and the permissions the family can hold', async () => {
    const company = await familyRoles(senior, 'company');
    for (const def of DEFAULT_ROLES.filter((r) => r.family === 'company')) {
      const role = company.roles.find((r) => r.id === def.slug)!;
      expect(role.built_in).toBe(true);
      expect(role.permissions).toEqual([...def.permissions].sort());
    }
    expect(company.permissions.map((p) => p.name)).toEqual(familyPermissions('company'));
    expect(company.permissions.map((p) => p.name)).not.toContain('read_school_profile');

    const school = await familyRoles(senior, 'school');
    expect(school.roles.map((r) => r.id)).toEqual(
      expect.arrayContaining(['school_master_user', 'school_admin', 'school_employee']),
    );
    expect(school.permissions.map((p) => p.name)).not.toContain('read_company');
    expect((await listRoles(senior)).map((r) => r.family)).toEqual(
      expect.arrayContaining(['company', 'school', 'student']),
    );
  });

  it('has the demo "Finance (read only)": a copy of Finance without its changes, held by a demo account', async () => {
    const { roles: company } = await familyRoles(senior, 'company');
    const copy = company.find((r) => r.name === FINANCE_READ_ONLY)!;
    expect(copy.built_in).toBe(false);
    expect(copy.users).toBe(1);
    expect(copy.permissions).toContain('read_invoice');
    expect(copy.permissions.some((p) => /^(create|update|delete)_/.test(p))).toBe(false);
  });

  it('refuses the privileges calls to a user without read_user_privilege and creating to one without create_user_privilege', async () => {
    const finance = await actorCtx(DEMO_ACCOUNTS.finance);
    await expect(familyRoles(finance, 'company')).rejects.toBeInstanceOf(Forbidden);
    await expect(createRole(admin, 'company', create('Not allowed'))).rejects.toBeInstanceOf(Forbidden);
    await expect(
      updateRoles(admin, 'company', updateRolesSchema.parse({ roles: [{ id: financeId, name: 'Renamed' }] })),
    ).rejects.toBeInstanceOf(Forbidden);
  });
});

describe('create, copy, rename, change, delete', () => {
  it('copies a role from a reference role, with its permissions, for one company, and logs it', async () => {
    const role = await createRole(
      senior,
      'company',
      create('Finance copy', { reference_role_id: financeId, company_id: albionPublicId }),
    );
    const finance = DEFAULT_ROLES.find((r) => r.slug === 'finance')!;
    expect(role.permissions).toEqual([...finance.permissions].sort());
    expect(role.company_name).toBe('Albion Student Insurance Ltd');
    expect(role.company_id).toBe(albionPublicId);
    const [log] = await db()
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.entity_type, 'role'), eq(activityLogs.entity_id, await rowIdOf(role.id))));
    expect(log.action).toBe('copied');
    expect(log.after).toMatchObject({
      name: 'Finance copy',
      copied_from: 'Finance',
      company: 'Albion Student Insurance Ltd',
    });
    expect(log.company_id).toBe(albionId);
    expect(log.actor_user_id).toBe(senior.actor.user_id);
  });

  it('creates an empty role or one with the permissions given, and refuses a title taken in the family', async () => {
    const empty = await createRole(senior, 'student', create('Alumni'));
    expect(empty.permissions).toEqual([]);
    expect(empty.family).toBe('student');
    const given = await createRole(senior, 'company', create('Viewer', { permissions: ['read_client'] }));
    expect(given.permissions).toEqual(['read_client']);
    const taken = await refusal(createRole(senior, 'company', create('viewer')));
    expect(taken).toBeInstanceOf(ValidationFailed);
    expect((taken as ValidationFailed).errors).toEqual([
      { key: 'title', message: 'roles.errors.name_taken' },
    ]);
    // Another family may use the same title.
    await expect(createRole(senior, 'school', create('Viewer'))).resolves.toMatchObject({ family: 'school' });
  });

  it('refuses a permission that is not for the family, and a company the actor does not belong to', async () => {
    const wrong = await refusal(
      createRole(senior, 'school', create('School viewer', { permissions: ['read_company'] })),
    );
    expect((wrong as ValidationFailed).errors[0].key).toBe('permissions');
    const [stranger] = await db()
      .insert(companies)
      .values({ public_id: 'strangerco1', name: 'Stranger Co' })
      .returning();
    const elsewhere = await refusal(
      createRole(senior, 'company', create('Elsewhere', { company_id: stranger.public_id })),
    );
    expect((elsewhere as ValidationFailed).errors).toEqual([
      { key: 'company_id', message: 'roles.errors.company_not_allowed' },
    ]);
  });

  it('a change takes effect on the holder’s next request, and is logged with before and after', async () => {
    const role = await createRole(
      senior,
      'company',
      create('Billing clerk', { reference_role_id: financeId }),
    );
    const holder = await buildUser(db(), {
      email: 'billing.clerk@example.test',
      first_name: 'Bill',
      last_name: 'Clerk',
      roles: [role.id],
      companyIds: [albionId],
    });
    const before = (await loadActor(db(), holder.id))!;
    expect(before.permissions.has('read_billing')).toBe(true);

    const [updated] = await updateRoles(
      senior,
      'company',
      updateRolesSchema.parse({
        roles: [
          {
            id: role.id,
            name: 'Billing clerk (no billing)',
            permissions: role.permissions.filter((p) => p !== 'read_billing'),
          },
        ],
      }),
    );
    expect(updated.name).toBe('Billing clerk (no billing)');
    expect(updated.permissions).not.toContain('read_billing');

    // The next request loads the actor from D1 again: the permission is gone, the rest stays.
    const after = (await loadActor(db(), holder.id))!;
    expect(after.permissions.has('read_billing')).toBe(false);
    expect(after.permissions.has('read_invoice')).toBe(true);
    expect(after.roles).toEqual([{ slug: role.id, name: 'Billing clerk (no billing)' }]);

    const [log] = await db()
      .select()
      .from(activityLogs)
      .where(
        and(
          eq(activityLogs.entity_type, 'role'),
          eq(activityLogs.entity_id, await rowIdOf(role.id)),
          eq(activityLogs.action, 'updated'),
        ),
      );
    expect(log.before).toMatchObject({ name: 'Billing clerk' });
    expect(log.after).toMatchObject({ name: 'Billing clerk (no billing)', removed: ['read_billing'] });
    expect(log.after).not.toHaveProperty('added');
    expect((log.before as { permissions: string[] }).permissions).toContain('read_billing');
    expect((log.after as { permissions: string[] }).permissions).not.toContain('read_billing');
  });

  it('deletes a role no user holds; refuses a held role and a default role', async () => {
    const unheld = await createRole(senior, 'company', create('Short lived'));
    const unheldRow = await rowIdOf(unheld.id);
    await deleteRole(senior, 'company', unheld.id);
    expect(await db().select().from(roles).where(eq(roles.id, unheldRow))).toEqual([]);
    const [log] = await db()
      .select()
      .from(activityLogs)
      .where(
        and(
          eq(activityLogs.entity_type, 'role'),
          eq(activityLogs.entity_id, unheldRow),
          eq(activityLogs.action, 'deleted'),
        ),
      );
    expect(log.before).toMatchObject({ name: 'Short lived' });

    const { roles: company } = await familyRoles(senior, 'company');
    const held = company.find((r) => r.name === FINANCE_READ_ONLY)!;
    const refusedHeld = await refusal(deleteRole(senior, 'company', held.id));
    expect(refusedHeld).toBeInstanceOf(Conflict);
    expect((refusedHeld as Conflict).message).toBe('roles.errors.in_use|{"count":1}');
    await expect(deleteRole(senior, 'company', financeId)).rejects.toBeInstanceOf(Conflict);
    // A role of another family is not found under this one.
    await expect(deleteRole(senior, 'school', held.id)).rejects.toBeInstanceOf(NotFound);
  });
});

describe('no escalation: nobody grants a permission they do not hold', () => {
  const PRIVILEGES = ['read_user_privilege', 'create_user_privilege', 'update_user_privilege'];

  it('refuses to create a role with, or copy a role holding, a permission beyond the actor', async () => {
    const manager = await actorHolding([...PRIVILEGES, 'read_client', 'update_client']);
    await expect(
      createRole(manager, 'company', create('Within', { permissions: ['read_client', 'update_client'] })),
    ).resolves.toMatchObject({ permissions: ['read_client', 'update_client'] });
    const beyond = await refusal(
      createRole(manager, 'company', create('Beyond', { permissions: ['read_client', 'delete_client'] })),
    );
    expect((beyond as ValidationFailed).errors).toEqual([
      { key: 'permissions', message: 'roles.errors.beyond_your_permissions|{"names":"delete_client"}' },
    ]);
    const copy = await refusal(
      createRole(manager, 'company', create('Copy of finance', { reference_role_id: financeId })),
    );
    expect((copy as ValidationFailed).errors[0].key).toBe('reference_role_id');
    expect(
      await db()
        .select()
        .from(roles)
        .where(inArray(roles.name, ['Beyond', 'Copy of finance'])),
    ).toEqual([]);
  });

  it('refuses to add a permission beyond the actor to an existing role, but lets them remove one or keep it', async () => {
    const manager = await actorHolding([...PRIVILEGES, 'read_client']);
    const role = await createRole(
      senior,
      'company',
      create('Wide', { permissions: ['read_client', 'delete_client'] }),
    );
    // Adding one they lack: refused, nothing changes.
    await expect(
      updateRoles(
        manager,
        'company',
        updateRolesSchema.parse({
          roles: [{ id: role.id, permissions: ['read_client', 'delete_client', 'read_company'] }],
        }),
      ),
    ).rejects.toBeInstanceOf(ValidationFailed);
    // Keeping delete_client (which they lack) while renaming: allowed, it is not granted by them.
    await updateRoles(
      manager,
      'company',
      updateRolesSchema.parse({ roles: [{ id: role.id, name: 'Wide role' }] }),
    );
    // Removing it: allowed.
    const [narrowed] = await updateRoles(
      manager,
      'company',
      updateRolesSchema.parse({ roles: [{ id: role.id, permissions: ['read_client'] }] }),
    );
    expect(narrowed.permissions).toEqual(['read_client']);
    expect(narrowed.name).toBe('Wide role');
    // And not back again.
    await expect(
      updateRoles(
        manager,
        'company',
        updateRolesSchema.parse({ roles: [{ id: role.id, permissions: ['read_client', 'delete_client'] }] }),
      ),
    ).rejects.toBeInstanceOf(ValidationFailed);
    const [held] = await familyRoles(senior, 'company').then((f) => f.roles.filter((r) => r.id === role.id));
    expect(held.permissions).toEqual(['read_client']);
  });

  it('cannot lift their own role: a manager adding a permission to the role they hold is refused', async () => {
    const manager = await actorHolding([...PRIVILEGES, 'read_client']);
    const own = manager.actor.roles[0];
    await expect(
      updateRoles(
        manager,
        'company',
        updateRolesSchema.parse({
          roles: [{ id: own.slug, permissions: [...PRIVILEGES, 'read_client', 'read_mi_admin_report'] }],
        }),
      ),
    ).rejects.toBeInstanceOf(ValidationFailed);
    const reloaded = (await loadActor(db(), manager.actor.user_id))!;
    expect(reloaded.permissions.has('read_mi_admin_report')).toBe(false);
  });
});
