/**
 * The insureds list's overview: the counts by status (`insureds/summary`, the list's status chips) and the
 * group names in use (`policies/group-names`, the group filter). Both read every policy of the scope, which
 * at a company with 100,000 policies is most of the list page's time, so they are kept per tenant scope in
 * `policy_overview_cache` and made again when the day changes (statuses follow today's date) or when a
 * policy of the scope's companies is added, changed or removed (`policy_revisions`, kept by triggers).
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import { policies, policyOverviewCache, policyRevisions } from '../../../drizzle/schema';
import { requirePermission } from '../access/actor';
import { policyScopeKey, visiblePolicies } from '../access/scope';
import type { ActorCtx } from '../context';
import { todayIso } from '../validation';
import { statusCondition } from './filters';
import { POLICY_LIST_STATUSES, type PolicyListStatus } from './list-query';

const READ = 'read_policy';

export type PolicySummary = Record<PolicyListStatus, number> & { total: number };

export interface PolicyOverview {
  summary: PolicySummary;
  group_names: string[];
}

/** Counts by status of every policy the actor sees (`insureds/summary`; the list's status chips). */
export async function policySummary(ctx: ActorCtx): Promise<PolicySummary> {
  return (await policyOverview(ctx)).summary;
}

/** The group names in use (`policies/group-names`): distinct, sorted, null and empty names dropped. */
export async function groupNames(ctx: ActorCtx): Promise<string[]> {
  return (await policyOverview(ctx)).group_names;
}

/** Both, from the cache when it is current for today and the scope's revisions, else counted now. */
export async function policyOverview(ctx: ActorCtx): Promise<PolicyOverview> {
  requirePermission(ctx.actor, READ);
  const day = todayIso(ctx.now);
  const { key, revisions } = policyScopeKey(ctx.actor);
  if (!revisions) return countOverview(ctx, day);
  // The revision read before counting is the one stored: a change made while counting leaves the cache
  // stale for the next reader, never wrong.
  const revision = sql<string>`(SELECT coalesce(group_concat(r.company_id || '.' || r.revision, ','), '')
    FROM (SELECT company_id, revision FROM ${policyRevisions}
      WHERE ${revisions} ORDER BY company_id) AS r)`;
  const [current] = await ctx.db
    .select({
      revision,
      cached: policyOverviewCache.revision,
      day: policyOverviewCache.day,
      summary: policyOverviewCache.summary,
      group_names: policyOverviewCache.group_names,
    })
    .from(sql`(SELECT 1)`)
    .leftJoin(policyOverviewCache, eq(policyOverviewCache.scope_key, key));
  const now = current?.revision ?? '';
  if (current && current.cached === now && current.day === day) {
    return { summary: current.summary as PolicySummary, group_names: current.group_names as string[] };
  }
  const overview = await countOverview(ctx, day);
  const row = { day, revision: now, ...overview, computed_at: ctx.now };
  await ctx.db
    .insert(policyOverviewCache)
    .values({ scope_key: key, ...row })
    .onConflictDoUpdate({ target: policyOverviewCache.scope_key, set: row });
  return overview;
}

async function countOverview(ctx: ActorCtx, today: string): Promise<PolicyOverview> {
  const count = (status: PolicyListStatus) =>
    sql<number>`coalesce(sum(CASE WHEN ${statusCondition(status, today)} THEN 1 ELSE 0 END), 0)`;
  const [[row], groups] = await Promise.all([
    ctx.db
      .select({
        total: sql<number>`count(*)`,
        active: count('active'),
        not_started: count('not_started'),
        expired: count('expired'),
        cancelled: count('cancelled'),
      })
      .from(policies)
      .where(visiblePolicies(ctx.actor)),
    ctx.db
      .selectDistinct({ name: policies.group_name })
      .from(policies)
      .where(
        and(
          visiblePolicies(ctx.actor),
          sql`${policies.group_name} IS NOT NULL AND trim(${policies.group_name}) <> ''`,
        ),
      )
      .orderBy(asc(policies.group_name)),
  ]);
  const summary = { total: Number(row?.total ?? 0) } as PolicySummary;
  for (const s of POLICY_LIST_STATUSES) summary[s] = Number(row?.[s] ?? 0);
  return { summary, group_names: groups.map((r) => r.name!).filter(Boolean) };
}
