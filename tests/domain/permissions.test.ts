import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { clients, permissions, rolePermissions, roles } from '../../drizzle/schema';
import { buildUser } from '../../drizzle/seed/builders';
import {
  can,
  canAny,
  hasOnlyRole,
  hasRole,
  loadActor,
  requirePermission,
  type Actor,
} from '../../workers/domain/access/actor';
import { DEFAULT_ROLES } from '../../workers/domain/access/default-roles';
// The insurer's own permissions (no school or student role may hold them): the rule the privileges page keeps.
import { COMPANY_ONLY } from '../../workers/domain/roles/families';
import {
  assertCanGrantPermissions,
  assertCanGrantRoles,
  canGrantRole,
  permissionsBeyond,
} from '../../workers/domain/access/grants';
import {
  ALL_PERMISSIONS,
  PERMISSION_GROUPS,
  isPermission,
  type Permission,
} from '../../workers/domain/access/permissions';
import { Forbidden, Unauthenticated } from '../../workers/domain/errors';
import { DEMO_ACCOUNTS, actorFor, db, seedUk, SETUP_TIMEOUT_MS } from '../support/world';

function actorWith(permissionNames: string[], roleSlugs: string[] = ['finance']): Actor {
  return {
    user_id: 1,
    public_id: 'u1',
    email: 'someone@demo.test',
    first_name: 'Some',
    last_name: 'One',
    user_type: 'company',
    roles: roleSlugs.map((slug) => ({ slug, name: slug })),
    permissions: new Set(permissionNames),
    companies: [],
    selected_company_id: null,
    client_id: null,
    campus_ids: null,
    landing_page: 'insureds',
    preferred_lang: 'en',
    session_id: null,
    holds_other_region_token: false,
    api_key_id: null,
    support_admin_id: null,
  };
}

describe('granting: nobody hands out more than they hold', () => {
  const granter = actorWith(['read_client', 'update_client', 'read_campus']);

  it('names the permissions beyond the actor, once each and sorted', () => {
    expect(
      permissionsBeyond(granter, ['update_client', 'delete_client', 'archive_client', 'delete_client']),
    ).toEqual(['archive_client', 'delete_client']);
    expect(permissionsBeyond(granter, ['read_client'])).toEqual([]);
    expect(() => assertCanGrantPermissions(granter, ['read_campus', 'read_client'])).not.toThrow();
    expect(() => assertCanGrantPermissions(granter, ['read_campus', 'create_campus'])).toThrow(Forbidden);
  });

  it('gives a role only to a user of its family, and only within the actor permissions', () => {
    const schoolRole = { family: 'school' as const, permissions: ['read_campus'] };
    expect(canGrantRole(granter, schoolRole, 'school')).toBe(true);
    expect(canGrantRole(granter, schoolRole, 'company')).toBe(false);
    expect(
      canGrantRole(granter, { family: 'school', permissions: ['read_campus', 'create_campus'] }, 'school'),
    ).toBe(false);
    expect(() => assertCanGrantRoles(granter, [schoolRole], 'school')).not.toThrow();
    expect(() => assertCanGrantRoles(granter, [schoolRole], 'student')).toThrow(Forbidden);
  });
});

describe('permission guard', () => {
  const actor = actorWith(['read_client', 'read_campus']);

  it('can: true only for a permission the actor holds', () => {
    expect(can(actor, 'read_client')).toBe(true);
    expect(can(actor, 'update_client')).toBe(false);
    expect(can(null, 'read_client')).toBe(false);
  });

  it('canAny: a pipe-separated list is allowed when any one is held', () => {
    expect(canAny(actor, 'update_client|read_campus')).toBe(true);
    expect(canAny(actor, ' update_client | read_campus ')).toBe(true);
    expect(canAny(actor, 'update_client|archive_client')).toBe(false);
    expect(canAny(actor, '')).toBe(false);
    expect(canAny(actor, '|')).toBe(false);
    expect(canAny(undefined, 'read_client')).toBe(false);
  });

  it('requirePermission: Unauthenticated without an actor, Forbidden without the permission', () => {
    expect(() => requirePermission(null, 'read_client')).toThrow(Unauthenticated);
    expect(() => requirePermission(actor, 'update_client')).toThrow(Forbidden);
    expect(() => requirePermission(actor, 'update_client|delete_client')).toThrow(Forbidden);
    expect(requirePermission(actor, 'update_client|read_client')).toBe(actor);
  });

  it('hasRole and hasOnlyRole look at role slugs', () => {
    const two = actorWith([], ['finance', 'external']);
    expect(hasRole(two, 'external')).toBe(true);
    expect(hasRole(two, 'executive')).toBe(false);
    expect(hasOnlyRole(two, 'finance')).toBe(false);
    expect(hasOnlyRole(actorWith([], ['finance']), 'finance')).toBe(true);
    expect(hasRole(null, 'finance')).toBe(false);
  });
});

/** What the spec (000 section 6) gates the menu and header on. */
const SPEC_GATES: Permission[] = [
  'read_insured',
  'read_client',
  'read_billing',
  'read_message',
  'read_product',
  'read_company',
  'read_insurer',
  'read_country',
  'read_notice',
  'read_partner_applicants',
  'read_user',
  'read_user_privilege',
  'read_monthly_policy_report',
  'read_account_summary_report',
  'read_collection_detail_report',
  'read_mi_admin_report',
];

