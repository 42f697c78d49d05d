import { and, asc, count, desc, eq, isNull, sql } from 'drizzle-orm';
import { apiKeys, campuses, clients, companies, users } from '../../../drizzle/schema';
import { isProduction } from '../../env';
import { publicId, sha256Hex } from '../../platform/crypto';
import type { DB } from '../../platform/db';
import { loadActor, requireActor, type Actor } from '../access/actor';
import { canManagePartnerAccess, narrowToApiKey } from '../access/api-keys';
import { findCampus, companyForNewRecord } from '../access/finders';
import { assertCanGrantPermissions } from '../access/grants';
import { isPermission, ALL_PERMISSIONS } from '../access/permissions';
import { seesAllCampuses, visibleApiKeys, visibleCampus } from '../access/scope';
import { logActivity } from '../audit/activity-log';
import type { ActorCtx } from '../context';
import { Forbidden, NotFound, ValidationFailed } from '../errors';
import { paginate, type Page } from '../lists';
import { msg } from '../messages';
import type { GenerateApiKeyInput } from './schema';
import { hasValidChecksum, looksLikeApiKey, newApiKey } from './token';

/** last_used_at is written at most this often, to spare D1 a write per request. */
export const LAST_USED_EVERY_MS = 60 * 1000;

export type ApiKeyState = 'active' | 'expired' | 'revoked';

export interface ApiKeyRow {
  id: string;
  name: string;
  /** The key's recognisable start, e.g. `ep_live_Ab3d…`: never the key. */
  display: string;
  permissions: string[];
  company: string;
  client: string | null;
  campus: string | null;
  created_by: string;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
  state: ApiKeyState;
}

function requireManager(ctx: ActorCtx): Actor {
  const actor = requireActor(ctx.actor);
  if (!canManagePartnerAccess(actor)) throw new Forbidden();
  return actor;
}

function stateOf(row: { revoked_at: Date | null; expires_at: Date | null }, now: Date): ApiKeyState {
  if (row.revoked_at) return 'revoked';
  if (row.expires_at && row.expires_at.getTime() <= now.getTime()) return 'expired';
  return 'active';
}

/** The permissions a key of this actor may carry: those the actor holds, in the portal's order. */
export function grantablePermissions(actor: Actor): string[] {
  return ALL_PERMISSIONS.filter((p) => actor.permissions.has(p));
}

/**
 * Whether a new key must name a campus: a school user limited to some campuses cannot make a key for the
 * whole school (the key page's campus field is then required, and a key without one is refused).
 */
export function keyCampusRequired(actor: Actor): boolean {
  return actor.user_type === 'school' && !seesAllCampuses(actor);
}

/** The API keys the actor may see (their company's, or their school's), newest first. */
export async function listApiKeys(
  ctx: ActorCtx,
  query: { page: number; items: number },
): Promise<Page<ApiKeyRow>> {
  const actor = requireManager(ctx);
  const where = visibleApiKeys(actor);
  const live = isProduction(ctx.env);
  const page = await paginate(ctx.db, query, {
    rows: (limit, offset) =>
      ctx.db
        .select({
          key: apiKeys,
          company: sql<string>`${companies.name}`.as('company_name'),
          client: sql<string | null>`${clients.name}`.as('client_name'),
          campus: sql<string | null>`${campuses.name}`.as('campus_name'),
          first_name: users.first_name,
          last_name: users.last_name,
        })
        .from(apiKeys)
        .innerJoin(companies, eq(companies.id, apiKeys.company_id))
        .innerJoin(users, eq(users.id, apiKeys.created_by))
        .leftJoin(clients, eq(clients.id, apiKeys.client_id))
        .leftJoin(campuses, eq(campuses.id, apiKeys.campus_id))
        .where(where)
        .orderBy(desc(apiKeys.created_at), desc(apiKeys.id))
        .limit(limit)
        .offset(offset),
    count: ctx.db.select({ total: count() }).from(apiKeys).where(where),
  });
  return {
    ...page,
    items: page.items.map((r): ApiKeyRow => ({
      id: r.key.public_id,
      name: r.key.name,
      display: `${live ? 'ep_live_' : 'ep_test_'}${r.key.hint}…`,
      permissions: r.key.permissions,
      company: r.company,
      client: r.client,
      campus: r.campus,
      created_by: `${r.first_name} ${r.last_name}`.trim(),
      created_at: r.key.created_at.toISOString(),
      expires_at: r.key.expires_at?.toISOString() ?? null,
      last_used_at: r.key.last_used_at?.toISOString() ?? null,
      revoked_at: r.key.revoked_at?.toISOString() ?? null,
      state: stateOf(r.key, ctx.now),
    })),
  };
}

/**
 * Issues a key: shown once in the answer, stored as its SHA-256. It belongs to the creator's company (a
 * company user) or school (a school user, optionally one campus), and carries only permissions the
 * creator holds (access/grants.ts, the one granting rule).
 */
