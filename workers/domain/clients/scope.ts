/**
 * Which clients an actor sees. Other areas that read clients (campuses, agreements, contracts) may use
 * `visibleClients(actor)` on the clients table to follow the same rule.
 *
 * - Company users: clients of the companies they look at (the top bar), and an account manager (a user
 *   whose only role is account manager) only the clients they manage (clients.account_manager_id): the
 *   catalogue's separate account-manager client list.
 * - School users: their own client only.
 */
import { and, eq, type SQL } from 'drizzle-orm';
import { clients } from '../../../drizzle/schema';
import type { Actor } from '../access/actor';
import { clientScope } from '../access/scope';
import type { Ctx } from '../context';
import { NotFound } from '../errors';

export const ACCOUNT_MANAGER_ROLE = 'account_manager';

/** True when the actor's client list is their own clients only (their only role is account manager). */
export function seesOnlyOwnClients(actor: Actor): boolean {
  return (
    actor.user_type === 'company' &&
    actor.roles.length > 0 &&
    actor.roles.every((r) => r.slug === ACCOUNT_MANAGER_ROLE)
  );
}

/** The condition on the clients table for the clients the actor may see. */
export function visibleClients(actor: Actor): SQL {
  const scope = clientScope(actor, { clientId: clients.id, companyId: clients.company_id });
  return seesOnlyOwnClients(actor) ? and(scope, eq(clients.account_manager_id, actor.user_id))! : scope;
}

export type ClientRow = typeof clients.$inferSelect;

/** The client with this public id if the actor may see it; otherwise NotFound (existence never leaks). */
export async function findVisibleClient(ctx: Ctx & { actor: Actor }, publicId: string): Promise<ClientRow> {
  const [row] = await ctx.db
    .select()
    .from(clients)
    .where(and(eq(clients.public_id, publicId), visibleClients(ctx.actor)))
    .limit(1);
  if (!row) throw new NotFound();
  return row;
}
