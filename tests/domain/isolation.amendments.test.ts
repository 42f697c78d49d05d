/**
 * Tenant isolation of amendments (extend, trip dates, cancel, group name, group leader): for every service
 * function that takes an amendment id or policy ids, a school user of another company, a campus employee
 * of another campus, an account manager of another company and another company's administrator get "not
 * found" (never "forbidden", never a change). Every one of them holds `update_policy`, so only the scope
 * keeps them out. An amendment is its creator's: a colleague who sees the same policies does not see it.
 * The owner's calls with the same ids succeed, so the ids are real.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../../drizzle/seed/builders';
import type { ActorCtx } from '../../workers/domain/context';
import { NotFound } from '../../workers/domain/errors';
import {
  amendNow,
  assignGroupLeader,
  confirmAmendment,
  createAmendment,
  getAmendment,
  quoteAmendment,
  updateGroupName,
} from '../../workers/domain/policies/amendments';
import { DEMO_ACCOUNTS, SETUP_TIMEOUT_MS, actorCtx } from '../support/world';
import { STRANGER } from '../support/contracts';
import {
  asSchool,
  day,
  issuePolicies,
  reload,
  seedAmendmentsWorld,
  trip,
  type PolicyRow,
} from '../support/amendments';

const OTHER_SCHOOL = 'school.admin@highland.test';
const OTHER_MANAGER = 'manager@caledonia.test';
const none = { page: 1, items: 25 };

let owner: ActorCtx;
let south: PolicyRow[];
let quoteId: string;
const strangers: Record<string, ActorCtx> = {};

beforeAll(async () => {
  const w = await seedAmendmentsWorld();
  owner = await asSchool();
  // South campus policies: the demo campus employee sees the North campus only.
  south = await issuePolicies(
    w,
    [
      {
        first_name: 'Gwen',
        last_name: 'Guide',
        type: 'group_leader',
        date_of_birth: '1985-05-05',
        ...trip(20),
      },
      { first_name: 'Stan', last_name: 'South', ...trip(20) },
    ],
    { campus: 'south' },
  );
  const { id } = await createAmendment(owner, {
    kind: 'extend',
    selection: { ids: [south[1].public_id] },
    query: none,
  });
  await quoteAmendment(owner, id, { new_end_date: day(36) });
  quoteId = id;
  await buildUser(owner.db, {
    email: OTHER_SCHOOL,
    first_name: 'Hugh',
    last_name: 'Highland',
    roles: ['school_admin'],
    clientId: w.highland.id,
    canAccessAllCampuses: true,
  });
  await buildUser(owner.db, {
    email: OTHER_MANAGER,
    first_name: 'Cal',
    last_name: 'Manager',
    roles: ['account_manager'],
    companyIds: [w.caledonia.id],
  });
  strangers['a school user of another company'] = await actorCtx(OTHER_SCHOOL);
  strangers['a campus employee of another campus'] = await actorCtx(DEMO_ACCOUNTS.campusEmployee);
  strangers['an account manager of another company'] = await actorCtx(OTHER_MANAGER);
  strangers["another company's administrator"] = await actorCtx(STRANGER.companyUser);
}, SETUP_TIMEOUT_MS);

const calls: Record<string, (ctx: ActorCtx) => Promise<unknown>> = {
  getAmendment: (ctx) => getAmendment(ctx, quoteId),
  quoteAmendment: (ctx) => quoteAmendment(ctx, quoteId, { new_end_date: day(43) }),
  confirmAmendment: (ctx) => confirmAmendment(ctx, quoteId),
  createAmendment: (ctx) =>
    createAmendment(ctx, { kind: 'cancel', selection: { ids: [south[1].public_id] }, query: none }),
  'amendNow (extend)': (ctx) =>
    amendNow(ctx, { kind: 'extend', policies: [south[1].public_id], new_end_date: day(36) }),
  'amendNow (cancel)': (ctx) =>
    amendNow(ctx, { kind: 'cancel', policies: [south[1].public_id], reason: 'x' }),
  updateGroupName: (ctx) =>
    updateGroupName(ctx, { selection: { ids: [south[1].public_id] }, query: none, group_name: 'Not yours' }),
  assignGroupLeader: (ctx) =>
    assignGroupLeader(ctx, {
      selection: { ids: [south[1].public_id] },
      query: none,
      group_leader_id: south[0].public_id,
    }),
};

describe('every id-taking amendment call answers not found to another tenant', () => {
  for (const who of [
    'a school user of another company',
    'a campus employee of another campus',
    'an account manager of another company',
    "another company's administrator",
  ])
    for (const [name, run] of Object.entries(calls))
      it(`${name}: ${who}`, async () => {
        await expect(run(strangers[who])).rejects.toBeInstanceOf(NotFound);
      });

  it('nothing changed, and the owner can do it with the same ids', async () => {
    expect((await reload(south)).map((p) => p.version)).toEqual([1, 1]);
    expect((await getAmendment(owner, quoteId)).status).toBe('quoted');
    expect(
      (
        await assignGroupLeader(owner, {
          selection: { ids: [south[1].public_id] },
          query: none,
          group_leader_id: south[0].public_id,
        })
      ).updated,
    ).toBe(1);
  });

  it("a colleague who sees the same policies does not see another user's amendment", async () => {
    const senior = await actorCtx(DEMO_ACCOUNTS.seniorAdmin);
    await expect(getAmendment(senior, quoteId)).rejects.toBeInstanceOf(NotFound);
    await expect(confirmAmendment(senior, quoteId)).rejects.toBeInstanceOf(NotFound);
  });
});
