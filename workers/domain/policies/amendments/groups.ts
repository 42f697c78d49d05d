/**
 * The direct bulk changes that move no money (spec 001 s.2 bulk actions; 002 s.7 `PUT policies`,
 * `policies/group-leader/update`, `policies/{id}/update/group-leader`): edit the group name, assign a group
 * leader. Each is one D1 batch over the selection, set-based: a `group_name` / `group_leader` policy
 * transaction per changed policy (before and after, the new document version), then the policies
 * (version + 1). Policies already as asked are left alone. Cancelled insureds are refused.
 */
import { and, eq, sql } from 'drizzle-orm';
import { policies } from '../../../../drizzle/schema';
import { inJson, runBatch } from '../../../platform/db';
import { requirePermission } from '../../access/actor';
import { visiblePolicies } from '../../access/scope';
import type { ActorCtx } from '../../context';
import { NotFound, ValidationFailed } from '../../errors';
import type { BulkSelection } from '../../list-query';
import { msg, todayIso } from '../../validation';
import { selectedPolicyIds } from '../filters';
import type { PolicyListQuery } from '../list-query';
import { AMEND_PERMISSION } from './schema';

interface Selected {
  selection: BulkSelection;
  query: PolicyListQuery;
}

/** The selected policy ids in scope; refused when any of them is cancelled. */
async function editableIds(ctx: ActorCtx, input: Selected): Promise<number[]> {
  requirePermission(ctx.actor, AMEND_PERMISSION);
  const ids = await selectedPolicyIds(ctx, input.selection, input.query);
  if (!ids.length) throw new NotFound(msg('insureds.errors.not_found'));
  const [{ n }] = await ctx.db.all<{ n: number }>(
    sql`SELECT count(*) AS n FROM policies WHERE ${inJson(sql`id`, ids)} AND status = 'cancelled'`,
  );
  if (Number(n) > 0) throw ValidationFailed.field('policies', msg('amendments.errors.cancelled'));
  return ids;
}

const TRANSACTION_COLUMNS =
  sql.raw(`public_id, policy_id, company_id, client_id, kind, effective_date, before,
  after, premium_diff_minor, tax_diff_minor, tax_rate, currency, document_version, invoice_id, amendment_id,
  user_id, created_at`);

/** Sets the group name of the selected insureds. Answers how many changed. */
export async function updateGroupName(
  ctx: ActorCtx,
  input: Selected & { group_name: string },
): Promise<{ updated: number }> {
  const ids = await editableIds(ctx, input);
  const ts = ctx.now.getTime();
  const changing = sql`${inJson(sql`id`, ids)}
    AND coalesce(group_name, '') != ${input.group_name}`;
  const [{ n }] = await ctx.db.all<{ n: number }>(sql`SELECT count(*) AS n FROM policies WHERE ${changing}`);
  await runBatch(ctx.db, [
    ctx.db.run(sql`INSERT INTO policy_transactions (${TRANSACTION_COLUMNS})
      SELECT lower(hex(randomblob(8))), id, company_id, client_id, 'group_name', ${todayIso(ctx.now)},
        json_object('group_name', group_name), json_object('group_name', ${input.group_name}), 0, 0, NULL,
        currency, version + 1, NULL, NULL, ${ctx.actor.user_id}, ${ts}
      FROM policies WHERE ${changing} ORDER BY id`),
    ctx.db
      .run(sql`UPDATE policies SET group_name = ${input.group_name}, version = version + 1, updated_at = ${ts}
      WHERE ${changing}`),
  ]);
  return { updated: Number(n) };
}

/**
 * Assigns a group leader to the selected insureds (`group_leader_id` null removes it). The leader must be
 * an insured of type group leader, not cancelled, visible to the actor and of the same client as every
 * selected insured; the leader itself is left out of the selection.
 */
export async function assignGroupLeader(
  ctx: ActorCtx,
  input: Selected & { group_leader_id: string | null },
): Promise<{ updated: number }> {
  const ids = await editableIds(ctx, input);
  let leader: {
    id: number;
    client_id: number;
    public_id: string;
    first_name: string;
    last_name: string;
  } | null = null;
  if (input.group_leader_id) {
    const [row] = await ctx.db
      .select({
        id: policies.id,
        client_id: policies.client_id,
        type: policies.type,
        status: policies.status,
        public_id: policies.public_id,
        first_name: policies.first_name,
        last_name: policies.last_name,
      })
      .from(policies)
      .where(and(eq(policies.public_id, input.group_leader_id), visiblePolicies(ctx.actor)))
      .limit(1);
    if (!row) throw ValidationFailed.field('group_leader_id', msg('amendments.errors.leader_not_found'));
    if (row.type !== 'group_leader' || row.status === 'cancelled')
      throw ValidationFailed.field('group_leader_id', msg('amendments.errors.leader_type'));
    const [{ n }] = await ctx.db.all<{ n: number }>(
      sql`SELECT count(*) AS n FROM policies WHERE ${inJson(sql`id`, ids)} AND client_id != ${row.client_id}`,
    );
    if (Number(n) > 0)
      throw ValidationFailed.field('group_leader_id', msg('amendments.errors.leader_client'));
    leader = row;
  }
  const ts = ctx.now.getTime();
  const target = leader?.id ?? null;
  const changing = sql`${inJson(sql`policies.id`, ids)}
    AND policies.id IS NOT ${target} AND policies.group_leader_id IS NOT ${target}`;
  const [{ n }] = await ctx.db.all<{ n: number }>(sql`SELECT count(*) AS n FROM policies WHERE ${changing}`);
  await runBatch(ctx.db, [
    ctx.db.run(sql`INSERT INTO policy_transactions (${TRANSACTION_COLUMNS})
      SELECT lower(hex(randomblob(8))), policies.id, policies.company_id, policies.client_id, 'group_leader',
        ${todayIso(ctx.now)},
        json_object('group_leader_id', old.public_id, 'group_leader', old.first_name || ' ' || old.last_name),
        json_object('group_leader_id', ${leader?.public_id ?? null},
          'group_leader', ${leader ? `${leader.first_name} ${leader.last_name}` : null}),
        0, 0, NULL, policies.currency, policies.version + 1, NULL, NULL, ${ctx.actor.user_id}, ${ts}
      FROM policies LEFT JOIN policies old ON old.id = policies.group_leader_id
      WHERE ${changing} ORDER BY policies.id`),
    ctx.db.run(sql`UPDATE policies SET group_leader_id = ${target}, version = version + 1, updated_at = ${ts}
      WHERE ${changing}`),
  ]);
  return { updated: Number(n) };
}

/**
 * True when the ids name issued policies the actor may see: `policies/group-leader/update` serves both
 * issued policies (here) and applicants not yet checked out (the enrollments area), by what the ids name.
 */
export async function namesIssuedPolicies(ctx: ActorCtx, ids: readonly string[]): Promise<boolean> {
  const [row] = await ctx.db
    .select({ id: policies.id })
    .from(policies)
    .where(and(inJson(policies.public_id, ids), visiblePolicies(ctx.actor)))
    .limit(1);
  return !!row;
}
