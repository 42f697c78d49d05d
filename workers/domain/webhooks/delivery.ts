/**
 * Delivering webhooks: each delivery row is attempted one attempt at a time, each attempt when the
 * delivery's own schedule says, whatever happens to other deliveries.
 *
 * The queue delivers at least once, and a batch whose consumer fails is delivered again whole (messages
 * already acknowledged included). So a queue message never decides on its own that an attempt is due:
 * it names the attempt it was sent for (`due`, the delivery's `next_attempt_at` then), and the attempt
 * is made only when the row still has that attempt scheduled, its time has come, and the row could be
 * claimed (no other attempt under way). A message for an attempt already made, or rescheduled by a
 * Redeliver, is dropped; a message arriving early is sent again for the time left. The cron hands any
 * due delivery whose message was lost back to the queue, named the same way, so a duplicate does nothing.
 */
import { and, eq, isNull, lt, lte, or, sql } from 'drizzle-orm';
import { webhookDeliveries, webhookDeliveryAttempts, webhookEndpoints } from '../../../drizzle/schema';
import type { Env, JobMessage } from '../../env';
import { chunk, type DB } from '../../platform/db';
import { sendWebhook } from '../../platform/webhook-transport';
import { signedHeaders } from './signing';

/**
 * Retries (Standard Webhooks' schedule, then every 12 hours): after the n-th failed attempt of a
 * schedule, the next one waits the n-th of these; a delivery that has not succeeded three days after its
 * schedule began (the event, or the last Redeliver) is failed.
 */
export const RETRY_DELAYS_S = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 10 * 3600];
export const RETRY_MAX_DELAY_S = 12 * 3600;
export const GIVE_UP_AFTER_MS = 3 * 24 * 3600 * 1000;
/** A claim older than this is an attempt that died (the Worker stopped): the row may be claimed again. */
export const CLAIM_TIMEOUT_MS = 60_000;
const ATTEMPT_TIMEOUT_MS = 15_000;
const EXCERPT_LENGTH = 500;

/** The wait before the next attempt after `failed` failed attempts of the current schedule. */
export function retryDelaySeconds(failed: number): number {
  return RETRY_DELAYS_S[failed - 1] ?? RETRY_MAX_DELAY_S;
}

/** The queue message for the attempt a delivery has scheduled at `due`. */
export function deliverMessage(id: number, due: Date): JobMessage {
  return { type: 'webhook.deliver', id, due: due.getTime() };
}

const unclaimed = (now: Date) =>
  or(
    isNull(webhookDeliveries.claimed_at),
    lt(webhookDeliveries.claimed_at, new Date(now.getTime() - CLAIM_TIMEOUT_MS)),
  );

async function sendAll(env: Env, rows: { id: number; due: Date | null }[]): Promise<void> {
  for (const part of chunk(rows, 100))
    await env.JOBS.sendBatch(part.map((r) => ({ body: deliverMessage(r.id, r.due ?? new Date(0)) })));
}

/** Hands the deliveries written by a request (at `writtenAt`) to the queue. */
export async function flushNewDeliveries(db: DB, env: Env, writtenAt: Date): Promise<number> {
  const rows = await db
    .select({ id: webhookDeliveries.id, due: webhookDeliveries.next_attempt_at })
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.status, 'pending'),
        eq(webhookDeliveries.next_attempt_at, writtenAt),
        eq(webhookDeliveries.attempts, 0),
        isNull(webhookDeliveries.claimed_at),
      ),
    )
    .limit(5000);
  await sendAll(env, rows);
  return rows.length;
}

/** Cron: deliveries due (a lost queue message, one written by a queue job) go back on the queue. */
export async function queueDueDeliveries(db: DB, env: Env, now: Date): Promise<number> {
  const rows = await db
    .select({ id: webhookDeliveries.id, due: webhookDeliveries.next_attempt_at })
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.status, 'pending'),
        lte(webhookDeliveries.next_attempt_at, now),
        unclaimed(now),
      ),
    )
    .limit(1000);
  await sendAll(env, rows);
  return rows.length;
}

/** What one attempt brought back. */
interface Outcome {
  status: number | null;
  excerpt: string | null;
  error: string | null;
  durationMs: number;
}

async function attempt(
  env: Env,
  endpoint: { url: string; secret: string },
  row: { public_id: string; payload: string },
  now: Date,
): Promise<Outcome> {
  const started = Date.now();
  try {
    const res = await sendWebhook(env, endpoint.url, {
      method: 'POST',
      headers: await signedHeaders(endpoint.secret, row.public_id, row.payload, now),
      body: row.payload,
      redirect: 'manual',
      signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
    });
    const excerpt = (await res.text()).slice(0, EXCERPT_LENGTH);
    return { status: res.status, excerpt, error: null, durationMs: Date.now() - started };
  } catch (e) {
    const error = (e instanceof Error ? e.message : String(e)).slice(0, EXCERPT_LENGTH);
    return { status: null, excerpt: null, error, durationMs: Date.now() - started };
  }
}

