import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { policies } from '../../drizzle/schema';
import {
  confirmEnrolment,
  enrolmentCheckFormSchema,
  MAX_ENROLMENT_CHECKS,
} from '../../workers/domain/policies/enrolment-check';
import { formatMessage } from '../../workers/platform/i18n';
import { DEMO_ACCOUNTS, actorCtx, SETUP_TIMEOUT_MS } from '../support/world';
import { day, db, seedCheckoutWorld, setClientTerms } from '../support/checkout';
import { issuePolicies, setTrip, type PolicyRow } from '../support/cancellations';

let p: PolicyRow[];

beforeAll(async () => {
  const w = await seedCheckoutWorld();
  await setClientTerms(w.oakwood.id, 'invoiced_directly', 'bank_transfer');
  p = await issuePolicies(w, 5);
  await setTrip([p[0]!.id], day(-3), day(20));
  await setTrip([p[2]!.id], day(-40), day(-10));
  await db().update(policies).set({ status: 'cancelled' }).where(eq(policies.id, p[3]!.id));
}, SETUP_TIMEOUT_MS);

describe('confirm enrolment', () => {
  it('answers each policy id with its enrolment today, in the order given', async () => {
    const r = await confirmEnrolment(await actorCtx(DEMO_ACCOUNTS.schoolAdmin), {
      items: [
        { policy_id: p[0]!.policy_number, last_name: p[0]!.last_name.toLowerCase() },
        { policy_id: p[1]!.policy_number.replace(/^P0*/, '') },
        { policy_id: p[2]!.policy_number },
        { policy_id: p[3]!.policy_number },
        { policy_id: 'P99999999' },
        { policy_id: p[4]!.policy_number, last_name: 'Someone Else' },
      ],
    });
    expect(r.results.map((x) => [x.line, x.policy_id, x.state])).toEqual([
      [1, p[0]!.policy_number, 'enrolled'],
      [2, p[1]!.policy_number, 'upcoming'],
      [3, p[2]!.policy_number, 'ended'],
      [4, p[3]!.policy_number, 'cancelled'],
      [5, 'P99999999', 'not_found'],
      [6, p[4]!.policy_number, 'name_mismatch'],
    ]);
    expect(r.results[0]!.insured).toMatchObject({ first_name: p[0]!.first_name, end_date: day(20) });
    // A wrong last name shows nothing of the policy named.
    expect(r.results[5]!.insured).toBeNull();
    expect(r).toMatchObject({ enrolled: 2, total: 6 });
  });

  it("reads the page's lines: a policy id, a last name after a comma, blank lines skipped", () => {
    const parsed = enrolmentCheckFormSchema.parse({
      policies: 'P00000001, Smith\n\nP00000002\t Jones \n 3 ',
    });
    expect(parsed.policies).toEqual([
      { policy_id: 'P00000001', last_name: 'Smith' },
      { policy_id: 'P00000002', last_name: 'Jones' },
      { policy_id: '3', last_name: undefined },
    ]);
    const empty = enrolmentCheckFormSchema.safeParse({ policies: '  \n ' });
    expect(empty.success || formatMessage(empty.error.issues[0]!.message)).toBe(
      'Enter at least one policy ID.',
    );
    const many = enrolmentCheckFormSchema.safeParse({
      policies: Array.from({ length: MAX_ENROLMENT_CHECKS + 1 }, (_, i) => `P${i}`).join('\n'),
    });
    expect(many.success || formatMessage(many.error.issues[0]!.message)).toBe(
      'Enter at most 200 policy IDs at a time.',
    );
  });
});