describe('the default role matrix', () => {
  it('names only permissions that exist in permissions.ts, each once per role', () => {
    for (const role of DEFAULT_ROLES) {
      for (const p of role.permissions) expect(isPermission(p), `${role.slug}: ${p}`).toBe(true);
      expect(new Set(role.permissions).size, role.slug).toBe(role.permissions.length);
    }
    expect(new Set(ALL_PERMISSIONS).size).toBe(ALL_PERMISSIONS.length);
  });

  it('holds every role the spec names, once', () => {
    const slugs = DEFAULT_ROLES.map((r) => r.slug);
    expect(new Set(slugs).size).toBe(slugs.length);
    for (const slug of [
      'senior_admin',
      'administrator',
      'finance',
      'account_manager',
      'executive',
      'external',
      'school_master_user',
      'student_user',
    ]) {
      expect(slugs).toContain(slug);
    }
  });

  it('has every permission the menu gates on', () => {
    for (const p of SPEC_GATES) expect(isPermission(p), p).toBe(true);
  });

  it('gives the senior admin read_mi_admin_report and every menu gate', () => {
    const senior = DEFAULT_ROLES.find((r) => r.slug === 'senior_admin')!;
    expect(senior.permissions).toContain('read_mi_admin_report');
    for (const p of SPEC_GATES) expect(senior.permissions, p).toContain(p);
  });

  it('gives school and student roles no company-only permission such as read_company', () => {
    const portalRoles = DEFAULT_ROLES.filter((r) => r.family !== 'company');
    expect(portalRoles.length).toBeGreaterThan(0);
    for (const role of portalRoles) {
      for (const p of COMPANY_ONLY) expect(role.permissions, `${role.slug} holds ${p}`).not.toContain(p);
    }
  });

  it('keeps the school and student portal permissions out of company roles', () => {
    const portalOnly = [...PERMISSION_GROUPS.school_profile, ...PERMISSION_GROUPS.student_profile];
    for (const role of DEFAULT_ROLES.filter((r) => r.family === 'company')) {
      for (const p of portalOnly) expect(role.permissions, `${role.slug} holds ${p}`).not.toContain(p);
    }
  });
});

describe('the seeded roles', () => {
  beforeAll(async () => {
    await seedUk();
  }, SETUP_TIMEOUT_MS);

  it('store exactly the default permissions of every role', async () => {
    const rows = await db()
      .select({ slug: roles.slug, family: roles.family, permission: permissions.name })
      .from(roles)
      .leftJoin(rolePermissions, eq(rolePermissions.role_id, roles.id))
      .leftJoin(permissions, eq(permissions.id, rolePermissions.permission_id));
    for (const role of DEFAULT_ROLES) {
      const held = rows.filter((r) => r.slug === role.slug);
      expect(held.length, role.slug).toBeGreaterThan(0);
      expect(held[0].family).toBe(role.family);
      expect(held.map((r) => r.permission).sort(), role.slug).toEqual([...role.permissions].sort());
    }
  });

  it('load for a user of every role: the actor holds the role and exactly its permissions', async () => {
    const [school] = await db().select().from(clients).limit(1);
    for (const role of DEFAULT_ROLES) {
      const user = await buildUser(db(), {
        email: `role-${role.slug}@example.test`,
        first_name: 'Role',
        last_name: 'Holder',
        roles: [role.slug],
        clientId: role.family === 'school' ? school.id : undefined,
        companyIds: role.family === 'company' ? [school.company_id] : [],
      });
      const actor = await loadActor(db(), user.id);
      expect(actor, role.slug).not.toBeNull();
      expect(actor!.user_type).toBe(role.family);
      expect(actor!.roles.map((r) => r.slug)).toEqual([role.slug]);
      expect([...actor!.permissions].sort(), role.slug).toEqual([...role.permissions].sort());
    }
  });

  it('load the demo accounts with the permissions their screens need', async () => {
    const senior = await actorFor(DEMO_ACCOUNTS.seniorAdmin);
    expect(can(senior, 'read_mi_admin_report')).toBe(true);
    const admin = await actorFor(DEMO_ACCOUNTS.admin);
    expect(canAny(admin, 'read_client|read_campus')).toBe(true);
    const external = await actorFor(DEMO_ACCOUNTS.external);
    expect(() => requirePermission(external, 'update_client')).toThrow(Forbidden);
    const school = await actorFor(DEMO_ACCOUNTS.schoolAdmin);
    expect(can(school, 'read_company')).toBe(false);
    expect(can(school, 'read_insured')).toBe(true);
  });

  it('give a user of two roles the union of both', async () => {
    const [school] = await db().select().from(clients).limit(1);
    const user = await buildUser(db(), {
      email: 'two-roles@example.test',
      first_name: 'Two',
      last_name: 'Roles',
      roles: ['finance', 'external'],
      companyIds: [school.company_id],
    });
    const actor = (await loadActor(db(), user.id))!;
    const finance = DEFAULT_ROLES.find((r) => r.slug === 'finance')!.permissions;
    const external = DEFAULT_ROLES.find((r) => r.slug === 'external')!.permissions;
    expect([...actor.permissions].sort()).toEqual([...new Set([...finance, ...external])].sort());
  });
});
