/**
 * The cart clean-up (spec 001 s.4: "The cart is cleared at a stated GMT time unless checkout is
 * completed"; ARCHITECTURE "Jobs": cart expiry at the configured GMT time).
 *
 * The time is the `cart_clear_time_gmt` setting (HH:MM, GMT; 23:00 when unset). The cron task (every few
 * minutes) clears, at each run, the open batches opened before the latest clean-up moment that has passed
 * (today's time once it has passed, otherwise yesterday's), so a missed run catches up and a repeated run
 * changes nothing. Draft batches (an import or an order being put together) nobody has touched for a
 * whole day before that moment are cleared too. Cleared batches keep their enrollments: nothing typed is
 * deleted, it just leaves the cart.
 */
import { eq, sql } from 'drizzle-orm';
import { settings } from '../../../drizzle/schema';
import { runBatch, type DB, type Statement } from '../../platform/db';
import { logActivityFrom } from '../audit/activity-log';
import { clearTimeSchema } from './schema';

export const CART_CLEAR_SETTING = 'cart_clear_time_gmt';
export const DEFAULT_CART_CLEAR_TIME = '23:00';
const DAY_MS = 86_400_000;

/** The configured clean-up time (HH:MM, GMT). */
export async function cartClearTimeSetting(db: DB): Promise<string> {
  const [row] = await db
    .select({ value: settings.value })
    .from(settings)
    .where(eq(settings.key, CART_CLEAR_SETTING));
  const parsed = clearTimeSchema.safeParse(row?.value?.trim());
  return parsed.success ? parsed.data : DEFAULT_CART_CLEAR_TIME;
}

function momentOn(day: Date, time: string): Date {
  const [h, m] = time.split(':').map(Number) as [number, number];
  return new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), h, m));
}

/** The latest clean-up moment at or before `now`, and the next one after it. */
export function clearMoments(time: string, now: Date): { last: Date; next: Date } {
  const today = momentOn(now, time);
  const last = today.getTime() <= now.getTime() ? today : new Date(today.getTime() - DAY_MS);
  return { last, next: new Date(last.getTime() + DAY_MS) };
}

/** For the cart page: when the open batches will be cleared ("at 23:00 GMT", and the exact moment). */
export async function cartClearTime(
  db: DB,
  now: Date = new Date(),
): Promise<{ time: string; next_clear_at: string }> {
  const time = await cartClearTimeSetting(db);
  return { time, next_clear_at: clearMoments(time, now).next.toISOString() };
}

/** The cron step: clears the carts whose clean-up moment has passed. Answers how many batches. */
export async function clearExpiredCarts(
  db: DB,
  now: Date = new Date(),
): Promise<{ open: number; drafts: number }> {
  const time = await cartClearTimeSetting(db);
  const { last } = clearMoments(time, now);
  const cutoff = last.getTime();
  const staleDraft = cutoff - DAY_MS;
  const openWhere = sql`status = 'open' AND coalesce(opened_at, updated_at) < ${cutoff}`;
  const draftWhere = sql`status = 'draft' AND updated_at < ${staleDraft}`;
  const stamp = now.getTime();
  const statements: Statement[] = [];
  for (const where of [openWhere, draftWhere])
    statements.push(
      logActivityFrom(
        { db, actor: null, now },
        { entity_type: 'policy_batch', action: 'cleared' },
        sql`SELECT id AS entity_id, json_object('status', status) AS before,
          json_object('status', 'cleared') AS after, company_id, client_id
        FROM policy_batches WHERE ${where}`,
      ),
      db.run(sql`UPDATE policy_batches SET status = 'cleared', cleared_at = ${stamp}, updated_at = ${stamp}
        WHERE ${where}`),
    );
  const counts = await countsOf(db, openWhere, draftWhere);
  if (counts.open || counts.drafts) await runBatch(db, statements);
  return counts;
}

async function countsOf(db: DB, openWhere: ReturnType<typeof sql>, draftWhere: ReturnType<typeof sql>) {
  const [row] = await db.all<{ open: number; drafts: number }>(
    sql`SELECT (SELECT count(*) FROM policy_batches WHERE ${openWhere}) AS open,
      (SELECT count(*) FROM policy_batches WHERE ${draftWhere}) AS drafts`,
  );
  return { open: Number(row?.open ?? 0), drafts: Number(row?.drafts ?? 0) };
}
