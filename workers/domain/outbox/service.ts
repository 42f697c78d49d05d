import { and, desc, eq, isNull, lt, or } from 'drizzle-orm';
import { outbox } from '../../../drizzle/schema';
import type { Env, JobMessage } from '../../env';
import { chunk, type DB, type Statement } from '../../platform/db';
import { deliver } from '../../platform/mail';

export interface OutgoingMessage {
  channel: 'email' | 'sms';
  recipient: string;
  subject?: string;
  body_text: string;
  body_html?: string;
  template: string;
}

export const MAX_DELIVERY_ATTEMPTS = 5;
const CLAIM_TIMEOUT_MS = 60_000;

/**
 * Writes a message to the outbox. Returns the statement so it commits in the same batch as the change
 * that causes it; call `flushOutbox` after the batch to hand it to the queue.
 */
export function queueMessage(db: DB, now: Date, message: OutgoingMessage): Statement {
  return db
    .insert(outbox)
    .values({ ...message, recipient: message.recipient.toLowerCase(), status: 'pending', created_at: now });
}

/**
 * Outbox ids per queue message. The consumer takes up to 10 messages at a time, and each delivery is two
 * statements and (with a mail provider) one request: 25 keeps an invocation near 500 of the 1000
 * subrequests a Worker invocation may make.
 */
export const OUTBOX_IDS_PER_MESSAGE = 25;
/** At most this many messages handed over at once (a checkout's 5000 welcome emails: 200 queue messages). */
const MAX_HANDED_OVER = 5000;

/** Hands outbox rows to the queue, 25 ids per queue message and 100 queue messages per send. */
async function handOver(env: Env, ids: readonly number[]): Promise<void> {
  const messages = chunk(ids, OUTBOX_IDS_PER_MESSAGE).map((part): { body: JobMessage } => ({
    body: { type: 'outbox.deliver_many', ids: part },
  }));
  for (const send of chunk(messages, 100)) await env.JOBS.sendBatch(send);
}

/** Pending, unclaimed messages: those written at `writtenAt` (one request's own), or all of them. */
async function pendingIds(db: DB, writtenAt?: Date): Promise<number[]> {
  const pending = await db
    .select({ id: outbox.id })
    .from(outbox)
    .where(
      and(
        eq(outbox.status, 'pending'),
        isNull(outbox.claimed_at),
        writtenAt ? eq(outbox.created_at, writtenAt) : undefined,
      ),
    )
    .orderBy(outbox.id)
    .limit(MAX_HANDED_OVER);
  return pending.map((p) => p.id);
}

/**
 * Hands pending, unclaimed messages to the queue: those written at `writtenAt` (the request's own), or
 * all of them. Enqueuing one twice is harmless: delivery claims it. Answers how many were handed over.
 */
export async function flushOutbox(db: DB, env: Env, writtenAt?: Date): Promise<number> {
  const ids = await pendingIds(db, writtenAt);
  await handOver(env, ids);
  return ids.length;
}

/**
 * Sends the messages a request wrote at `writtenAt` during that request, for a message someone is
 * waiting for (a PIN): the queue is shared with bulk work (thousands of emails, hundreds of PDFs), and a
 * sign-in must never wait behind it. The outbox stays the record and the retry path: a message the
 * provider refuses or does not take now is handed to the queue, whose deliveries try it again (and the
 * cron after a lost queue message). Answers how many were sent now.
 */
export async function sendNow(db: DB, env: Env, writtenAt: Date): Promise<number> {
  const ids = await pendingIds(db, writtenAt);
  const retry: number[] = [];
  for (const id of ids) {
    try {
      await deliverOutboxMessage(db, env, id);
    } catch {
      retry.push(id);
    }
  }
  await handOver(env, retry);
  return ids.length - retry.length;
}

/**
 * Delivers one outbox message. Idempotent: the row is claimed first, so a queue message delivered twice,
 * or two consumers at once, send it once; a sent message is never sent again.
 */
export async function deliverOutboxMessage(db: DB, env: Env, id: number, now = new Date()): Promise<void> {
  const claimed = await db
    .update(outbox)
    .set({ claimed_at: now })
    .where(
      and(
        eq(outbox.id, id),
        eq(outbox.status, 'pending'),
        or(isNull(outbox.claimed_at), lt(outbox.claimed_at, new Date(now.getTime() - CLAIM_TIMEOUT_MS))),
      ),
    )
    .returning();
  const row = claimed[0];
  if (!row) return;
  try {
    await deliver(env, row);
    await db
      .update(outbox)
      .set({ status: 'sent', sent_at: now, attempts: row.attempts + 1, last_error: null })
      .where(eq(outbox.id, id));
  } catch (e) {
    const attempts = row.attempts + 1;
    await db
      .update(outbox)
      .set({
        attempts,
        claimed_at: null,
        last_error: e instanceof Error ? e.message : String(e),
        status: attempts >= MAX_DELIVERY_ATTEMPTS ? 'failed' : 'pending',
      })
      .where(eq(outbox.id, id));
    throw e;
  }
}

/** Cron: pending messages left behind (a lost queue message, a crashed consumer) go back on the queue. */
export async function redeliverStale(db: DB, env: Env, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - CLAIM_TIMEOUT_MS);
  const stale = await db
    .select({ id: outbox.id })
    .from(outbox)
    .where(
      and(
        eq(outbox.status, 'pending'),
        lt(outbox.created_at, cutoff),
        or(isNull(outbox.claimed_at), lt(outbox.claimed_at, cutoff)),
      ),
    )
    .orderBy(outbox.id)
    .limit(MAX_HANDED_OVER);
  await handOver(
    env,
    stale.map((r) => r.id),
  );
  return stale.length;
}

/** The development mailbox: the newest messages, optionally for one recipient. */
export async function listMailbox(db: DB, recipient?: string, limit = 100) {
  return db
    .select()
    .from(outbox)
    .where(recipient ? eq(outbox.recipient, recipient.toLowerCase()) : undefined)
    .orderBy(desc(outbox.id))
    .limit(limit);
}
