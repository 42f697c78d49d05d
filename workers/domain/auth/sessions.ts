import { and, eq, inArray, lt, ne, or } from 'drizzle-orm';
import { sessions, type users } from '../../../drizzle/schema';
import { randomToken, sha256Hex } from '../../platform/crypto';
import { runBatch, type DB, type Statement } from '../../platform/db';
import { loadActor, type Actor } from '../access/actor';
import { maySupportView } from '../access/support';

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
  /** A support view (the spec's other-user token) ends this long after its last refresh. */
  supportMs: 5 * 60 * 1000,
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
    /** A support view: the senior admin and the session of theirs it was opened from. */
    support?: { adminId: number; parentSessionId: number };
  },
): Promise<{ token: string; session: Session }> {
  const token = randomToken();
  const life = input.support
    ? SESSION_LIMITS.supportMs
    : input.stage === 'pin'
      ? SESSION_LIMITS.pinStageMs
      : SESSION_LIMITS.absoluteMs;
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
      support_admin_id: input.support?.adminId ?? null,
      parent_session_id: input.support?.parentSessionId ?? null,
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
    session.stage === 'active' &&
    !session.support_admin_id &&
    now.getTime() - session.last_seen_at.getTime() > SESSION_LIMITS.idleMs;
  if (session.expires_at.getTime() <= now.getTime() || idleExpired) {
    await deleteSessionById(db, session.id);
    return null;
  }
  if (stage && session.stage !== stage) return null;
  return session;
}

export interface ResolvedSession {
  actor: Actor;
  session: Session;
  /** In a support view: the senior admin viewing the portal as `actor`. */
  supportAdmin?: Actor;
}

/**
 * Resolves a request's actor from its session token: checks timeouts, the user's standing (archived or
 * suspended users have no actor), and refreshes the idle clock. A support view's token resolves to the
 * viewed user, with `supportAdmin` set, while the admin's own session lives and the admin may still.
 */
export async function resolveActor(
  db: DB,
  token: string | null | undefined,
  now: Date,
): Promise<ResolvedSession | null> {
  const session = await findSession(db, token, now, 'active');
  if (!session) return null;
  if (session.support_admin_id) return resolveSupport(db, session, now);
  const actor = await loadActor(db, session.user_id, {
    sessionId: session.id,
    selectedCompanyId: session.selected_company_id,
    holdsOtherRegionToken: session.holds_other_region_token,
  });
  if (!actor) {
    await deleteUserSessions(db, session.user_id);
    return null;
  }
  if (now.getTime() - session.last_seen_at.getTime() > SESSION_LIMITS.touchEveryMs) {
    await db.update(sessions).set({ last_seen_at: now }).where(eq(sessions.id, session.id));
  }
  return { actor, session };
}

/**
 * A page request: the browser's own session (`sid`) and, when a support view is open in it, the view's
 * token (`view_as`). The view counts only if it was opened from this very session; `viewEnded` says the
 * browser still holds a view that has ended (its cookie can go).
 */
export async function resolvePageActor(
  db: DB,
  token: string | null | undefined,
  viewAsToken: string | null | undefined,
  now: Date,
): Promise<(ResolvedSession & { viewEnded?: boolean }) | null> {
  const own = await resolveActor(db, token, now);
  if (!own || !viewAsToken || own.supportAdmin) return own;
  const view = await findSession(db, viewAsToken, now, 'active');
  const resolved =
    view?.support_admin_id && view.parent_session_id === own.session.id
      ? await resolveSupport(db, view, now, own)
      : null;
  return resolved ?? { ...own, viewEnded: true };
}

async function resolveSupport(
  db: DB,
  session: Session,
  now: Date,
  parentResolved?: ResolvedSession,
): Promise<ResolvedSession | null> {
  const parent = parentResolved ?? (await resolveParent(db, session, now));
  const actor =
    parent &&
    parent.actor.user_id === session.support_admin_id &&
    parent.session.created_at.getTime() <= session.created_at.getTime()
      ? await loadActor(db, session.user_id, {
          sessionId: session.id,
          selectedCompanyId: session.selected_company_id,
          supportAdminId: parent.actor.user_id,
        })
      : null;
  if (!parent || !actor || !maySupportView(parent.actor, actor)) {
    await deleteSessionById(db, session.id);
    return null;
  }
  // Refreshed while in use: the expiry moves 5 minutes on, written at most once a minute.
  const age = SESSION_LIMITS.supportMs - (session.expires_at.getTime() - now.getTime());
  if (age > SESSION_LIMITS.touchEveryMs) {
    await db
      .update(sessions)
      .set({ last_seen_at: now, expires_at: new Date(now.getTime() + SESSION_LIMITS.supportMs) })
      .where(eq(sessions.id, session.id));
  }
  return { actor, session, supportAdmin: parent.actor };
}

/** The admin's own session a support view hangs from, resolved (its idle clock refreshed) if it lives. */
async function resolveParent(db: DB, session: Session, now: Date): Promise<ResolvedSession | null> {
  if (!session.parent_session_id) return null;
  const [parent] = await db
    .select()
    .from(sessions)
    .where(eq(sessions.id, session.parent_session_id))
    .limit(1);
  if (!parent || parent.support_admin_id || parent.stage !== 'active') return null;
  if (
    parent.expires_at.getTime() <= now.getTime() ||
    now.getTime() - parent.last_seen_at.getTime() > SESSION_LIMITS.idleMs
  )
    return null;
  const actor = await loadActor(db, parent.user_id, {
    sessionId: parent.id,
    selectedCompanyId: parent.selected_company_id,
  });
  if (!actor) return null;
  if (now.getTime() - parent.last_seen_at.getTime() > SESSION_LIMITS.touchEveryMs) {
    await db.update(sessions).set({ last_seen_at: now }).where(eq(sessions.id, parent.id));
  }
  return { actor, session: parent };
}

export async function deleteSession(db: DB, token: string | null | undefined): Promise<void> {
  if (!token) return;
  const hash = await sha256Hex(token);
  await db.batch([
    db
      .delete(sessions)
      .where(
        inArray(
          sessions.parent_session_id,
          db.select({ id: sessions.id }).from(sessions).where(eq(sessions.token_hash, hash)),
        ),
      ),
    db.delete(sessions).where(eq(sessions.token_hash, hash)),
  ]);
}

/** The statement ending one session and any support view opened from it, for a caller's batch. */
export function sessionDeletion(db: DB, id: number): Statement {
  return db.delete(sessions).where(or(eq(sessions.id, id), eq(sessions.parent_session_id, id)));
}

/** Ends one session and any support view opened from it. */
export async function deleteSessionById(db: DB, id: number): Promise<void> {
  await sessionDeletion(db, id);
}

/**
 * The statements ending every session of a user but `exceptSessionId`, support views of them included,
 * and any support view opened from the ended sessions; for a caller's batch.
 */
export function userSessionsDeletion(db: DB, userId: number, exceptSessionId?: number): Statement[] {
  const ended = and(
    eq(sessions.user_id, userId),
    exceptSessionId === undefined ? undefined : ne(sessions.id, exceptSessionId),
  );
  return [
    db
      .delete(sessions)
      .where(inArray(sessions.parent_session_id, db.select({ id: sessions.id }).from(sessions).where(ended))),
    db.delete(sessions).where(ended),
  ];
}

/** Ends every session of a user (suspension, archiving, a password change elsewhere); see userSessionsDeletion. */
export async function deleteUserSessions(db: DB, userId: number, exceptSessionId?: number): Promise<void> {
  await runBatch(db, userSessionsDeletion(db, userId, exceptSessionId));
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
