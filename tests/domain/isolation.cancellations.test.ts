/**
 * Tenant isolation of cancellation by spreadsheet and of the enrolment check: every id-taking call on a
 * cancellation sheet made by the school's administrator answers "not found" to a school user of another
 * company, a campus employee (of the same school, another campus), an account manager and an
 * administrator of another company; and the policies of the school are "not found" to those who may not
 * see them when they name them in a sheet or in the enrolment check.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../../drizzle/seed/builders';
import {
  cancelReviewPage,
  cancellationProgress,
  confirmCancelMapping,
  deleteCancelRows,
  getCancellation,
} from '../../workers/domain/cancellations/service';
import {
  cancellationOutcome,
  cancellationSummary,
  confirmCancellation,
  proceedCancellation,
} from '../../workers/domain/cancellations/proceed';
import { uploadCancellation } from '../../workers/domain/cancellations/service';
import { confirmEnrolment } from '../../workers/domain/policies/enrolment-check';
import { NotFound } from '../../workers/domain/errors';
import type { ActorCtx } from '../../workers/domain/context';
import { DEMO_ACCOUNTS, actorCtx, SETUP_TIMEOUT_MS } from '../support/world';
import { STRANGER } from '../support/contracts';
import { seedCheckoutWorld, setClientTerms, type CheckoutWorld } from '../support/checkout';
import { issuePolicies, quiet, runCancellationJob, type PolicyRow } from '../support/cancellations';
import { csvOf, fileOf } from '../support/sheets';

let w: CheckoutWorld;
let north: PolicyRow[];
let south: PolicyRow[];
let sheet: string;

const OTHER_SCHOOL = 'school.admin@highland.test';

const OUTSIDERS = {
  'a school user of another company': OTHER_SCHOOL,
  'a campus employee of another campus': DEMO_ACCOUNTS.campusEmployee,
  'an account manager': DEMO_ACCOUNTS.accountManager,
  "another company's administrator": STRANGER.companyUser,
} as const;

beforeAll(async () => {
  w = await seedCheckoutWorld();
  await setClientTerms(w.oakwood.id, 'invoiced_directly', 'bank_transfer');
  north = await issuePolicies(w, 2);
  south = await issuePolicies(w, 1, { campus: 'south' });
  const school = quiet(await actorCtx(DEMO_ACCOUNTS.schoolAdmin));
  const view = await uploadCancellation(
    school,
    fileOf(csvOf([['Policy ID'], [south[0]!.policy_number]]), 'c.csv'),
  );
  await confirmCancelMapping(school, view.id, { columns: ['policy_id'] });
  await runCancellationJob(view.id);
  await proceedCancellation(school, view.id, { reason: 'Did not travel' });
  sheet = view.id;
  await buildUser(school.db, {
    email: OTHER_SCHOOL,
    first_name: 'Hugh',
    last_name: 'Highland',
    roles: ['school_admin'],
    clientId: w.highland.id,
    canAccessAllCampuses: true,
  });
}, SETUP_TIMEOUT_MS);

const CALLS: Record<string, (ctx: ActorCtx, id: string) => Promise<unknown>> = {
  getCancellation: (ctx, id) => getCancellation(ctx, id),
  cancellationProgress: (ctx, id) => cancellationProgress(ctx, id),
  confirmCancelMapping: (ctx, id) => confirmCancelMapping(ctx, id, { columns: ['policy_id'] }),
  cancelReviewPage: (ctx, id) => cancelReviewPage(ctx, id, { page: 1, errors_only: false }),
  deleteCancelRows: (ctx, id) => deleteCancelRows(ctx, id, { rows: [2], errored: false }),
  proceedCancellation: (ctx, id) => proceedCancellation(ctx, id, { reason: 'Not mine' }),
  confirmCancellation: (ctx, id) => confirmCancellation(ctx, id),
  cancellationOutcome: (ctx, id) => cancellationOutcome(ctx, id),
  cancellationSummary: (ctx, id) => cancellationSummary(ctx, id, 'en'),
};

describe('a cancellation sheet is not found by anyone but its uploader', () => {
  for (const [who, email] of Object.entries(OUTSIDERS))
    for (const [name, call] of Object.entries(CALLS))
      it(`${name}: ${who}`, async () => {
        const e = await call(quiet(await actorCtx(email)), sheet).then(
          () => null,
          (x) => x,
        );
        expect(e).toBeInstanceOf(NotFound);
      });

  it('the uploader still reads it, unchanged by all of the above', async () => {
    const school = quiet(await actorCtx(DEMO_ACCOUNTS.schoolAdmin));
    expect(await cancellationOutcome(school, sheet)).toMatchObject({ status: 'quoted', named: 1 });
  });
});

describe('the enrolment check answers "not found" for policies out of scope', () => {
  it('another company, and another campus', async () => {
    const items = [...north, ...south].map((p) => ({ policy_id: p.policy_number }));
    for (const email of [OTHER_SCHOOL, STRANGER.companyUser]) {
      const r = await confirmEnrolment(await actorCtx(email), { items });
      expect(r.results.map((x) => x.state)).toEqual(['not_found', 'not_found', 'not_found']);
    }
    const employee = await confirmEnrolment(await actorCtx(DEMO_ACCOUNTS.campusEmployee), { items });
    expect(employee.results.map((x) => x.state)).toEqual(['upcoming', 'upcoming', 'not_found']);
  });
});
