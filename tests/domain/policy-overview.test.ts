/**
 * The insureds list's overview cache (workers/domain/policies/overview.ts, migration 0008's triggers): the
 * counts by status and the group names are kept per tenant scope, and are counted again when a policy of
 * the scope changes, is added or removed, or when the day changes; never served to another scope.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { policies, policyOverviewCache, policyRevisions } from '../../drizzle/schema';
import { policyOverview } from '../../workers/domain/policies/overview';
import { actorCtx, DEMO_ACCOUNTS, SETUP_TIMEOUT_MS } from '../support/world';
import { db, seedPoliciesWorld, type PoliciesWorld } from '../support/policies';

let w: PoliciesWorld;
beforeAll(async () => {
  w = await seedPoliciesWorld();
}, SETUP_TIMEOUT_MS);

const asAdmin = (now = new Date()) => actorCtx(DEMO_ACCOUNTS.admin, { now });
const cached = () => db().select().from(policyOverviewCache);

describe('the insureds overview cache', () => {
  it('keeps the counts per scope and serves them again while nothing changed', async () => {
    const first = await policyOverview(await asAdmin());
    expect(first.summary).toMatchObject({ total: 8, active: 5, cancelled: 1 });
    expect(first.group_names).toEqual(['Alpha Group']);
    const school = await policyOverview(await actorCtx(DEMO_ACCOUNTS.campusEmployee));
    expect(school.summary.active).toBe(4);
    expect((await cached()).map((r) => r.scope_key).sort()).toHaveLength(2);

    // A planted cache row proves the next read comes from it (same day, same revisions).
    const [row] = await db()
      .select()
      .from(policyOverviewCache)
      .where(sql`scope_key LIKE 'company:%'`);
    await db()
      .update(policyOverviewCache)
      .set({ group_names: ['From the cache'] })
      .where(eq(policyOverviewCache.scope_key, row.scope_key));
    expect((await policyOverview(await asAdmin())).group_names).toEqual(['From the cache']);
  });

  it('counts again after a policy changes, is added or removed (the triggers bump the revision)', async () => {
    const before = await db().select().from(policyRevisions);
    await db().update(policies).set({ group_name: 'Beta Group' }).where(eq(policies.id, w.p.zoe.id));
    const after = await db().select().from(policyRevisions);
    expect(after).not.toEqual(before);
    expect((await policyOverview(await asAdmin())).group_names).toEqual(['Alpha Group', 'Beta Group']);

    await db().update(policies).set({ status: 'cancelled' }).where(eq(policies.id, w.p.lukasz.id));
    expect((await policyOverview(await asAdmin())).summary).toMatchObject({ active: 4, cancelled: 2 });

    const [{ id, ...copy }] = await db().select().from(policies).where(eq(policies.id, w.p.sam.id));
    void id;
    const [added] = await db()
      .insert(policies)
      .values({ ...copy, public_id: 'overview-copy', policy_number: 'P-OVERVIEW-1' })
      .returning({ id: policies.id });
    expect((await policyOverview(await asAdmin())).summary.total).toBe(9);
    await db().delete(policies).where(eq(policies.id, added.id));
    expect((await policyOverview(await asAdmin())).summary.total).toBe(8);
  });

  it('a change the counts do not see (a welcome email sent) keeps the cache', async () => {
    const before = await db().select().from(policyRevisions);
    await db().update(policies).set({ welcome_email_sent_at: new Date() }).where(eq(policies.id, w.p.sam.id));
    expect(await db().select().from(policyRevisions)).toEqual(before);
  });

  it('counts again on another day (statuses follow the date)', async () => {
    const today = await policyOverview(await asAdmin());
    const later = await policyOverview(await asAdmin(new Date(Date.now() + 400 * 86_400_000)));
    expect(later.summary.total).toBe(today.summary.total);
    expect(later.summary.expired).toBeGreaterThan(today.summary.expired);
  });
});
