/**
 * The grant rule's company bound (a role that belongs to one company goes only to that company's users,
 * from an actor of it), the log of a change of roles, a school withdrawing a user it added, and lists of
 * more than 100 values in one query (D1 binds at most 100 parameters per statement).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import {
  activityLogs,
  campuses,
  clients,
  companies,
  outbox,
  permissions,
  rolePermissions,
  roles,
  users,
} from '../../drizzle/schema';
import { buildCampus } from '../../drizzle/seed/builders';
import { loadActor } from '../../workers/domain/access/actor';
import { visibleCampus } from '../../workers/domain/access/scope';
import { Forbidden, ValidationFailed } from '../../workers/domain/errors';
import { createRoleSchema } from '../../workers/domain/roles/schema';
import { createRole, familyRoles } from '../../workers/domain/roles/service';
import { companyUserSchema, schoolUserSchema } from '../../workers/domain/users/schema';
import { userFormOptions } from '../../workers/domain/users/detail';
import {
  cancelSchoolUser,
  getUser,
  inviteCompanyUser,
  invitedMessageKey,
  inviteSchoolUser,
  updateCompanyUser,
} from '../../workers/domain/users/service';
import type { ActorCtx } from '../../workers/domain/context';
import { actorCtx, db, DEMO_ACCOUNTS, seedUk, SETUP_TIMEOUT_MS } from '../support/world';

let admin: ActorCtx;
let senior: ActorCtx;
let master: ActorCtx;
let albion: { id: number; public_id: string };
let britannia: { id: number; public_id: string };
let oakwood: { id: number; public_id: string };
let north: { public_id: string };
let seq = 0;

beforeAll(async () => {
  await seedUk();
  admin = await actorCtx(DEMO_ACCOUNTS.admin);
  const seniorCtx = await actorCtx(DEMO_ACCOUNTS.seniorAdmin);
  // "All companies" in the top bar: both of the senior admin's companies in view.
  senior = { ...seniorCtx, actor: { ...seniorCtx.actor, selected_company_id: null } };
  master = await actorCtx(DEMO_ACCOUNTS.schoolAdmin);
  const companyRows = await db().select().from(companies);
  albion = companyRows.find((c) => c.name === 'Albion Student Insurance Ltd')!;
  britannia = companyRows.find((c) => c.name === 'Britannia Travel Cover Ltd')!;
  [oakwood] = await db().select().from(clients).where(eq(clients.name, 'Oakwood International School'));
  [north] = await db().select().from(campuses).where(eq(campuses.name, 'Oakwood North Campus'));
}, SETUP_TIMEOUT_MS);

const email = (who: string) => `${who}-${++seq}@grants.test`;

const companyInput = (over: Record<string, unknown> = {}) =>
  companyUserSchema.parse({
    first_name: 'Cara',
    last_name: 'Colleague',
    email: email('company'),
    member_type: 'employee',
    roles: ['finance'],
    companies: [albion.public_id],
    ...over,
  });

const schoolInput = (over: Record<string, unknown> = {}) =>
  schoolUserSchema.parse({
    first_name: 'Pat',
    last_name: 'Pupil',
    email: email('school'),
    member_type: 'employee',
    roles: ['school_employee'],
    client: oakwood.public_id,
    campuses: [north.public_id],
    ...over,
  });

/** A role of one company, made by the senior admin (who belongs to both). */
async function companyRole(family: 'company' | 'school', company: { public_id: string }, permission: string) {
  return createRole(
    senior,
    family,
    createRoleSchema.parse({
      title: `Own role ${++seq}`,
      company_id: company.public_id,
      permissions: [permission],
    }),
  );
}

describe("a company's own role", () => {
  it('is refused to an administrator of another company, and not offered on their form', async () => {
    const role = await companyRole('company', britannia, 'read_client');
    expect(role.company_id).toBe(britannia.public_id);
    await expect(inviteCompanyUser(admin, companyInput({ roles: [role.id] }))).rejects.toBeInstanceOf(
      Forbidden,
    );
    expect((await userFormOptions(admin, 'company')).roles.map((r) => r.id)).not.toContain(role.id);
    expect((await userFormOptions(senior, 'company')).roles.map((r) => r.id)).toContain(role.id);
  });

  it("is refused for a user outside the role's company, even by an actor of that company", async () => {
    const role = await companyRole('company', britannia, 'read_client');
    await expect(inviteCompanyUser(senior, companyInput({ roles: [role.id] }))).rejects.toBeInstanceOf(
      Forbidden,
    );
    const member = await inviteCompanyUser(
      senior,
      companyInput({ roles: [role.id], companies: [britannia.public_id] }),
    );
    expect((await getUser(senior, 'company', member.id)).roles.map((r) => r.id)).toEqual([role.id]);
    // Moving the user out of the role's company while keeping the role is refused too.
    await expect(
      updateCompanyUser(senior, member.id, companyInput({ roles: [role.id], companies: [albion.public_id] })),
    ).rejects.toBeInstanceOf(Forbidden);
  });

  it('is refused for a school user whose client belongs to another company', async () => {
    const role = await companyRole('school', britannia, 'read_school_profile');
    await expect(inviteSchoolUser(senior, schoolInput({ roles: [role.id] }))).rejects.toBeInstanceOf(
      Forbidden,
    );
    const ownRole = await companyRole('school', albion, 'read_school_profile');
    const { id } = await inviteSchoolUser(senior, schoolInput({ roles: [ownRole.id] }));
    expect((await getUser(senior, 'school', id)).roles.map((r) => r.id)).toEqual([ownRole.id]);
  });
});

