/**
 * Roles and their permissions (spec 000 s.6, 002 s.6 and s.7 "Roles"): the privileges page and the roles
 * calls. Who may see a role is `visibleRoles` (access/scope.ts); nobody grants beyond what they hold
 * (access/grants.ts). A change is read by every user's next request: the actor is loaded from D1 per
 * request (access/actor.ts loadActor), so nothing is cached to clear.
 */
import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import { companies, permissions, rolePermissions, roles, userRoles } from '../../../drizzle/schema';
import { inJson, runBatch, type DB, type Statement } from '../../platform/db';
import { publicId } from '../../platform/crypto';
import { requirePermission } from '../access/actor';
import { DEFAULT_ROLES } from '../access/default-roles';
import { assertCanGrantPermissions, permissionsBeyond } from '../access/grants';
import { groupOf } from '../access/permissions';
import { mayOwnRole, visibleRoles } from '../access/scope';
import { logActivity } from '../audit/activity-log';
import type { ActorCtx } from '../context';
import { Conflict, NotFound, ValidationFailed } from '../errors';
import { msg } from '../validation';
import { familyPermissions, isFamilyPermission, type RoleFamily } from './families';
import type { CreateRoleInput, UpdateRolesInput } from './schema';

const BUILT_IN = new Set(DEFAULT_ROLES.map((r) => `${r.family}:${r.slug}`));

/**
 * A role as the API and the pages show it. Its `id` is its slug: stable (a rename keeps it), unique
 * within its family (every call names the family, or the user's family decides it), and the same id the
 * users calls take and answer in `roles`. The row number stays inside the server (audit entries).
 */
export interface RoleView {
  id: string;
  name: string;
  family: RoleFamily;
  /** The company the role belongs to, by its public id; null: every company's. */
  company_id: string | null;
  company_name: string | null;
  /** A default role of the portal: renamed and edited, never deleted (the code refers to its id). */
  built_in: boolean;
  /** How many users hold it. */
  users: number;
  permissions: string[];
}

const roleColumns = {
  row_id: roles.id,
  id: roles.slug,
  name: roles.name,
  family: roles.family,
  company_id: sql<string | null>`${companies.public_id}`.as('company_public_id'),
  company_db_id: roles.company_id,
  company_name: sql<string | null>`${companies.name}`.as('company_name'),
  users: sql<number>`(select count(*) from ${userRoles} where ${userRoles.role_id} = ${roles.id})`.as(
    'users',
  ),
};

/** The permission names each of the roles holds (any number of roles: one query). */
export async function permissionsOfRoles(db: DB, roleIds: readonly number[]) {
  return db
    .select({ role_id: rolePermissions.role_id, name: permissions.name })
    .from(rolePermissions)
    .innerJoin(permissions, eq(permissions.id, rolePermissions.permission_id))
    .where(inJson(rolePermissions.role_id, roleIds));
}

/** A role as read here: the view, its row id, and its company's row id for the log's tenant column. */
type RoleRow = RoleView & { row_id: number; company_db_id: number | null };

async function readRoles(ctx: ActorCtx, where: SQL | undefined): Promise<RoleRow[]> {
  const rows = await ctx.db
    .select(roleColumns)
    .from(roles)
    .leftJoin(companies, eq(companies.id, roles.company_id))
    .where(and(visibleRoles(ctx.actor), where))
    .orderBy(asc(roles.family), asc(roles.id));
  if (!rows.length) return [];
  const held = await permissionsOfRoles(
    ctx.db,
    rows.map((r) => r.row_id),
  );
  return rows.map((r) => ({
    ...r,
    users: Number(r.users),
    built_in: BUILT_IN.has(`${r.family}:${r.id}`),
    permissions: held
      .filter((h) => h.role_id === r.row_id)
      .map((h) => h.name)
      .sort(),
  }));
}

/** GET roles: every role the actor may see, of every family, without their permissions. */
export async function listRoles(ctx: ActorCtx) {
  requirePermission(ctx.actor, 'read_user_privilege');
  const all = await readRoles(ctx, undefined);
  return all.map(({ permissions: _held, row_id: _row, company_db_id: _company, ...role }) => role);
}

/**
 * GET roles/{family}/list: the family's roles with their permissions, and the permissions a role of the
 * family can hold (name and group, in the spec's group order).
 */
