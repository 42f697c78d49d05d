/**
 * The audit trail names each entity as it was called when the entry was written: a later rename or
 * deletion changes no old entry, and a deleted role's or user's id is never given to a new one (so an
 * old entry, an export or a link never points at someone else's row).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { companies, roles, users } from '../../drizzle/schema';
import { auditQuerySchema } from '../../workers/domain/audit/schema';
import { exportAuditTrail, searchAuditTrail } from '../../workers/domain/audit/trail';
import { createRoleSchema, updateRolesSchema } from '../../workers/domain/roles/schema';
import { createRole, deleteRole, updateRoles } from '../../workers/domain/roles/service';
import { companyUserSchema } from '../../workers/domain/users/schema';
import { deleteUser, inviteCompanyUser } from '../../workers/domain/users/service';
import type { ActorCtx } from '../../workers/domain/context';
import { actorCtx, db, DEMO_ACCOUNTS, seedUk, SETUP_TIMEOUT_MS } from '../support/world';

let senior: ActorCtx;
let albion: string;
let britannia: string;

beforeAll(async () => {
  await seedUk();
  const seniorCtx = await actorCtx(DEMO_ACCOUNTS.seniorAdmin);
  // "All companies" in the top bar: both of the senior admin's companies in view.
  senior = { ...seniorCtx, actor: { ...seniorCtx.actor, selected_company_id: null } };
  const rows = await db().select().from(companies);
  albion = rows.find((c) => c.name === 'Albion Student Insurance Ltd')!.public_id;
  britannia = rows.find((c) => c.name === 'Britannia Travel Cover Ltd')!.public_id;
}, SETUP_TIMEOUT_MS);

/** A role's row number, which its audit entries name (the API names a role by its slug). */
const rowIdOf = async (slug: string) =>
  (await db().select({ id: roles.id }).from(roles).where(eq(roles.slug, slug)))[0].id;

const trailOf = async (entity_type: string, entity_id: number) =>
  (await searchAuditTrail(senior, auditQuerySchema.parse({ entity_type, entity_id, items: 100 }))).items;

describe('names in the audit trail', () => {
  it("keeps a deleted role's name on its entries, and gives a new role a new id", async () => {
    const gone = await createRole(
      senior,
      'company',
      createRoleSchema.parse({ title: 'Albion night desk', company_id: albion }),
    );
    const goneRow = await rowIdOf(gone.id);
    await deleteRole(senior, 'company', gone.id);
    const next = await createRole(
      senior,
      'company',
      createRoleSchema.parse({ title: 'Britannia day desk', company_id: britannia }),
    );
    expect(await rowIdOf(next.id)).toBeGreaterThan(goneRow);
    expect(await db().select().from(roles).where(eq(roles.id, goneRow))).toEqual([]);

    const entries = await trailOf('role', goneRow);
    expect(entries.map((e) => e.action).sort()).toEqual(['created', 'deleted']);
    expect(entries.map((e) => e.entity_name)).toEqual(['Albion night desk', 'Albion night desk']);
    const exported = await exportAuditTrail(
      senior,
      auditQuerySchema.parse({ entity_type: 'role', entity_id: goneRow }),
    );
    expect(exported.map((e) => e.entity_name)).toEqual(['Albion night desk', 'Albion night desk']);
  });

  it('keeps the name an entry was written with when the role is renamed later', async () => {
    const role = await createRole(senior, 'school', createRoleSchema.parse({ title: 'Front office' }));
    await updateRoles(
      senior,
      'school',
      updateRolesSchema.parse({ roles: [{ id: role.id, name: 'Reception' }] }),
    );
    const entries = await trailOf('role', await rowIdOf(role.id));
    expect(entries.map((e) => [e.action, e.entity_name])).toEqual([
      ['updated', 'Reception'],
      ['created', 'Front office'],
    ]);
  });

  it("keeps a deleted user's name, and never gives their id to the next user", async () => {
    const invite = (first_name: string) =>
      inviteCompanyUser(
        senior,
        companyUserSchema.parse({
          first_name,
          last_name: 'Temporary',
          email: `${first_name.toLowerCase()}@audit-names.test`,
          member_type: 'employee',
          roles: ['finance'],
          companies: [albion],
        }),
      );
    const first = await invite('Olga');
    const [row] = await db().select().from(users).where(eq(users.public_id, first.id));
    await deleteUser(senior, 'company', first.id);
    const second = await invite('Nina');
    const [next] = await db().select().from(users).where(eq(users.public_id, second.id));
    expect(next.id).toBeGreaterThan(row.id);
    const entries = await trailOf('user', row.id);
    expect(entries.map((e) => [e.action, e.entity_name])).toEqual([
      ['deleted', 'Olga Temporary'],
      ['invited', 'Olga Temporary'],
    ]);
  });
});
