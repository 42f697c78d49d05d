import { and, eq, lt } from 'drizzle-orm';
import { sessions, type users } from '../../../drizzle/schema';
import { randomToken, sha256Hex } from '../../platform/crypto';
import type { DB } from '../../platform/db';
import { loadActor, type Actor } from '../access/actor';

/**
 * Sessions live in D1 so logout and suspension end them at once. The token (256 random bits) is given to
 * the browser (cookie) or the API client (bearer); only its SHA-256 is stored.
 */
export const SESSION_LIMITS = {
  /** Waiting for the PIN after a correct password. */
  pinStageMs: 10 * 60 * 1000,
  /** Signed out after this long without a request. */
  idleMs: 60 * 60 * 1000,
  /** Signed out after this long whatever happens. */
  absoluteMs: 12 * 60 * 60 * 1000,
  /** last_seen_at is written at most this often, to spare D1 a write per request. */
  touchEveryMs: 60 * 1000,
} as const;

export type Session = typeof sessions.$inferSelect;

export async function createSession(
  db: DB,
  input: {
    userId: number;
    kind: 'web' | 'api';
    stage: 'pin' | 'active';
    now: Date;
    ip?: string | null;
    userAgent?: string | null;
    selectedCompanyId?: number | null;
    holdsOtherRegionToken?: boolean;
  },
): Promise<{ token: string; session: Session }> {
  const token = randomToken();
  const life = input.stage === 'pin' ? SESSION_LIMITS.pinStageMs : SESSION_LIMITS.absoluteMs;
  const [session] = await db
    .insert(sessions)
    .values({
      token_hash: await sha256Hex(token),
      user_id: input.userId,
      kind: input.kind,
      stage: input.stage,
      selected_company_id: input.selectedCompanyId ?? null,
      holds_other_region_token: input.holdsOtherRegionToken ?? false,
      ip: input.ip ?? null,
      user_agent: input.userAgent?.slice(0, 300) ?? null,
      created_at: input.now,
      last_seen_at: input.now,
      expires_at: new Date(input.now.getTime() + life),
    })
    .returning();
  return { token, session };
}

/** Finds a live session by its token; expired ones are deleted on sight. */
export async function findSession(
  db: DB,
  token: string | null | undefined,
  now: Date,
  stage?: 'pin' | 'active',
): Promise<Session | null> {
  if (!token || token.length > 200) return null;
  const [session] = await db
    .select()
    .from(sessions)
    .where(eq(sessions.token_hash, await sha256Hex(token)))
    .limit(1);
  if (!session) return null;
  const idleExpired =
    session.stage === 'active' && now.getTime() - session.last_seen_at.getTime() > SESSION_LIMITS.idleMs;
  if (session.expires_at.getTime() <= now.getTime() || idleExpired) {
    await db.delete(sessions).where(eq(sessions.id, session.id));
    return null;
  }
  if (stage && session.stage !== stage) return null;
  return session;
}

/**
 * Resolves a request's actor from its session token: checks timeouts, the user's standing (archived or
 * suspended users have no actor), and refreshes the idle clock.
 */
export async function resolveActor(
  db: DB,
  token: string | null | undefined,
  now: Date,
): Promise<{ actor: Actor; session: Session } | null> {
  const session = await findSession(db, token, now, 'active');
  if (!session) return null;
  const actor = await loadActor(db, session.user_id, {
    sessionId: session.id,
    selectedCompanyId: session.selected_company_id,
    holdsOtherRegionToken: session.holds_other_region_token,
  });
  if (!actor) {
    await db.delete(sessions).where(eq(sessions.user_id, session.user_id));
    return null;
  }
  if (now.getTime() - session.last_seen_at.getTime() > SESSION_LIMITS.touchEveryMs) {
    await db.update(sessions).set({ last_seen_at: now }).where(eq(sessions.id, session.id));
  }
  return { actor, session };
}

export async function deleteSession(db: DB, token: string | null | undefined): Promise<void> {
  if (!token) return;
  await db.delete(sessions).where(eq(sessions.token_hash, await sha256Hex(token)));
}

export async function deleteSessionById(db: DB, id: number): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, id));
}

/** Ends every session of a user (suspension, password change elsewhere). */
export async function deleteUserSessions(db: DB, userId: number, exceptSessionId?: number): Promise<void> {
  const all = await db.select({ id: sessions.id }).from(sessions).where(eq(sessions.user_id, userId));
  for (const s of all) if (s.id !== exceptSessionId) await db.delete(sessions).where(eq(sessions.id, s.id));
}

export async function purgeExpiredSessions(db: DB, now: Date): Promise<void> {
  await db.delete(sessions).where(lt(sessions.expires_at, now));
  await db
    .delete(sessions)
    .where(
      and(
        eq(sessions.stage, 'active'),
        lt(sessions.last_seen_at, new Date(now.getTime() - SESSION_LIMITS.idleMs)),
      ),
    );
}

/** Whether a user row can sign in at all. */
export function canSignIn(user: typeof users.$inferSelect | undefined): boolean {
  return !!user && user.status === 'active' && !user.suspended && !!user.password_hash;
}