export async function familyRoles(ctx: ActorCtx, family: RoleFamily) {
  requirePermission(ctx.actor, 'read_user_privilege');
  return {
    roles: (await readRoles(ctx, eq(roles.family, family))).map(viewOf),
    permissions: familyPermissions(family).map((name) => ({ name, group: groupOf(name) })),
  };
}

const viewOf = ({ row_id: _row, company_db_id: _company, ...role }: RoleRow): RoleView => role;

/** One role of the family the actor may see, by its id (slug), or not found (another company's, another family's). */
async function findRole(ctx: ActorCtx, family: RoleFamily, id: string): Promise<RoleRow> {
  const [role] = await readRoles(ctx, and(eq(roles.slug, id), eq(roles.family, family)));
  if (!role) throw new NotFound();
  return role;
}

function checkPermissionNames(family: RoleFamily, names: readonly string[], key = 'permissions') {
  const wrong = names.filter((n) => !isFamilyPermission(family, n));
  if (wrong.length) {
    throw ValidationFailed.field(
      key,
      msg('roles.errors.permissions_not_allowed', { names: wrong.join(', ') }),
    );
  }
}

/** The refusal of a grant beyond the actor, naming what they do not hold, through the one rule. */
function checkGrant(ctx: ActorCtx, granted: readonly string[], key = 'permissions') {
  const beyond = permissionsBeyond(ctx.actor, granted);
  if (beyond.length) {
    throw ValidationFailed.field(
      key,
      msg('roles.errors.beyond_your_permissions', { names: beyond.join(', ') }),
    );
  }
  assertCanGrantPermissions(ctx.actor, granted);
}

async function checkNameFree(
  ctx: ActorCtx,
  family: RoleFamily,
  name: string,
  exceptId: number | null,
  key: string,
) {
  const [taken] = await ctx.db
    .select({ id: roles.id })
    .from(roles)
    .where(and(eq(roles.family, family), sql`lower(${roles.name}) = lower(${name})`))
    .limit(2);
  if (taken && taken.id !== exceptId) throw ValidationFailed.field(key, msg('roles.errors.name_taken'));
}

function slugOf(name: string): string {
  const base = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 40);
  return `${base || 'role'}_${publicId().toLowerCase()}`;
}

const roleIdBySlug = (family: RoleFamily, slug: string): SQL<number> =>
  sql<number>`(select ${roles.id} from ${roles} where ${roles.family} = ${family} and ${roles.slug} = ${slug})`;

/** Statements giving a role exactly `names` (by id, or by a subquery for a role written in the batch). */
function setPermissions(ctx: ActorCtx, roleId: number | SQL<number>, names: readonly string[]): Statement[] {
  const out: Statement[] = [];
  if (typeof roleId === 'number') {
    out.push(ctx.db.delete(rolePermissions).where(eq(rolePermissions.role_id, roleId)));
  }
  if (names.length) {
    out.push(
      ctx.db.run(
        sql`INSERT INTO ${rolePermissions} (role_id, permission_id) SELECT ${roleId}, ${permissions.id} FROM ${permissions} WHERE ${inJson(permissions.name, [...names])}`,
      ),
    );
  }
  return out;
}

/**
 * POST roles/{family}/role: a new role with a title, a company (or every company) and the permissions of
 * a reference role (copy) or the ones given. Refused beyond the actor's own permissions.
 */
export async function createRole(
  ctx: ActorCtx,
  family: RoleFamily,
  input: CreateRoleInput,
): Promise<RoleView> {
  requirePermission(ctx.actor, 'create_user_privilege');
  const reference = input.reference_role_id ? await findRole(ctx, family, input.reference_role_id) : null;
  const company = input.company_id ? ctx.actor.companies.find((c) => c.public_id === input.company_id) : null;
  const companyId = company?.id ?? null;
  if ((input.company_id && !company) || !mayOwnRole(ctx.actor, companyId)) {
    throw ValidationFailed.field('company_id', msg('roles.errors.company_not_allowed'));
  }
  const granted = [...new Set(input.permissions ?? reference?.permissions ?? [])].sort();
  checkPermissionNames(family, granted);
  checkGrant(ctx, granted, input.permissions ? 'permissions' : 'reference_role_id');
  await checkNameFree(ctx, family, input.title, null, 'title');

  const slug = slugOf(input.title);
  const id = roleIdBySlug(family, slug);
  await runBatch(ctx.db, [
    ctx.db.insert(roles).values({
      name: input.title,
      slug,
      family,
      company_id: companyId,
      created_at: ctx.now,
      updated_at: ctx.now,
    }),
    ...setPermissions(ctx, id, granted),
    logActivity(ctx, {
      entity_type: 'role',
      entity_id: id,
      action: reference ? 'copied' : 'created',
      before: null,
      after: {
        name: input.title,
        family,
        company: company?.name ?? null,
        ...(reference ? { copied_from: reference.name } : {}),
        permissions: granted,
      },
      company_id: companyId,
    }),
  ]);
  const [created] = await readRoles(ctx, and(eq(roles.family, family), eq(roles.slug, slug)));
  return viewOf(created);
}

