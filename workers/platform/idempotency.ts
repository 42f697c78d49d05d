/**
 * The store of idempotency keys (drizzle/schema/idempotency.ts): claiming a key before a call runs,
 * keeping the call's answer, letting go of a key whose call failed, purging expired keys. The API's
 * middleware (workers/api/idempotency.ts) is its one user besides the cron.
 *
 * A claim is one statement, so of two requests with the same key arriving together exactly one claims
 * it; the other finds it running (or, once done, its answer).
 */
import { and, eq, lte, sql } from 'drizzle-orm';
import { idempotencyKeys } from '../../drizzle/schema';
import type { DB } from './db';

/** How long a key and its answer are kept (Stripe keeps them at least 24 hours). */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * How long a claim may stay running before it is taken to be abandoned (a request cut off before it
 * answered): a request with the same key may then run again. Far beyond any money call's run.
 */
export const IDEMPOTENCY_RUNNING_MS = 5 * 60 * 1000;

export interface KeptAnswer {
  status: number;
  contentType: string | null;
  body: string;
}

export type Claim =
  | { kind: 'claimed' }
  | { kind: 'answered'; answer: KeptAnswer }
  | { kind: 'running' }
  | { kind: 'other_request' };

export interface KeyRef {
  scope: string;
  key: string;
  fingerprint: string;
}

/**
 * Claims the key for this request, unless it is already held: answers the kept answer of the same
 * request, `running` while it is still running, `other_request` when the key was used for another
 * request (another fingerprint). An expired key, or a claim abandoned while running, is claimed afresh.
 */
export async function claimKey(db: DB, ref: KeyRef, now: Date): Promise<Claim> {
  const at = now.getTime();
  const claimed = await db
    .insert(idempotencyKeys)
    .values({
      scope: ref.scope,
      key: ref.key,
      fingerprint: ref.fingerprint,
      state: 'running',
      running_until: new Date(at + IDEMPOTENCY_RUNNING_MS),
      created_at: now,
      expires_at: new Date(at + IDEMPOTENCY_KEY_TTL_MS),
    })
    .onConflictDoUpdate({
      target: [idempotencyKeys.scope, idempotencyKeys.key],
      set: {
        fingerprint: ref.fingerprint,
        state: 'running',
        running_until: new Date(at + IDEMPOTENCY_RUNNING_MS),
        status: null,
        content_type: null,
        body: null,
        created_at: now,
        expires_at: new Date(at + IDEMPOTENCY_KEY_TTL_MS),
      },
      setWhere: sql`${idempotencyKeys.expires_at} <= ${at}
        OR (${idempotencyKeys.state} = 'running' AND ${idempotencyKeys.running_until} <= ${at})`,
    })
    .returning({ key: idempotencyKeys.key });
  if (claimed.length) return { kind: 'claimed' };

  const [held] = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.scope, ref.scope), eq(idempotencyKeys.key, ref.key)))
    .limit(1);
  // Let go of between the two statements (its request failed): this request may run.
  if (!held) return claimKey(db, ref, now);
  if (held.fingerprint !== ref.fingerprint) return { kind: 'other_request' };
  if (held.state === 'running' || held.status === null) return { kind: 'running' };
  return {
    kind: 'answered',
    answer: { status: held.status, contentType: held.content_type, body: held.body ?? '' },
  };
}

const heldBy = (ref: KeyRef) =>
  and(
    eq(idempotencyKeys.scope, ref.scope),
    eq(idempotencyKeys.key, ref.key),
    eq(idempotencyKeys.fingerprint, ref.fingerprint),
    eq(idempotencyKeys.state, 'running'),
  );

/** Keeps the answer of the request that claimed the key. */
export async function keepAnswer(db: DB, ref: KeyRef, answer: KeptAnswer): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({ state: 'done', status: answer.status, content_type: answer.contentType, body: answer.body })
    .where(heldBy(ref));
}

/** Lets go of the key of a request that failed before it answered, so that it can be sent again. */
export async function releaseKey(db: DB, ref: KeyRef): Promise<void> {
  await db.delete(idempotencyKeys).where(heldBy(ref));
}

/** Forgets the keys past their 24 hours (the cron). */
export async function purgeExpiredIdempotencyKeys(db: DB, now: Date): Promise<void> {
  await db.delete(idempotencyKeys).where(lte(idempotencyKeys.expires_at, now));
}
