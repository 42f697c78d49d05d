/**
 * Issued policies for the tests of cancellation by spreadsheet, expiry reminders and the enrolment
 * check: a batch goes through the real checkout (policies numbered, invoiced), and a test moves a
 * policy's dates where it needs one that has started or ends soon (time passing, not a shortcut).
 */
import { and, asc, eq, inArray } from 'drizzle-orm';
import { cancellationImports, policies } from '../../drizzle/schema';
import type { ApplicantSeed } from '../../drizzle/seed/builders';
import { confirmOpenBatches } from '../../workers/domain/checkout/service';
import { confirmOpenSchema } from '../../workers/domain/checkout/schema';
import type { ActorCtx } from '../../workers/domain/context';
import { handleMessage } from '../../workers/jobs/consumer';
import type { Env } from '../../workers/env';
import { asSchool, checkoutKey, db, openBatch, trip, type CheckoutWorld } from './checkout';
import { testEnv } from './world';

export type PolicyRow = typeof policies.$inferSelect;

/** Jobs started by a service are not sent to the real queue; a test runs them itself, as a delivery would. */
export const quietEnv = (): Env => ({
  ...testEnv(),
  JOBS: { send: async () => {}, sendBatch: async () => {} } as never,
});

export const quiet = (ctx: ActorCtx): ActorCtx => ({ ...ctx, env: quietEnv() });

let serial = 0;

/** Issues `count` policies for the school's campus (north, or south) through checkout; answers them. */
export async function issuePolicies(
  w: CheckoutWorld,
  count: number,
  opts: { campus?: 'north' | 'south'; startIn?: number; days?: number; applicants?: ApplicantSeed[] } = {},
): Promise<PolicyRow[]> {
  serial += 1;
  const t = trip(opts.days ?? 20, opts.startIn ?? 10);
  const applicants =
    opts.applicants ??
    Array.from({ length: count }, (_, i) => ({
      first_name: `Cara${'abcdefghij'[i % 10]}`,
      last_name: `Cancel${'abcdefghijklmnopqrstuvwxyz'[serial % 26]}${'abcdefghijklmnopqrstuvwxyz'[i % 26]}`,
      email: `cancel.${serial}.${i}@example.test`,
      ...t,
    }));
  const { batch } = await openBatch(w, applicants, { campus: opts.campus });
  await confirmOpenBatches(
    await asSchool(),
    confirmOpenSchema.parse({ checkout_key: checkoutKey(), payment_method: 'invoiced_directly' }),
  );
  return db().select().from(policies).where(eq(policies.batch_id, batch.id)).orderBy(asc(policies.id));
}

/** Moves policies' trip dates (a policy that has started, or that ends soon). */
export async function setTrip(ids: number[], start: string, end: string) {
  await db().update(policies).set({ start_date: start, end_date: end }).where(inArray(policies.id, ids));
}

/** Runs the matching job of a cancellation import through the consumer, as a delivery would. */
export async function runCancellationJob(id: string) {
  const [imp] = await db().select().from(cancellationImports).where(eq(cancellationImports.public_id, id));
  await handleMessage(testEnv(), { type: 'job.run', id: imp!.job_id! });
  const [after] = await db()
    .select()
    .from(cancellationImports)
    .where(and(eq(cancellationImports.public_id, id)));
  return after!;
}