/**
 * PATCH roles/{family}: renames roles and/or sets their permissions, all in one batch. Only the
 * permissions a role gains count as granted (removing one, or keeping one the actor lacks, is allowed).
 */
export async function updateRoles(
  ctx: ActorCtx,
  family: RoleFamily,
  input: UpdateRolesInput,
): Promise<RoleView[]> {
  requirePermission(ctx.actor, 'update_user_privilege');
  const statements: Statement[] = [];
  const gained = new Set<string>();
  const seen = new Set<string>();
  for (const [index, change] of input.roles.entries()) {
    if (seen.has(change.id)) continue;
    seen.add(change.id);
    const role = await findRole(ctx, family, change.id);
    const before: Record<string, unknown> = {};
    const after: Record<string, unknown> = {};
    if (change.name !== undefined && change.name !== role.name) {
      await checkNameFree(ctx, family, change.name, role.row_id, `roles.${index}.name`);
      statements.push(
        ctx.db.update(roles).set({ name: change.name, updated_at: ctx.now }).where(eq(roles.id, role.row_id)),
      );
      before.name = role.name;
      after.name = change.name;
    }
    if (change.permissions !== undefined) {
      const wanted = [...new Set(change.permissions)].sort();
      checkPermissionNames(family, wanted, `roles.${index}.permissions`);
      const added = wanted.filter((p) => !role.permissions.includes(p));
      const removed = role.permissions.filter((p) => !wanted.includes(p));
      if (added.length || removed.length) {
        for (const p of added) gained.add(p);
        statements.push(...setPermissions(ctx, role.row_id, wanted));
        if (!before.name)
          statements.push(ctx.db.update(roles).set({ updated_at: ctx.now }).where(eq(roles.id, role.row_id)));
        before.permissions = role.permissions;
        after.permissions = wanted;
        // What moved, said plainly beside the whole lists (the audit trail shows these two).
        if (added.length) after.added = added;
        if (removed.length) after.removed = removed;
      }
    }
    if (Object.keys(after).length) {
      statements.push(
        logActivity(ctx, {
          entity_type: 'role',
          entity_id: role.row_id,
          action: 'updated',
          before: { name: role.name, ...before },
          after: { name: role.name, ...after },
          company_id: role.company_db_id,
        }),
      );
    }
  }
  checkGrant(ctx, [...gained]);
  if (statements.length) await runBatch(ctx.db, statements);
  return (await readRoles(ctx, and(eq(roles.family, family), inJson(roles.slug, [...seen])))).map(viewOf);
}

/** Deletes a role of the family that no user holds; a default role of the portal stays. */
export async function deleteRole(ctx: ActorCtx, family: RoleFamily, id: string): Promise<void> {
  requirePermission(ctx.actor, 'update_user_privilege');
  const role = await findRole(ctx, family, id);
  if (role.built_in) throw new Conflict(msg('roles.errors.built_in'));
  if (role.users > 0) throw new Conflict(msg('roles.errors.in_use', { count: role.users }));
  await runBatch(ctx.db, [
    // Only while still unheld: a user given the role meanwhile keeps it and nothing is deleted.
    ctx.db
      .delete(roles)
      .where(
        and(
          eq(roles.id, role.row_id),
          sql`not exists (select 1 from ${userRoles} where ${userRoles.role_id} = ${roles.id})`,
        ),
      ),
    logActivity(ctx, {
      entity_type: 'role',
      entity_id: role.row_id,
      action: 'deleted',
      before: { name: role.name, family, company: role.company_name, permissions: role.permissions },
      after: null,
      company_id: role.company_db_id,
    }),
  ]);
}

/** The companies a new role can be given to on the privileges page (the ones in view), by public id. */
export function roleCompanies(ctx: ActorCtx) {
  return ctx.actor.companies
    .filter((c) => mayOwnRole(ctx.actor, c.id))
    .map((c) => ({ id: c.public_id, name: c.name }));
}
