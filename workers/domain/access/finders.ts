/**
 * Look-ups by id that every area shares: each checks the permission its caller needs, then applies the
 * tenant scope of scope.ts, so an id of another tenant answers NotFound (existence never leaks).
 */
import { and, eq } from 'drizzle-orm';
import { campuses, clients, companies, policies, users } from '../../../drizzle/schema';
import type { ActorCtx } from '../context';
import { NotFound } from '../errors';
import { msg } from '../validation';
import { requirePermission, type Actor } from './actor';
import type { Permission } from './permissions';
import { visibleCampus, visibleClients, visibleCompanies, visiblePolicies, visibleUsers } from './scope';

export type ClientRow = typeof clients.$inferSelect;
export type CampusRow = typeof campuses.$inferSelect;
export type PolicyRow = typeof policies.$inferSelect;
export type UserRow = typeof users.$inferSelect;

/**
 * A client by public id (text) or id (number) if the actor holds `permission` (Forbidden otherwise) and
 * may see it (NotFound otherwise). `findClient(ctx, id, 'read_client')`.
 */
export async function findClient(
  ctx: ActorCtx,
  id: string | number,
  permission: Permission | string,
): Promise<ClientRow> {
  requirePermission(ctx.actor, permission);
  const [row] = await ctx.db
    .select()
    .from(clients)
    .where(
      and(typeof id === 'number' ? eq(clients.id, id) : eq(clients.public_id, id), visibleClients(ctx.actor)),
    )
    .limit(1);
  if (!row) throw new NotFound(msg('campuses.errors.client_not_found'));
  return row;
}

/** The signed-in school user's own client (the school area's profile), if they hold `permission`. */
export async function findOwnClient(ctx: ActorCtx, permission: Permission | string): Promise<ClientRow> {
  requirePermission(ctx.actor, permission);
  if (ctx.actor.user_type !== 'school' || !ctx.actor.client_id) throw new NotFound();
  return findClient(ctx, ctx.actor.client_id, permission);
}

/**
 * A campus by public id (text) or id (number) with its client and company, if the actor holds
 * `permission` and may see it.
 */
export async function findCampus(
  ctx: ActorCtx,
  id: string | number,
  permission: Permission | string,
): Promise<{
  campus: CampusRow;
  client: ClientRow;
  company: { id: number; public_id: string; name: string; currency: string };
}> {
  requirePermission(ctx.actor, permission);
  const [row] = await ctx.db
    .select({
      campus: campuses,
      client: clients,
      company: {
        id: companies.id,
        public_id: companies.public_id,
        name: companies.name,
        currency: companies.currency,
      },
    })
    .from(campuses)
    .innerJoin(clients, eq(clients.id, campuses.client_id))
    .innerJoin(companies, eq(companies.id, clients.company_id))
    .where(
      and(
        typeof id === 'number' ? eq(campuses.id, id) : eq(campuses.public_id, id),
        visibleCampus(ctx.actor),
      ),
    )
    .limit(1);
  if (!row) throw new NotFound(msg('campuses.errors.not_found'));
  return row;
}

/**
 * An issued policy by public id (text) or id (number), if the actor holds `permission` and may see it
 * (another tenant's policy answers NotFound). `findPolicy(ctx, id, 'read_policy')`.
 */
export async function findPolicy(
  ctx: ActorCtx,
  id: string | number,
  permission: Permission | string,
): Promise<PolicyRow> {
  requirePermission(ctx.actor, permission);
  const [row] = await ctx.db
    .select()
    .from(policies)
    .where(
      and(
        typeof id === 'number' ? eq(policies.id, id) : eq(policies.public_id, id),
        visiblePolicies(ctx.actor),
      ),
    )
    .limit(1);
  if (!row) throw new NotFound(msg('insureds.errors.not_found'));
  return row;
}

/**
 * The company a new record of the actor goes to: the one named by public id if it is in view, else the
 * only company in view. 'invalid' when the named one is not in view, 'required' when several are.
 */
export function companyForNewRecord(
  actor: Actor,
  given: string | undefined,
): number | 'invalid' | 'required' {
  const inView = visibleCompanies(actor);
  if (given) return inView.find((c) => c.public_id === given)?.id ?? 'invalid';
  return inView.length === 1 ? inView[0].id : 'required';
}

/**
 * A user of one family (company or school) by public id, if the actor holds `permission` and may manage
 * that user (`visibleUsers`); anyone else answers NotFound. `findUser(ctx, id, 'school', 'read_school_user')`.
 */
export async function findUser(
  ctx: ActorCtx,
  id: string,
  family: 'company' | 'school',
  permission: Permission | string,
): Promise<UserRow> {
  requirePermission(ctx.actor, permission);
  const [row] = await ctx.db
    .select()
    .from(users)
    .where(and(eq(users.public_id, id), visibleUsers(ctx.actor, family)))
    .limit(1);
  if (!row) throw new NotFound(msg('users.errors.not_found'));
  return row;
}
