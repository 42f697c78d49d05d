/**
 * The choices the message centre's pages offer: whom a new conversation can be with (the clients and
 * campuses in the actor's scope) and the inbox's client and campus filters. Staff choose a client or one
 * of its campuses; a school user writes to their insurer about their school, or one of their campuses
 * (a campus employee limited to some campuses must name one).
 */
import { asc, eq } from 'drizzle-orm';
import { campuses, clients } from '../../../drizzle/schema';
import { can, requirePermission } from '../access/actor';
import { seesAllCampuses, visibleCampus, visibleClients } from '../access/scope';
import type { ActorCtx } from '../context';
import { sideOf } from './service';

/** Enough for a choice list; a company with more clients narrows the inbox by search. */
const LIMIT = 1000;

export interface ConversationTargets {
  side: 'company' | 'school';
  clients: { id: string; name: string }[];
  campuses: { id: string; name: string; client_id: string; client_name: string }[];
  /** A school user limited to some campuses names one; nobody else must. */
  campus_required: boolean;
}

/** The clients and campuses the actor may write to or filter the inbox by. */
export async function conversationTargets(
  ctx: ActorCtx,
  permission: 'read_message' | 'create_message' = 'read_message',
): Promise<ConversationTargets> {
  requirePermission(ctx.actor, permission);
  const side = sideOf(ctx.actor);
  const [clientRows, campusRows] = await Promise.all([
    ctx.db
      .select({ id: clients.public_id, name: clients.name })
      .from(clients)
      .where(visibleClients(ctx.actor))
      .orderBy(asc(clients.name))
      .limit(LIMIT),
    ctx.db
      .select({
        id: campuses.public_id,
        name: campuses.name,
        client_id: clients.public_id,
        client_name: clients.name,
      })
      .from(campuses)
      .innerJoin(clients, eq(clients.id, campuses.client_id))
      .where(visibleCampus(ctx.actor))
      .orderBy(asc(clients.name), asc(campuses.name))
      .limit(LIMIT),
  ]);
  return {
    side,
    clients: clientRows,
    campuses: campusRows,
    campus_required: side === 'school' && !seesAllCampuses(ctx.actor),
  };
}

/**
 * Where a conversation about a record starts (an invoice's or an insured's page): the new-conversation
 * page naming the record, and for staff also its client, whom they would otherwise have to choose; a
 * school user writes to their insurer. Null for who may not start one.
 */
export function startAboutPath(
  actor: ActorCtx['actor'],
  about: { invoice_id: string } | { policy_id: string },
  clientId: string,
): string | null {
  if (!can(actor, 'create_message')) return null;
  const query = new URLSearchParams({
    ...about,
    ...(actor.user_type === 'company' ? { client_id: clientId } : {}),
  });
  return `/message-centre/new?${query}`;
}