/**
 * The queue consumer's handling of `webhook.deliver`: makes the attempt the message names if it is
 * still the delivery's next one and due at `now` (see the top of this file). Never throws for the
 * receiver's failures: the next attempt is scheduled here. Answers what it did (for tests and logs).
 */
export async function deliverWebhook(
  db: DB,
  env: Env,
  id: number,
  now = new Date(),
  due?: number,
): Promise<'attempted' | 'dropped' | 'later'> {
  const [row] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id)).limit(1);
  const scheduled = row?.next_attempt_at?.getTime();
  if (!row || row.status !== 'pending' || scheduled === undefined) return 'dropped';
  if (due !== undefined && due !== scheduled) return 'dropped';
  if (scheduled > now.getTime()) {
    // Early (a message without a due time, or a queue that delivered before the delay ran out): the
    // scheduled attempt keeps its one message; any other goes.
    if (due === undefined) return 'dropped';
    const wait = Math.min(Math.ceil((scheduled - now.getTime()) / 1000), RETRY_MAX_DELAY_S);
    await env.JOBS.send(deliverMessage(id, row.next_attempt_at!), { delaySeconds: wait });
    return 'later';
  }
  const [claimed] = await db
    .update(webhookDeliveries)
    .set({ claimed_at: now })
    .where(
      and(
        eq(webhookDeliveries.id, id),
        eq(webhookDeliveries.status, 'pending'),
        eq(webhookDeliveries.next_attempt_at, row.next_attempt_at!),
        unclaimed(now),
      ),
    )
    .returning();
  if (!claimed) return 'dropped'; // another attempt of it is under way, or it was just rescheduled
  const [endpoint] = await db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.id, claimed.endpoint_id))
    .limit(1);
  if (!endpoint || endpoint.status !== 'active') {
    await db
      .update(webhookDeliveries)
      .set({
        status: 'failed',
        last_error: 'The endpoint was removed.',
        claimed_at: null,
        next_attempt_at: null,
      })
      .where(eq(webhookDeliveries.id, id));
    return 'dropped';
  }

  const result = await attempt(env, endpoint, claimed, now);
  const attempts = claimed.attempts + 1;
  const ok = result.status !== null && result.status >= 200 && result.status < 300;
  const delay = retryDelaySeconds(attempts - claimed.schedule_base);
  const next = new Date(now.getTime() + delay * 1000);
  const scheduleFrom = claimed.schedule_from ?? claimed.created_at;
  const givingUp = !ok && next.getTime() - scheduleFrom.getTime() > GIVE_UP_AFTER_MS;
  const lastError = ok
    ? null
    : (result.error ?? `The endpoint answered ${result.status ?? 'nothing'}.`).slice(0, EXCERPT_LENGTH);
  await db.batch([
    db
      .update(webhookDeliveries)
      .set({
        status: ok ? 'delivered' : givingUp ? 'failed' : 'pending',
        attempts,
        claimed_at: null,
        response_status: result.status,
        response_excerpt: result.excerpt,
        last_error: lastError,
        last_attempt_at: now,
        delivered_at: ok ? now : null,
        next_attempt_at: ok || givingUp ? null : next,
      })
      // Only while the claim is ours: a Redeliver waits for the attempt under way (redeliverWebhook).
      .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.claimed_at, now))),
    db.insert(webhookDeliveryAttempts).values({
      delivery_id: id,
      number: attempts,
      attempted_at: now,
      duration_ms: result.durationMs,
      response_status: result.status,
      response_excerpt: result.excerpt,
      error: ok ? null : lastError,
    }),
  ]);
  if (!ok && !givingUp) await env.JOBS.send(deliverMessage(id, next), { delaySeconds: delay });
  return 'attempted';
}

/**
 * Starts a new retry schedule for a delivery now (Redeliver): pending, due now, counted from now, unless
 * an attempt of it is under way (then it answers false and changes nothing). Its `created_at`, when the
 * event happened, stays.
 */
export async function restartDelivery(db: DB, env: Env, id: number, now: Date): Promise<boolean> {
  const [row] = await db
    .update(webhookDeliveries)
    .set({
      status: 'pending',
      next_attempt_at: now,
      claimed_at: null,
      schedule_from: now,
      schedule_base: sql`${webhookDeliveries.attempts}`,
    })
    .where(and(eq(webhookDeliveries.id, id), unclaimed(now)))
    .returning({ id: webhookDeliveries.id });
  if (!row) return false;
  await env.JOBS.send(deliverMessage(id, now));
  return true;
}
