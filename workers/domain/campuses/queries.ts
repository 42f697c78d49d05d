/**
 * Scoped look-ups of campuses and clients shared by the campus, service-agreement and contract services.
 * They check no permission (the caller has), but every one applies the actor's tenant scope, so an id of
 * another tenant answers NotFound.
 */
import { and, eq } from 'drizzle-orm';
import { campuses, clients, companies } from '../../../drizzle/schema';
import type { Actor } from '../access/actor';
import { campusScope, clientScope } from '../access/scope';
import type { ActorCtx } from '../context';
import { NotFound } from '../errors';
import { msg } from '../validation';

export type CampusRow = typeof campuses.$inferSelect;
export type ClientRow = typeof clients.$inferSelect;

/** The scope condition of a campus row joined with its client. */
export function visibleCampus(actor: Actor) {
  return campusScope(actor, {
    campusId: campuses.id,
    clientId: campuses.client_id,
    companyId: clients.company_id,
  });
}

/** A campus by public id (text) or id (number) as the actor may see it, with its client and company. */
export async function findVisibleCampus(
  ctx: ActorCtx,
  id: string | number,
): Promise<{
  campus: CampusRow;
  client: ClientRow;
  company: { id: number; public_id: string; name: string; currency: string };
}> {
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

/** A client by public id as the actor may see it (company users: of their companies; school users: their own). */
export async function findVisibleClient(ctx: ActorCtx, id: string | number): Promise<ClientRow> {
  const [row] = await ctx.db
    .select()
    .from(clients)
    .where(
      and(
        typeof id === 'number' ? eq(clients.id, id) : eq(clients.public_id, id),
        clientScope(ctx.actor, { clientId: clients.id, companyId: clients.company_id }),
      ),
    )
    .limit(1);
  if (!row) throw new NotFound(msg('campuses.errors.client_not_found'));
  return row;
}
