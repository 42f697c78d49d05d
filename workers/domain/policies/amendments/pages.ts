/**
 * What the amendment pages show besides the amendment itself: how many insureds a posted selection names,
 * the group leaders a selection may be given, and the supplementary invoices left to pay.
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import { clients, invoices, policies } from '../../../../drizzle/schema';
import { inJson } from '../../../platform/db';
import { requirePermission } from '../../access/actor';
import { visibleInvoices, visiblePolicies } from '../../access/scope';
import type { ActorCtx } from '../../context';
import type { BulkSelection } from '../../list-query';
import { selectedPolicyIds } from '../filters';
import type { PolicyListQuery } from '../list-query';
import { AMEND_PERMISSION } from './schema';

/** How many insureds in scope a selection names. */
export async function selectionSize(ctx: ActorCtx, selection: BulkSelection, query: PolicyListQuery) {
  requirePermission(ctx.actor, AMEND_PERMISSION);
  return (await selectedPolicyIds(ctx, selection, query)).length;
}

/**
 * The group leaders the selected insureds may be given: the not cancelled group leaders of their client
 * (none when the selection spans several clients: `sameClient` is then false).
 */
export async function groupLeaderOptions(ctx: ActorCtx, selection: BulkSelection, query: PolicyListQuery) {
  requirePermission(ctx.actor, AMEND_PERMISSION);
  const ids = await selectedPolicyIds(ctx, selection, query);
  if (!ids.length) return { count: 0, sameClient: true, leaders: [] };
  const clientRows = await ctx.db
    .selectDistinct({ client_id: policies.client_id })
    .from(policies)
    .where(inJson(policies.id, ids))
    .limit(2);
  if (clientRows.length !== 1) return { count: ids.length, sameClient: false, leaders: [] };
  const leaders = await ctx.db
    .select({
      id: policies.public_id,
      policy_number: policies.policy_number,
      first_name: policies.first_name,
      last_name: policies.last_name,
    })
    .from(policies)
    .where(
      and(
        eq(policies.client_id, clientRows[0].client_id),
        eq(policies.type, 'group_leader'),
        eq(policies.status, 'issued'),
        visiblePolicies(ctx.actor),
      ),
    )
    .orderBy(policies.last_name, policies.first_name)
    .limit(500);
  return { count: ids.length, sameClient: true, leaders };
}

/** The supplementary invoices of amendments not yet paid, that the actor may see, newest first. */
export async function unpaidSupplementaryInvoices(ctx: ActorCtx) {
  return ctx.db
    .select({
      id: invoices.public_id,
      number: invoices.number,
      date: invoices.date,
      due_at: invoices.due_at,
      currency: invoices.currency,
      total_minor: invoices.total_minor,
      paid_minor: invoices.paid_minor,
      status: invoices.status,
      payment_method: invoices.payment_method,
      client: clients.name,
      client_id: clients.public_id,
    })
    .from(invoices)
    .innerJoin(clients, eq(clients.id, invoices.client_id))
    .where(
      and(
        eq(invoices.type, 'supplementary'),
        sql`${invoices.status} IN ('unpaid', 'pending')`,
        visibleInvoices(ctx.actor),
      ),
    )
    .orderBy(desc(invoices.id))
    .limit(100);
}