export async function generateApiKey(
  ctx: ActorCtx,
  input: GenerateApiKeyInput,
): Promise<{ key: string; api_key: ApiKeyRow }> {
  const actor = requireManager(ctx);
  const unknown = input.permissions.filter((p) => !isPermission(p));
  if (unknown.length)
    throw ValidationFailed.field(
      'permissions',
      msg('api_keys.errors.unknown_permission', { name: unknown[0] }),
    );
  assertCanGrantPermissions(actor, input.permissions);

  let companyId: number;
  let clientId: number | null = null;
  let campusId: number | null = null;
  if (actor.user_type === 'company') {
    const chosen = companyForNewRecord(actor, input.company_id);
    if (chosen === 'invalid' || chosen === 'required')
      throw ValidationFailed.field('company_id', msg(`api_keys.errors.company_${chosen}`));
    companyId = chosen;
    if (input.campus_id) throw ValidationFailed.field('campus_id', msg('api_keys.errors.campus_invalid'));
  } else {
    const company = actor.companies[0];
    if (!company || !actor.client_id) throw new Forbidden();
    companyId = company.id;
    clientId = actor.client_id;
    if (input.campus_id) {
      const found = await findCampus(ctx, input.campus_id, 'read_campus').catch(() => null);
      if (!found) throw ValidationFailed.field('campus_id', msg('api_keys.errors.campus_invalid'));
      campusId = found.campus.id;
    } else if (keyCampusRequired(actor)) {
      throw ValidationFailed.field('campus_id', msg('api_keys.errors.campus_required'));
    }
  }

  let expiresAt: Date | null = null;
  if (input.expires_on) {
    expiresAt = new Date(`${input.expires_on}T23:59:59.999Z`);
    if (expiresAt.getTime() <= ctx.now.getTime() || input.expires_on <= ctx.now.toISOString().slice(0, 10))
      throw ValidationFailed.field('expires_on', msg('api_keys.errors.expiry_past'));
  }

  const { key, hash, hint } = await newApiKey(isProduction(ctx.env));
  const id = publicId();
  const permissions = [...new Set(input.permissions)].sort();
  const values = {
    public_id: id,
    name: input.name,
    token_hash: hash,
    hint,
    created_by: actor.user_id,
    company_id: companyId,
    client_id: clientId,
    campus_id: campusId,
    permissions,
    expires_at: expiresAt,
    created_at: ctx.now,
    updated_at: ctx.now,
  };
  await ctx.db.batch([
    ctx.db.insert(apiKeys).values(values),
    logActivity(ctx, {
      entity_type: 'api_key',
      entity_id: sql<number>`(SELECT id FROM api_keys WHERE public_id = ${id})`,
      action: 'generated',
      after: { name: input.name, permissions, expires_at: expiresAt, campus_id: campusId },
      company_id: companyId,
      client_id: clientId,
    }),
  ]);
  const page = await listApiKeys(ctx, { page: 1, items: 100 });
  const row = page.items.find((r) => r.id === id);
  if (!row) throw new NotFound();
  return { key, api_key: row };
}

/** A key the manager reaches, by its public id; 404 for any other. */
async function findApiKey(ctx: ActorCtx, id: string) {
  const actor = requireManager(ctx);
  const [row] = await ctx.db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.public_id, id), visibleApiKeys(actor)))
    .limit(1);
  if (!row) throw new NotFound(msg('api_keys.errors.not_found'));
  return { actor, row };
}

/** The name of a key the manager reaches (what revoking it names before it acts). */
export async function apiKeyName(ctx: ActorCtx, id: string): Promise<string> {
  return (await findApiKey(ctx, id)).row.name;
}

/** Revokes a key: the next request made with it is refused. Revoking twice changes nothing more. */
export async function revokeApiKey(ctx: ActorCtx, id: string): Promise<void> {
  const { actor, row } = await findApiKey(ctx, id);
  if (row.revoked_at) return;
  await ctx.db.batch([
    ctx.db
      .update(apiKeys)
      .set({ revoked_at: ctx.now, revoked_by: actor.user_id, updated_at: ctx.now })
      .where(and(eq(apiKeys.id, row.id), isNull(apiKeys.revoked_at))),
    logActivity(ctx, {
      entity_type: 'api_key',
      entity_id: row.id,
      action: 'revoked',
      before: { revoked_at: null },
      after: { revoked_at: ctx.now },
      company_id: row.company_id,
      client_id: row.client_id,
    }),
  ]);
}

/**
 * The actor of a request made with an API key (a bearer token starting `ep_`), or null: a malformed
 * key, a wrong checksum, an unknown, revoked or expired key, or a creator who is no longer active or no
 * longer reaches the key's company or campus. Notes when the key was used, at most once a minute.
 */
export async function resolveApiKeyActor(db: DB, token: string, now: Date): Promise<Actor | null> {
  if (!looksLikeApiKey(token) || !hasValidChecksum(token)) return null;
  const [key] = await db
    .select()
    .from(apiKeys)
    .where(eq(apiKeys.token_hash, await sha256Hex(token)))
    .limit(1);
  if (!key || key.revoked_at || (key.expires_at && key.expires_at.getTime() <= now.getTime())) return null;
  const creator = await loadActor(db, key.created_by, {
    apiKeyId: key.id,
    selectedCompanyId: key.company_id,
  });
  if (!creator) return null;
  const actor = narrowToApiKey(creator, key);
  if (!actor) return null;
  if (!key.last_used_at || now.getTime() - key.last_used_at.getTime() > LAST_USED_EVERY_MS) {
    await db.update(apiKeys).set({ last_used_at: now }).where(eq(apiKeys.id, key.id));
  }
  return actor;
}

/** The campuses a school user may tie a key to (those they see). Company users' keys have none. */
export async function keyCampusOptions(ctx: ActorCtx): Promise<{ id: string; name: string }[]> {
  const actor = requireManager(ctx);
  if (actor.user_type !== 'school') return [];
  return ctx.db
    .select({ id: campuses.public_id, name: campuses.name })
    .from(campuses)
    .innerJoin(clients, eq(clients.id, campuses.client_id))
    .where(visibleCampus(actor))
    .orderBy(asc(campuses.name));
}
