/**
 * Tenant isolation of the insureds read side and personal details: every service function of the area
 * that takes an id answers "not found" (never "forbidden", never the data) to a campus employee for
 * another campus's insured, to a school user and an account manager for another company's insured, and
 * to another company's administrator and school user (whose role holds every insured and policy
 * permission) for ours. The owner's calls with the same ids succeed, so the ids are real.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { policyBatches } from '../../drizzle/schema';
import { NotFound } from '../../workers/domain/errors';
import type { ActorCtx } from '../../workers/domain/context';
import {
  getPolicy,
  immediateFamily,
  linkedPolicies,
  personPolicies,
  policiesInBatch,
  policyTransactionsOf,
} from '../../workers/domain/policies/service';
import {
  addPolicyNote,
  policyActivities,
  policyNoteFile,
  policyNotes,
  updatePolicyDetails,
} from '../../workers/domain/policies/details';
import { policyDetailsSchema } from '../../workers/domain/policies/schema';
import { actorCtx, DEMO_ACCOUNTS, SETUP_TIMEOUT_MS } from '../support/world';
import { STRANGER } from '../support/contracts';
import { db, POLICY_STRANGER, seedPoliciesWorld, type PoliciesWorld } from '../support/policies';

type Policy = PoliciesWorld['p']['sam'];
let w: PoliciesWorld;
const batchOf = new Map<number, string>();

beforeAll(async () => {
  w = await seedPoliciesWorld();
  for (const p of Object.values(w.p)) {
    const [b] = await db().select().from(policyBatches).where(eq(policyBatches.id, p.batch_id));
    batchOf.set(p.id, b.public_id);
  }
}, SETUP_TIMEOUT_MS);

const note = {
  title: 'Isolation',
  note: 'x',
  date: '2026-01-01',
  source: 'email',
  type: 'admin_note',
} as const;

/** Every id-taking call of the area, for one policy. */
const CALLS: Record<string, (ctx: ActorCtx, p: Policy) => Promise<unknown>> = {
  getPolicy: (ctx, p) => getPolicy(ctx, p.public_id),
  personPolicies: (ctx, p) => personPolicies(ctx, p.public_id),
  immediateFamily: (ctx, p) => immediateFamily(ctx, p.public_id),
  linkedPolicies: (ctx, p) => linkedPolicies(ctx, p.public_id),
  policiesInBatch: (ctx, p) => policiesInBatch(ctx, batchOf.get(p.id)!),
  policyTransactionsOf: (ctx, p) => policyTransactionsOf(ctx, p.public_id),
  policyNotes: (ctx, p) => policyNotes(ctx, p.public_id),
  policyActivities: (ctx, p) => policyActivities(ctx, p.public_id),
  policyNoteFile: (ctx, p) => policyNoteFile(ctx, p.public_id, 1),
  addPolicyNote: (ctx, p) => addPolicyNote(ctx, p.public_id, note),
  updatePolicyDetails: (ctx, p) =>
    updatePolicyDetails(
      ctx,
      p.public_id,
      policyDetailsSchema.parse({
        first_name: 'Intruder',
        last_name: p.last_name,
        date_of_birth: p.date_of_birth,
        residence_country_id: p.residence_country_id,
        destination_country_id: p.destination_country_id,
      }),
    ),
};

/** Who must not reach which policy: [label, account, the policy that is not theirs]. */
const MATRIX: [string, string, keyof PoliciesWorld['p']][] = [
  ['a campus employee (other campus)', DEMO_ACCOUNTS.campusEmployee, 'sam'],
  ['a school user (another company)', DEMO_ACCOUNTS.schoolAdmin, 'stranger'],
  ['an account manager (another company)', DEMO_ACCOUNTS.accountManager, 'stranger'],
  ["another company's administrator", STRANGER.companyUser, 'lukasz'],
  ["another company's school user with every policy right", POLICY_STRANGER, 'lukasz'],
];

describe('the insureds calls answer not found outside the tenant', () => {
  for (const [label, email, key] of MATRIX) {
    for (const [name, run] of Object.entries(CALLS)) {
      it(`${name}: ${label}`, async () => {
        const ctx = await actorCtx(email);
        await expect(run(ctx, w.p[key])).rejects.toBeInstanceOf(NotFound);
      });
    }
  }

  it("the owner's reads of the same ids succeed", async () => {
    const own = await actorCtx(DEMO_ACCOUNTS.admin);
    for (const [name, run] of Object.entries(CALLS)) {
      if (name === 'policyNoteFile' || name === 'updatePolicyDetails' || name === 'addPolicyNote') continue;
      await expect(run(own, w.p.sam), name).resolves.toBeDefined();
    }
    const stranger = await actorCtx(POLICY_STRANGER);
    await expect(getPolicy(stranger, w.p.stranger.public_id)).resolves.toMatchObject({
      id: w.p.stranger.public_id,
    });
  });
});
