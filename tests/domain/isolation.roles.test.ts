/**
 * Tenant isolation of roles (docs/decisions/roles-and-users.md "Roles"). Roles are the insurer's: shared by every company
 * (no company) or owned by one company. For every id-taking roles call, a senior admin of another company
 * and a school master user (holding every privilege permission through a role granted for this test, so
 * the scope and not a missing permission stops them) answer "not found", never the role and never
 * "forbidden"; and the role is left as it was. School-owned roles do not exist: a school user sees no role.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { clients, companies, permissions, rolePermissions, roles } from '../../drizzle/schema';
import { buildUser } from '../../drizzle/seed/builders';
import { createRoleSchema, updateRolesSchema } from '../../workers/domain/roles/schema';
import {
  createRole,
  deleteRole,
  familyRoles,
  listRoles,
  updateRoles,
} from '../../workers/domain/roles/service';
import { NotFound } from '../../workers/domain/errors';
import type { ActorCtx } from '../../workers/domain/context';
import { DEMO_ACCOUNTS, actorCtx, db, seedUk, SETUP_TIMEOUT_MS } from '../support/world';

const PRIVILEGES = ['read_user_privilege', 'create_user_privilege', 'update_user_privilege'];

const actors: Record<string, ActorCtx> = {};
let albionRole: { id: string; family: 'company' };
let britanniaRole: { id: string; family: 'company' };
let sharedRole: { id: string; family: 'company' };

beforeAll(async () => {
  await seedUk();
  const d = db();
  const [albion] = await d.select().from(companies).where(eq(companies.name, 'Albion Student Insurance Ltd'));
  const [britannia] = await d
    .select()
    .from(companies)
    .where(eq(companies.name, 'Britannia Travel Cover Ltd'));
  const [oakwood] = await d.select().from(clients).where(eq(clients.name, 'Oakwood International School'));

  await buildUser(d, {
    email: 'senior@britannia.test',
    first_name: 'Sam',
    last_name: 'Britannia',
    roles: ['senior_admin'],
    companyIds: [britannia.id],
  });
  await buildUser(d, {
    email: 'senior@albion.test',
    first_name: 'Alba',
    last_name: 'Albion',
    roles: ['senior_admin'],
    companyIds: [albion.id],
  });
  // A school role carrying the privilege permissions (no default school role does), for the school side.
  const [schoolRole] = await d
    .insert(roles)
    .values({ name: 'School privileges tester', slug: 'school_privileges_tester', family: 'school' })
    .returning();
  const perms = await d.select().from(permissions).where(inArray(permissions.name, PRIVILEGES));
  await d.insert(rolePermissions).values(perms.map((p) => ({ role_id: schoolRole.id, permission_id: p.id })));
  await buildUser(d, {
    email: 'master.privileges@oakwood.test',
    first_name: 'Mo',
    last_name: 'Master',
    roles: ['school_master_user', 'school_privileges_tester'],
    clientId: oakwood.id,
    canAccessAllCampuses: true,
    isMasterUser: true,
  });

  actors.albionSenior = await actorCtx('senior@albion.test');
  actors.britanniaSenior = await actorCtx('senior@britannia.test');
  actors.schoolMaster = await actorCtx('master.privileges@oakwood.test');

  const parse = (title: string, company_id: string | null) => createRoleSchema.parse({ title, company_id });
  albionRole = (await createRole(
    actors.albionSenior,
    'company',
    parse('Albion desk', albion.public_id),
  )) as typeof albionRole;
  britanniaRole = (await createRole(
    actors.britanniaSenior,
    'company',
    parse('Britannia desk', britannia.public_id),
  )) as typeof britanniaRole;
  sharedRole = (await createRole(
    await actorCtx(DEMO_ACCOUNTS.seniorAdmin),
    'company',
    parse('Shared desk', null),
  )) as typeof sharedRole;
}, SETUP_TIMEOUT_MS);

/** Every id-taking roles call against one role. */
function casesFor(target: () => { id: string }) {
  return [
    [
      'updateRoles (rename)',
      (c: ActorCtx) =>
        updateRoles(
          c,
          'company',
          updateRolesSchema.parse({ roles: [{ id: target().id, name: 'Taken over' }] }),
        ),
    ],
    [
      'updateRoles (permissions)',
      (c: ActorCtx) =>
        updateRoles(c, 'company', updateRolesSchema.parse({ roles: [{ id: target().id, permissions: [] }] })),
    ],
    ['deleteRole', (c: ActorCtx) => deleteRole(c, 'company', target().id)],
    [
      'createRole (copy from it)',
      (c: ActorCtx) =>
        createRole(
          c,
          'company',
          createRoleSchema.parse({ title: `Copy ${Math.random()}`, reference_role_id: target().id }),
        ),
    ],
  ] as const;
}

const matrix = [
  ...casesFor(() => albionRole).map(([name, run]) => ({
    who: 'britanniaSenior',
    owner: 'Albion',
    name,
    run,
  })),
  ...casesFor(() => britanniaRole).map(([name, run]) => ({
    who: 'albionSenior',
    owner: 'Britannia',
    name,
    run,
  })),
  ...casesFor(() => albionRole).map(([name, run]) => ({ who: 'schoolMaster', owner: 'Albion', name, run })),
  ...casesFor(() => sharedRole).map(([name, run]) => ({
    who: 'schoolMaster',
    owner: 'every company',
    name,
    run,
  })),
];

describe('roles tenant isolation', () => {
  it.each(matrix)('$who gets not found from $name on a role of $owner', async ({ who, run }) => {
    await expect(run(actors[who])).rejects.toBeInstanceOf(NotFound);
  });

  it('lists no role of another company, and none at all to a school user', async () => {
    const britanniaSees = (await familyRoles(actors.britanniaSenior, 'company')).roles.map((r) => r.id);
    expect(britanniaSees).toContain(britanniaRole.id);
    expect(britanniaSees).toContain(sharedRole.id);
    expect(britanniaSees).not.toContain(albionRole.id);
    expect((await listRoles(actors.albionSenior)).map((r) => r.id)).not.toContain(britanniaRole.id);
    expect((await familyRoles(actors.schoolMaster, 'school')).roles).toEqual([]);
    expect(await listRoles(actors.schoolMaster)).toEqual([]);
  });

  it('left every role as it was', async () => {
    const rows = await db()
      .select()
      .from(roles)
      .where(inArray(roles.slug, [albionRole.id, britanniaRole.id, sharedRole.id]));
    expect(rows.map((r) => r.name).sort()).toEqual(['Albion desk', 'Britannia desk', 'Shared desk']);
  });
});
