/**
 * The insureds list and an insured's page, read side (workers/domain/policies/service.ts, details.ts,
 * tabs.ts): each filter of the list, the tenant scope, the status derived from dates, the summary, the
 * tabs and header actions per permission and status, family and linked policies, the same person's
 * other policies, editing personal details (its transaction, version and refusals) and bulk notes.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { activityLogs, notes, policyTransactions } from '../../drizzle/schema';
import { Conflict, Forbidden, ValidationFailed } from '../../workers/domain/errors';
import { policyListQuerySchema } from '../../workers/domain/policies/list-query';
import {
  exportPolicies,
  getPolicy,
  groupNames,
  immediateFamily,
  linkedPolicies,
  listPolicies,
  personPolicies,
  policiesByIds,
  policiesInBatch,
  policyGroups,
  policySummary,
} from '../../workers/domain/policies/service';
import { addPolicyNotes, updatePolicyDetails } from '../../workers/domain/policies/details';
import { policyDetailsSchema } from '../../workers/domain/policies/schema';
import { insuredActionsFor, insuredTabsFor } from '../../workers/domain/policies/tabs';
import { actorCtx, DEMO_ACCOUNTS, SETUP_TIMEOUT_MS, actorFor } from '../support/world';
import { day, db, policyRow, seedPoliciesWorld, type PoliciesWorld } from '../support/policies';

let w: PoliciesWorld;
beforeAll(async () => {
  w = await seedPoliciesWorld();
}, SETUP_TIMEOUT_MS);

const asAdmin = () => actorCtx(DEMO_ACCOUNTS.admin);
const q = (filters: Record<string, string> = {}) => policyListQuerySchema.parse({ items: '100', ...filters });
async function numbers(filters: Record<string, string>, who = asAdmin()) {
  const list = await listPolicies(await who, q(filters));
  return list.items.map((r) => r.policy_number).sort();
}
const num = (...keys: (keyof PoliciesWorld['p'])[]) => keys.map((k) => w.p[k].policy_number).sort();

describe('the insureds list', () => {
  it('lists every policy of the company in view, newest issue first, and none of another company', async () => {
    const list = await listPolicies(await asAdmin(), q());
    const all = num('lukasz', 'anna', 'greta', 'zoe', 'seanOld', 'seanNew', 'carla', 'sam');
    expect(list.items.map((r) => r.policy_number).sort()).toEqual(all);
    expect(list.meta.total).toBe(8);
    expect(list.items[0].policy_number).toBe(w.p.sam.policy_number);
    expect(list.items.some((r) => r.id === w.p.stranger.public_id)).toBe(false);
  });

  it('derives each status from the dates (cancelled stays cancelled)', async () => {
    const list = await listPolicies(await asAdmin(), q());
    const status = Object.fromEntries(list.items.map((r) => [r.policy_number, r.status]));
    expect(status[w.p.lukasz.policy_number]).toBe('active');
    expect(status[w.p.zoe.policy_number]).toBe('not_started');
    expect(status[w.p.seanOld.policy_number]).toBe('expired');
    expect(status[w.p.carla.policy_number]).toBe('cancelled');
  });

  it('filters by policy id (its beginning), first and last name (beginning, any case)', async () => {
    expect(await numbers({ policy_id: w.p.zoe.policy_number })).toEqual(num('zoe'));
    expect(await numbers({ policy_id: 'p0000' })).toHaveLength(8);
    expect(await numbers({ first_name: 'sEá' })).toEqual(num('seanOld', 'seanNew'));
    expect(await numbers({ last_name: 'kowal' })).toEqual(num('lukasz', 'anna'));
    expect(await numbers({ first_name: '100%' })).toEqual([]);
  });

  it('filters by country of residence, product, client, campus, group name and type', async () => {
    expect(await numbers({ residence_country: 'PL' })).toEqual(num('lukasz'));
    expect(await numbers({ residence_country: 'IRL' })).toEqual(num('seanOld', 'seanNew'));
    expect(await numbers({ product: w.product.public_id })).toHaveLength(8);
    expect(await numbers({ product: 'nosuchproduct' })).toEqual([]);
    expect(await numbers({ client: w.oakwood.public_id })).toHaveLength(8);
    expect(await numbers({ client: w.highland.public_id })).toEqual([]);
    expect(await numbers({ campus: w.south.public_id })).toEqual(num('sam'));
    expect(await numbers({ group_name: 'Alpha Group' })).toEqual(num('lukasz', 'greta'));
    expect(await numbers({ type: 'group_leader' })).toEqual(num('greta'));
    expect(await numbers({ type: 'immediate_family' })).toEqual(num('anna'));
  });

  it('filters by status', async () => {
    expect(await numbers({ status: 'active' })).toEqual(num('lukasz', 'anna', 'greta', 'seanNew', 'sam'));
    expect(await numbers({ status: 'not_started' })).toEqual(num('zoe'));
    expect(await numbers({ status: 'expired' })).toEqual(num('seanOld'));
    expect(await numbers({ status: 'cancelled' })).toEqual(num('carla'));
  });

  it('filters by trip start, trip end, issued and booking dates (inclusive ranges)', async () => {
    expect(await numbers({ start_from: day(15) })).toEqual(num('zoe', 'carla'));
    expect(await numbers({ start_to: day(-50) })).toEqual(num('seanOld'));
    expect(await numbers({ end_from: day(79), end_to: day(80) })).toEqual(num('seanNew'));
    expect(await numbers({ end_to: day(-40) })).toEqual(num('seanOld'));
    expect(await numbers({ issued_from: day(-1) })).toEqual(num('sam'));
    expect(await numbers({ issued_to: day(-30) })).toHaveLength(7);
    expect(await numbers({ booking_from: day(-30), booking_to: day(-30) })).toHaveLength(7);
  });

  it('sorts by the allowed columns and pages', async () => {
    const ctx = await asAdmin();
    const byNumber = await listPolicies(ctx, q({ order: 'policy_number_asc' }));
    expect(byNumber.items.map((r) => r.policy_number)).toEqual(
      [...byNumber.items.map((r) => r.policy_number)].sort(),
    );
    const byStart = await listPolicies(ctx, q({ order: 'start_date_desc' }));
    expect(byStart.items[0].policy_number).toBe(w.p.carla.policy_number);
    const page2 = await listPolicies(ctx, policyListQuerySchema.parse({ items: '3', page: '2' }));
    expect(page2.items).toHaveLength(3);
    expect(page2.meta).toMatchObject({ from: 4, to: 6, total: 8, last_page: 3 });
  });

  it('shows a campus employee only their campus, a school user their client, a stranger nothing of ours', async () => {
    const campus = await numbers({}, actorCtx(DEMO_ACCOUNTS.campusEmployee));
    expect(campus).toEqual(num('lukasz', 'anna', 'greta', 'zoe', 'seanOld', 'seanNew', 'carla'));
    expect(await numbers({}, actorCtx(DEMO_ACCOUNTS.schoolAdmin))).toHaveLength(8);
    expect(await numbers({}, actorCtx('stranger.policies@caledonia.test'))).toEqual([
      w.p.stranger.policy_number,
    ]);
  });

  it('counts policies by status (the summary) in the actor scope', async () => {
    expect(await policySummary(await asAdmin())).toEqual({
      total: 8,
      active: 5,
      not_started: 1,
      expired: 1,
      cancelled: 1,
    });
    expect((await policySummary(await actorCtx(DEMO_ACCOUNTS.campusEmployee))).active).toBe(4);
  });

  it('exports every matching row, and needs read_policy', async () => {
    expect((await exportPolicies(await asAdmin(), q({ status: 'active' }))).length).toBe(5);
    const noRead = { ...(await asAdmin()) };
    noRead.actor = { ...noRead.actor, permissions: new Set() };
    await expect(exportPolicies(noRead, q())).rejects.toBeInstanceOf(Forbidden);
  });

  it('lists group names (distinct, empty dropped), groups, policies by ids and of a batch', async () => {
    const ctx = await asAdmin();
    expect(await groupNames(ctx)).toEqual(['Alpha Group']);
    expect(await policyGroups(ctx)).toMatchObject([
      { group_name: 'Alpha Group', insureds: 2, group_leaders: 1 },
    ]);
    const byIds = await policiesByIds(ctx, [w.p.zoe.public_id, w.p.stranger.public_id, 'nosuch']);
    expect(byIds.map((r) => r.id)).toEqual([w.p.zoe.public_id]);
    const [{ public_id: batch }] = await db()
      .select({ public_id: (await import('../../drizzle/schema')).policyBatches.public_id })
      .from((await import('../../drizzle/schema')).policyBatches)
      .where(eq((await import('../../drizzle/schema')).policyBatches.id, w.p.sam.batch_id));
    expect((await policiesInBatch(ctx, batch)).map((r) => r.id)).toEqual([w.p.sam.public_id]);
  });
});

describe("an insured's page", () => {
  it('reads the policy with its client, campus, product, contract and group leader', async () => {
    const p = await getPolicy(await asAdmin(), w.p.lukasz.public_id);
    expect(p).toMatchObject({
      policy_number: w.p.lukasz.policy_number,
      full_name: 'Łukasz Kowalski',
      status: 'active',
      client: { id: w.oakwood.public_id },
      campus: { id: w.north.public_id },
      product: { id: w.product.public_id },
      group_leader: { id: w.p.greta.public_id, type: 'group_leader' },
      residence_country: { code: 'POL' },
    });
  });

  it('finds immediate family members from either side', async () => {
    const ctx = await asAdmin();
    expect((await immediateFamily(ctx, w.p.lukasz.public_id)).map((r) => r.id)).toEqual([w.p.anna.public_id]);
    expect((await immediateFamily(ctx, w.p.anna.public_id)).map((r) => r.id)).toEqual([w.p.lukasz.public_id]);
    expect(await immediateFamily(ctx, w.p.zoe.public_id)).toEqual([]);
  });

  it('finds linked policies: the group leader, and the insureds a leader leads', async () => {
    const ctx = await asAdmin();
    expect((await linkedPolicies(ctx, w.p.lukasz.public_id)).group_leader?.id).toBe(w.p.greta.public_id);
    const led = await linkedPolicies(ctx, w.p.greta.public_id);
    expect(led.group_leader).toBeNull();
    expect(led.led_insureds.map((r) => r.id)).toEqual([w.p.lukasz.public_id]);
  });

  it("lists the same person's other policies by state, each behind its permission", async () => {
    const lists = await personPolicies(await asAdmin(), w.p.seanNew.public_id);
    expect(lists.previous_policies?.map((r) => r.id)).toEqual([w.p.seanOld.public_id]);
    expect(lists.active_policies).toEqual([]);
    const fromOld = await personPolicies(await asAdmin(), w.p.seanOld.public_id);
    expect(fromOld.active_policies?.map((r) => r.id)).toEqual([w.p.seanNew.public_id]);
    const ctx = await asAdmin();
    ctx.actor = {
      ...ctx.actor,
      permissions: new Set([...ctx.actor.permissions].filter((p) => p !== 'read_past_policy')),
    };
    expect((await personPolicies(ctx, w.p.seanNew.public_id)).previous_policies).toBeNull();
  });

  it('offers the tabs a user may open, and no amendment of a cancelled policy', async () => {
    const admin = await actorFor(DEMO_ACCOUNTS.admin);
    expect(insuredTabsFor(admin)).toEqual([
      'policy',
      'documents',
      'notes',
      'logs',
      'mfa_logs',
      'active_policies',
      'previous_policies',
      'cancelled_policies',
    ]);
    const limited = { ...admin, permissions: new Set(['read_policy', 'read_active_policy']) } as typeof admin;
    expect(insuredTabsFor(limited)).toEqual(['policy', 'notes', 'logs', 'mfa_logs', 'active_policies']);
    expect(insuredTabsFor({ ...admin, permissions: new Set() } as typeof admin)).toEqual([]);
    expect(insuredActionsFor(admin, 'cancelled')).toMatchObject({
      edit_details: false,
      extend: false,
      trip_dates: false,
      cancel: false,
    });
    expect(insuredActionsFor(admin, 'active')).toMatchObject({ extend: true, cancel: false });
    expect(insuredActionsFor(admin, 'not_started')).toMatchObject({ cancel: true });
  });
});

describe('edit personal details', () => {
  const input = (p: typeof w.p.zoe, changes: Record<string, unknown>) =>
    policyDetailsSchema.parse({
      first_name: p.first_name,
      last_name: p.last_name,
      date_of_birth: p.date_of_birth,
      residence_country_id: p.residence_country_id,
      destination_country_id: p.destination_country_id,
      version: p.version,
      ...changes,
    });

  it('saves the changed fields in one batch: the policy, its version, a details transaction and a log row', async () => {
    const before = await policyRow(w.p.zoe.id);
    const ctx = await asAdmin();
    const result = await updatePolicyDetails(
      ctx,
      before.public_id,
      input(before, { last_name: 'Martin-Dupont', passport_number: 'AB1234567' }),
    );
    expect(result).toEqual({ changed: true, version: before.version + 1 });
    const after = await policyRow(before.id);
    expect(after).toMatchObject({
      last_name: 'Martin-Dupont',
      passport_number: 'AB1234567',
      version: before.version + 1,
    });
    const [tx] = await db()
      .select()
      .from(policyTransactions)
      .where(and(eq(policyTransactions.policy_id, before.id), eq(policyTransactions.kind, 'details')));
    expect(tx).toMatchObject({
      before: { last_name: 'Martin', passport_number: null },
      after: { last_name: 'Martin-Dupont', passport_number: 'AB1234567' },
      document_version: before.version + 1,
    });
    const logs = await db()
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.entity_type, 'policy'), eq(activityLogs.entity_id, before.id)));
    expect(logs.map((l) => l.action)).toContain('details_updated');
  });

  it('writes nothing when nothing changed', async () => {
    const row = await policyRow(w.p.sam.id);
    expect(await updatePolicyDetails(await asAdmin(), row.public_id, input(row, {}))).toEqual({
      changed: false,
      version: row.version,
    });
    expect((await policyRow(row.id)).version).toBe(row.version);
  });

  it("refuses a cancelled insured: 'You cannot edit cancelled insureds'", async () => {
    const row = await policyRow(w.p.carla.id);
    const e = await updatePolicyDetails(
      await asAdmin(),
      row.public_id,
      input(row, { first_name: 'Carlotta' }),
    ).catch((x) => x);
    expect(e).toBeInstanceOf(ValidationFailed);
    expect((await import('../../workers/platform/i18n')).formatMessage(e.message)).toBe(
      'You cannot edit cancelled insureds',
    );
    expect((await policyRow(row.id)).first_name).toBe('Carla');
  });

  it('refuses a form read at an older version, and leaves the policy as it was', async () => {
    const row = await policyRow(w.p.greta.id);
    await expect(
      updatePolicyDetails(
        await asAdmin(),
        row.public_id,
        input(row, { first_name: 'Gretchen', version: row.version - 1 || 99 }),
      ),
    ).rejects.toBeInstanceOf(Conflict);
    expect((await policyRow(row.id)).first_name).toBe('Greta');
  });

  it('applies the applicant rules: no digits in names, a birth date before today, countries that differ', () => {
    const row = w.p.sam;
    const bad = policyDetailsSchema.safeParse({
      first_name: 'Sam2',
      last_name: row.last_name,
      date_of_birth: day(1),
      residence_country_id: row.residence_country_id,
      destination_country_id: row.residence_country_id,
    });
    expect(bad.success).toBe(false);
    const paths = bad.error!.issues.map((i) => i.path[0]);
    expect(paths).toEqual(expect.arrayContaining(['first_name', 'date_of_birth', 'destination_country_id']));
  });

  it('refuses a user without update_insured, and another tenant as not found', async () => {
    const finance = await actorCtx(DEMO_ACCOUNTS.finance);
    const row = await policyRow(w.p.sam.id);
    await expect(
      updatePolicyDetails(finance, row.public_id, input(row, { first_name: 'Samuel' })),
    ).rejects.toBeInstanceOf(Forbidden);
  });
});

describe('bulk notes', () => {
  const note = {
    title: 'Called the school',
    note: 'Confirmed arrival',
    date: day(0),
    source: 'call' as const,
    type: 'admin_note' as const,
  };

  it('adds one note per selected insured in one batch, only to insureds in scope', async () => {
    const ctx = await asAdmin();
    const { added } = await addPolicyNotes(
      ctx,
      { all_matching: false, ids: [w.p.lukasz.public_id, w.p.anna.public_id, w.p.stranger.public_id] },
      q(),
      note,
    );
    expect(added).toBe(2);
    const rows = await db().select().from(notes).where(eq(notes.title, 'Called the school'));
    expect(rows.map((r) => r.owner_id).sort()).toEqual([w.p.lukasz.id, w.p.anna.id].sort());
  });

  it('adds to every insured matching the filters, and refuses an empty selection', async () => {
    const ctx = await asAdmin();
    const { added } = await addPolicyNotes(ctx, { all_matching: true }, q({ status: 'expired' }), {
      ...note,
      title: 'Expired check',
    });
    expect(added).toBe(1);
    await expect(
      addPolicyNotes(ctx, { all_matching: true }, q({ first_name: 'Nobody' }), note),
    ).rejects.toBeInstanceOf(ValidationFailed);
  });
});