describe("the log of a user's roles", () => {
  it('logs a change of roles with the roles before and after; an edit that keeps them logs none', async () => {
    const input = companyInput();
    const { id } = await inviteCompanyUser(admin, input);
    const user = (await db().select().from(users).where(eq(users.public_id, id)))[0];
    await updateCompanyUser(admin, id, { ...input, roles: ['finance', 'external'] });
    await updateCompanyUser(admin, id, { ...input, roles: ['finance', 'external'], last_name: 'Renamed' });
    const rows = await db()
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.entity_type, 'user'), eq(activityLogs.entity_id, user.id)))
      .orderBy(activityLogs.id);
    const [invited, rolesChanged, renamed] = rows;
    expect(invited.after).toMatchObject({ roles: ['Finance'] });
    expect(rolesChanged.action).toBe('updated');
    expect(rolesChanged.before).toEqual({ roles: ['Finance'] });
    expect(rolesChanged.after).toEqual({ roles: ['External', 'Finance'] });
    expect(renamed.before).toEqual({ last_name: 'Colleague' });
    expect(renamed.after).toEqual({ last_name: 'Renamed' });
    expect(renamed.entity_label).toBe('Cara Renamed');
  });
});

describe('a school adding and withdrawing its own staff', () => {
  it('a user added by the master user waits for approval: no email, and the answer says so', async () => {
    const input = schoolInput({ client: undefined });
    const added = await inviteSchoolUser(master, input);
    expect(added.status).toBe('pending');
    expect(invitedMessageKey(added)).toBe('users.awaiting_approval');
    expect(await db().select().from(outbox).where(eq(outbox.recipient, input.email))).toEqual([]);
    expect(invitedMessageKey(await inviteSchoolUser(admin, schoolInput()))).toBe('users.invited');
  });

  it('cancels a user waiting for approval or invited, and logs it under their name', async () => {
    const pending = await inviteSchoolUser(master, schoolInput({ client: undefined, first_name: 'Wanda' }));
    const invited = await inviteSchoolUser(admin, schoolInput({ first_name: 'Ivan' }));
    for (const { id } of [pending, invited]) {
      const [row] = await db().select().from(users).where(eq(users.public_id, id));
      await cancelSchoolUser(master, id);
      expect(await db().select().from(users).where(eq(users.public_id, id))).toEqual([]);
      const [log] = await db()
        .select()
        .from(activityLogs)
        .where(and(eq(activityLogs.entity_id, row.id), eq(activityLogs.action, 'invitation_cancelled')));
      expect(log.entity_label).toBe(`${row.first_name} Pupil`);
      expect(log.client_id).toBe(oakwood.id);
    }
  });

  it('refuses to cancel a user who has signed up', async () => {
    const [carl] = await db().select().from(users).where(eq(users.email, DEMO_ACCOUNTS.campusEmployee));
    const refused = await cancelSchoolUser(master, carl.public_id).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ValidationFailed);
    expect((refused as ValidationFailed).errors).toEqual([
      { key: 'status', message: 'users.errors.not_cancellable' },
    ]);
    expect((await db().select().from(users).where(eq(users.id, carl.id)))[0].status).toBe('active');
  });
});

describe('lists of more than 100 values in one query', () => {
  it('invites a school user given 101 campuses', async () => {
    const made = [];
    for (let i = 0; i < 101; i += 1) {
      made.push(
        await buildCampus(db(), { name: `Annexe ${String(i).padStart(3, '0')}`, clientId: oakwood.id }),
      );
    }
    const { id } = await inviteSchoolUser(admin, schoolInput({ campuses: made.map((c) => c.public_id) }));
    expect((await getUser(admin, 'school', id)).campuses).toHaveLength(101);
    // Signed up, they see exactly those campuses (the scope lists all 101 in one query).
    const [row] = await db()
      .update(users)
      .set({ status: 'active' })
      .where(eq(users.public_id, id))
      .returning();
    const actor = (await loadActor(db(), row.id))!;
    expect(actor.campus_ids).toHaveLength(101);
    const seen = await db()
      .select({ id: campuses.id })
      .from(campuses)
      .innerJoin(clients, eq(clients.id, campuses.client_id))
      .where(visibleCampus(actor));
    expect(seen.map((c) => c.id).sort()).toEqual(made.map((c) => c.id).sort());
  });

  it('reads the permissions of 101 roles of a family', async () => {
    const [permission] = await db()
      .select()
      .from(permissions)
      .where(eq(permissions.name, 'read_school_profile'));
    for (let i = 0; i < 101; i += 1) {
      const [role] = await db()
        .insert(roles)
        .values({ name: `Bulk role ${i}`, slug: `bulk_role_${i}`, family: 'school' })
        .returning();
      await db().insert(rolePermissions).values({ role_id: role.id, permission_id: permission.id });
    }
    const offered = (await userFormOptions(admin, 'school', oakwood.public_id)).roles;
    expect(offered.filter((r) => r.id.startsWith('bulk_role_'))).toHaveLength(101);
    const listed = (await familyRoles(senior, 'school')).roles.filter((r) => r.id.startsWith('bulk_role_'));
    expect(listed).toHaveLength(101);
    expect(listed.every((r) => r.permissions.includes('read_school_profile'))).toBe(true);
  });
});
