import { and, asc, eq, isNull, ne, type SQL } from 'drizzle-orm';
import { contactMessages, invitations, sessions, users } from '../../../drizzle/schema';
import { runBatch, type Statement } from '../../platform/db';
import { randomToken, sha256Hex } from '../../platform/crypto';
import { hashPassword, needsRehash, verifyPassword } from '../../platform/auth/password';
import { hit, clear, peek } from '../../platform/rate-limit';
import { loadLanguages, translate } from '../../platform/i18n';
import { requireActor, type Actor } from '../access/actor';
import { refuseInSupportView } from '../access/support';
import { logActivity } from '../audit/activity-log';
import type { Ctx } from '../context';
import { NotFound, TooManyRequests, Unauthenticated, ValidationFailed } from '../errors';
import { flushOutbox, queueMessage, sendNow } from '../outbox/service';
import { msg } from '../validation';
import { checkPin, issuePin } from './pins';
import {
  canSignIn,
  createSession,
  deleteSession,
  deleteUserSessions,
  findSession,
  resolveActor,
} from './sessions';

/**
 * Sign-in attempt limits, in a 15 minute window: every attempt on one account counts (a success clears
 * it); from one network address only the FAILED attempts count, so a school's staff behind one address
 * can all sign in while guessing from it is still stopped.
 */
export const SIGN_IN_LIMITS = { windowMs: 15 * 60 * 1000, perAccount: 5, perAddress: 30 } as const;

const SUPPORT_EMAIL = 'support@enrolment-portal.test';

function tooManyAttempts() {
  return new TooManyRequests(msg('auth.too_many_attempts'), SIGN_IN_LIMITS.windowMs / 1000);
}

async function limit(ctx: Ctx, keys: { key: string; max: number }[]) {
  for (const { key, max } of keys) {
    const count = await hit(ctx.db, key, SIGN_IN_LIMITS.windowMs, ctx.now);
    if (count > max) throw tooManyAttempts();
  }
}

/**
 * Runs one credential check (password or PIN) under the per-address limit of failures: refused once the
 * address has failed `perAddress` times in the window; a refusal of the check counts one failure.
 */
async function failuresPerAddress<T>(ctx: Ctx, kind: 'signin' | 'pin', check: () => Promise<T>): Promise<T> {
  const key = `${kind}:ip:${ctx.ip ?? 'unknown'}`;
  if ((await peek(ctx.db, key, SIGN_IN_LIMITS.windowMs, ctx.now)) >= SIGN_IN_LIMITS.perAddress) {
    throw tooManyAttempts();
  }
  try {
    return await check();
  } catch (error) {
    if (error instanceof ValidationFailed || error instanceof TooManyRequests) {
      await hit(ctx.db, key, SIGN_IN_LIMITS.windowMs, ctx.now);
    }
    throw error;
  }
}

function lang(ctx: Ctx, fallback?: string) {
  return ctx.lang ?? fallback ?? 'en';
}

function pinEmail(
  ctx: Ctx,
  to: string,
  pin: string,
  purpose: 'login' | 'verify' | 'reset',
  language: string,
) {
  const t = (k: string, p?: Record<string, string | number>) => translate(language, k, p);
  const product = ctx.env.PRODUCT_NAME;
  return queueMessage(ctx.db, ctx.now, {
    channel: 'email',
    recipient: to,
    template: `pin.${purpose}`,
    subject: t(`email.pin_${purpose}_subject`, { product }),
    body_text: t(`email.pin_${purpose}_body`, { pin, minutes: 10, product }),
  });
}

function pinSms(ctx: Ctx, to: string, pin: string, purpose: 'verify' | 'reset', language: string) {
  return queueMessage(ctx.db, ctx.now, {
    channel: 'sms',
    recipient: to,
    template: `pin.${purpose}.sms`,
    body_text: translate(language, `sms.pin_${purpose}`, { pin, minutes: 10, product: ctx.env.PRODUCT_NAME }),
  });
}

async function findUserByEmail(ctx: Ctx, email: string) {
  const [user] = await ctx.db.select().from(users).where(eq(users.email, email.toLowerCase())).limit(1);
  return user;
}

/** Step 1 of the login form: the email is only checked for shape; whether an account exists is not revealed. */
export function normaliseEmail(email: string) {
  return email.trim().toLowerCase();
}

/**
 * Checks email and password, with attempt limits; one message whatever was wrong. Only after the right
 * password is a suspended user told so, and whom to ask (suspended: an active account, with a password).
 */
async function verifyCredentials(ctx: Ctx, input: { email: string; password: string }) {
  const email = normaliseEmail(input.email);
  const user = await failuresPerAddress(ctx, 'signin', async () => {
    await limit(ctx, [{ key: `signin:account:${email}`, max: SIGN_IN_LIMITS.perAccount }]);
    const found = await findUserByEmail(ctx, email);
    const ok = await verifyPassword(input.password, found?.password_hash);
    if (!ok || !found || !(canSignIn(found) || canSignIn({ ...found, suspended: false }))) {
      throw ValidationFailed.field('password', msg('auth.invalid_credentials'));
    }
    return found;
  });
  if (user.suspended) throw ValidationFailed.field('password', await suspendedMessage(ctx, user));
  if (needsRehash(user.password_hash!)) {
    await ctx.db
      .update(users)
      .set({ password_hash: await hashPassword(input.password) })
      .where(eq(users.id, user.id));
  }
  return user;
}

/**
 * What a suspended user is told: their account is suspended, and whom to ask to lift it. A school user's
 * staff are suspended by the school's master user, so one of them is named; none left, the school's
 * administrator in general.
 */
async function suspendedMessage(ctx: Ctx, user: typeof users.$inferSelect): Promise<string> {
  const [admin] = user.client_id
    ? await ctx.db
        .select({ first_name: users.first_name, last_name: users.last_name, email: users.email })
        .from(users)
        .where(
          and(
            eq(users.client_id, user.client_id),
            eq(users.is_master_user, true),
            eq(users.status, 'active'),
            eq(users.suspended, false),
            ne(users.id, user.id),
          ),
        )
        .orderBy(asc(users.id))
        .limit(1)
    : [];
  return admin
    ? msg('auth.account_suspended', {
        name: `${admin.first_name} ${admin.last_name}`.trim(),
        email: admin.email,
      })
    : msg('auth.account_suspended_no_contact');
}

async function sendLoginPin(ctx: Ctx, user: typeof users.$inferSelect) {
  const { pin, statements } = await issuePin(ctx.db, ctx.env, {
    from: ctx,
    purpose: 'login',
    channel: 'email',
    target: user.email,
    userId: user.id,
    now: ctx.now,
  });
  await loadLanguages([user.preferred_lang]);
  await runBatch(ctx.db, [...statements, pinEmail(ctx, user.email, pin, 'login', user.preferred_lang)]);
  await sendNow(ctx.db, ctx.env, ctx.now);
}

/**
 * Email and password in the browser. On success a PIN goes to the user's email and a short "waiting for
 * PIN" session is created; its token is what the PIN step presents.
 */
export async function startSignIn(
  ctx: Ctx,
  input: { email: string; password: string },
): Promise<{ pendingToken: string; userId: number }> {
  const user = await verifyCredentials(ctx, input);
  await sendLoginPin(ctx, user);
  const { token } = await createSession(ctx.db, {
    userId: user.id,
    kind: 'web',
    stage: 'pin',
    now: ctx.now,
    ip: ctx.ip,
    userAgent: ctx.userAgent,
  });
  return { pendingToken: token, userId: user.id };
}

/**
 * Sign-in over the API: without `pin` the PIN is emailed and the answer says so; with it (and the same
 * email and password) a bearer token is issued.
 */
export async function apiSignIn(
  ctx: Ctx,
  input: { email: string; password: string; pin?: string },
): Promise<{ pin_required: true } | { token: string; actor: Actor }> {
  const user = await verifyCredentials(ctx, input);
  if (!input.pin) {
    await sendLoginPin(ctx, user);
    return { pin_required: true };
  }
  const pin = input.pin;
  await failuresPerAddress(ctx, 'pin', () =>
    checkPin(ctx.db, ctx.env, {
      from: ctx,
      purpose: 'login',
      target: user.email,
      pin,
      now: ctx.now,
      consume: true,
    }),
  );
  return openSession(ctx, user.id, 'api');
}

/** Sends a fresh login PIN for a session waiting for one. */
export async function resendLoginPin(ctx: Ctx, pendingToken: string | null | undefined): Promise<void> {
  const session = await findSession(ctx.db, pendingToken, ctx.now, 'pin');
  if (!session) throw new Unauthenticated(msg('auth.session_expired'));
  await limit(ctx, [{ key: `pin-resend:${session.user_id}`, max: 5 }]);
  const [user] = await ctx.db.select().from(users).where(eq(users.id, session.user_id)).limit(1);
  if (!canSignIn(user)) throw new Unauthenticated(msg('auth.session_expired'));
  await sendLoginPin(ctx, user);
}

/**
 * Step 3: the PIN. The waiting session is replaced by a new one (the id rotates), so a token seen before
 * the PIN is worth nothing after it.
 */
export async function completeSignIn(
  ctx: Ctx,
  input: { pendingToken: string | null | undefined; pin: string },
): Promise<{ token: string; actor: Actor }> {
  const pending = await findSession(ctx.db, input.pendingToken, ctx.now, 'pin');
  if (!pending) throw new Unauthenticated(msg('auth.session_expired'));
  const [user] = await ctx.db.select().from(users).where(eq(users.id, pending.user_id)).limit(1);
  if (!canSignIn(user)) throw new Unauthenticated(msg('auth.session_expired'));
  await failuresPerAddress(ctx, 'pin', () =>
    checkPin(ctx.db, ctx.env, {
      from: ctx,
      purpose: 'login',
      target: user.email,
      pin: input.pin,
      now: ctx.now,
      consume: true,
    }),
  );
  return openSession(ctx, user.id, pending.kind, { replaceSessionId: pending.id });
}

/** Creates the signed-in session and records the sign-in. */
async function openSession(
  ctx: Ctx,
  userId: number,
  kind: 'web' | 'api',
  opts: { replaceSessionId?: number; holdsOtherRegionToken?: boolean } = {},
): Promise<{ token: string; actor: Actor }> {
  if (opts.replaceSessionId) await ctx.db.delete(sessions).where(eq(sessions.id, opts.replaceSessionId));
  const [user] = await ctx.db.select().from(users).where(eq(users.id, userId)).limit(1);
  const { token, session } = await createSession(ctx.db, {
    userId,
    kind,
    stage: 'active',
    now: ctx.now,
    ip: ctx.ip,
    userAgent: ctx.userAgent,
    selectedCompanyId: user.selected_company_id,
    holdsOtherRegionToken: opts.holdsOtherRegionToken,
  });
  const resolved = await resolveActor(ctx.db, token, ctx.now);
  if (!resolved) throw new Unauthenticated(msg('auth.session_expired'));
  await runBatch(ctx.db, [
    ctx.db.update(users).set({ last_login_at: ctx.now }).where(eq(users.id, userId)),
    logActivity(
      { ...ctx, actor: resolved.actor },
      { entity_type: 'user', entity_id: userId, action: 'signed_in', after: { kind, session: session.id } },
    ),
  ]);
  await clear(ctx.db, `signin:account:${user.email}`);
  return { token, actor: resolved.actor };
}

/** Signs a user in without a password, after a trusted proof (the other region's hand-over). */
export async function signInTrusted(
  ctx: Ctx,
  userId: number,
  kind: 'web' | 'api',
  opts: { holdsOtherRegionToken?: boolean } = {},
) {
  return openSession(ctx, userId, kind, opts);
}

/** Ends the session on the server: the token stops working at once. */
export async function signOut(ctx: Ctx, token: string | null | undefined): Promise<void> {
  await deleteSession(ctx.db, token);
}

/** Contact-us from the login-help dialog: stored and sent to support through the outbox. */
export async function sendContactMessage(
  ctx: Ctx,
  input: { first_name: string; last_name: string; email: string; reason: string },
): Promise<void> {
  await limit(ctx, [{ key: `contact:ip:${ctx.ip ?? 'unknown'}`, max: 10 }]);
  await runBatch(ctx.db, [
    ctx.db.insert(contactMessages).values({ ...input, ip: ctx.ip ?? null, created_at: ctx.now }),
    queueMessage(ctx.db, ctx.now, {
      channel: 'email',
      recipient: SUPPORT_EMAIL,
      template: 'contact_us',
      subject: `Login help request from ${input.first_name} ${input.last_name}`,
      body_text: `${input.first_name} ${input.last_name} <${input.email}> asks for help signing in:\n\n${input.reason}`,
    }),
  ]);
  await flushOutbox(ctx.db, ctx.env, ctx.now);
}

// ---------------------------------------------------------------- forgot and reset password

async function findUserByPhone(ctx: Ctx, phoneCountry: string, phoneNumber: string) {
  const [user] = await ctx.db
    .select()
    .from(users)
    .where(and(eq(users.phone_country, phoneCountry.toUpperCase()), eq(users.phone_number, phoneNumber)))
    .limit(1);
  return user;
}

export const phoneTarget = (country: string, number: string) => `${country.toUpperCase()}:${number}`;

/**
 * Sends a reset PIN by email or SMS when an account matches. The answer is the same either way, so the
 * form cannot be used to find out who has an account.
 */
export async function requestPasswordReset(
  ctx: Ctx,
  input:
    { method: 'email'; email: string } | { method: 'phone'; phone_country: string; phone_number: string },
): Promise<void> {
  const key = input.method === 'email' ? input.email : phoneTarget(input.phone_country, input.phone_number);
  await limit(ctx, [
    { key: `reset:${key}`, max: 5 },
    { key: `reset:ip:${ctx.ip ?? 'unknown'}`, max: SIGN_IN_LIMITS.perAddress },
  ]);
  const user =
    input.method === 'email'
      ? await findUserByEmail(ctx, input.email)
      : await findUserByPhone(ctx, input.phone_country, input.phone_number);
  if (!user || user.status !== 'active' || user.suspended) return;
  const purpose = input.method === 'email' ? 'reset_email' : 'reset_phone';
  const target = input.method === 'email' ? user.email : key;
  const { pin, statements } = await issuePin(ctx.db, ctx.env, {
    from: ctx,
    purpose,
    channel: input.method,
    target,
    userId: user.id,
    now: ctx.now,
  });
  await loadLanguages([user.preferred_lang]);
  const message =
    input.method === 'email'
      ? pinEmail(ctx, user.email, pin, 'reset', user.preferred_lang)
      : pinSms(ctx, key, pin, 'reset', user.preferred_lang);
  await runBatch(ctx.db, [...statements, message]);
  await sendNow(ctx.db, ctx.env, ctx.now);
}

type ResetTarget = { email: string } | { phone_country: string; phone_number: string };

function resetKey(target: ResetTarget): { purpose: 'reset_email' | 'reset_phone'; target: string } {
  return 'email' in target
    ? { purpose: 'reset_email', target: target.email.toLowerCase() }
    : { purpose: 'reset_phone', target: phoneTarget(target.phone_country, target.phone_number) };
}

/** Checks a reset PIN without spending it (the reset itself spends it). */
export async function verifyResetPin(ctx: Ctx, input: ResetTarget & { pin: string }): Promise<void> {
  const { purpose, target } = resetKey(input);
  await checkPin(ctx.db, ctx.env, {
    from: ctx,
    purpose,
    target,
    pin: input.pin,
    now: ctx.now,
    consume: false,
  });
}

/** Sets the new password with a valid reset PIN; every session of the user ends. */
export async function resetPassword(
  ctx: Ctx,
  input: ResetTarget & { pin: string; password: string },
): Promise<void> {
  const { purpose, target } = resetKey(input);
  const { userId } = await checkPin(ctx.db, ctx.env, {
    from: ctx,
    purpose,
    target,
    pin: input.pin,
    now: ctx.now,
    consume: true,
  });
  if (!userId) throw new NotFound();
  await runBatch(ctx.db, [
    ctx.db
      .update(users)
      .set({
        password_hash: await hashPassword(input.password),
        password_changed_at: ctx.now,
        updated_at: ctx.now,
      })
      .where(eq(users.id, userId)),
    logActivity(ctx, { entity_type: 'user', entity_id: userId, action: 'password_reset' }),
  ]);
  await deleteUserSessions(ctx.db, userId);
}

/**
 * Changes the signed-in user's password (account details). The user's other sessions end unless
 * `sign_out_other_sessions` is false; this one stays. Not in a support view.
 */
export async function changePassword(
  ctx: Ctx,
  input: { current_password: string; password: string; sign_out_other_sessions?: boolean },
): Promise<void> {
  const actor = requireActor(ctx.actor);
  refuseInSupportView(actor);
  const [user] = await ctx.db.select().from(users).where(eq(users.id, actor.user_id)).limit(1);
  await limit(ctx, [{ key: `change-password:${actor.user_id}`, max: SIGN_IN_LIMITS.perAccount }]);
  if (!(await verifyPassword(input.current_password, user.password_hash))) {
    throw ValidationFailed.field('current_password', msg('auth.current_password_wrong'));
  }
  await runBatch(ctx.db, [
    ctx.db
      .update(users)
      .set({
        password_hash: await hashPassword(input.password),
        password_changed_at: ctx.now,
        updated_at: ctx.now,
      })
      .where(eq(users.id, actor.user_id)),
    logActivity(ctx, {
      entity_type: 'user',
      entity_id: actor.user_id,
      action: 'password_changed',
      after: { other_sessions_ended: input.sign_out_other_sessions !== false },
    }),
  ]);
  if (input.sign_out_other_sessions !== false)
    await deleteUserSessions(ctx.db, actor.user_id, actor.session_id ?? undefined);
}

// ---------------------------------------------------------------- invitations

export const INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Creates an invitation for a user row in status "invited" (the users screens, the seed and tests).
 * Returns the token for the link `/invite/sign-up?token=...`.
 */
export async function createInvitation(ctx: Ctx, userId: number): Promise<string> {
  const [user] = await ctx.db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!user) throw new NotFound();
  const { token, statements } = await invitationStatements(ctx, user);
  await runBatch(ctx.db, statements);
  await flushOutbox(ctx.db, ctx.env, ctx.now);
  return token;
}

/**
 * The statements of a new invitation and its email (for the caller's own batch; flush the outbox after):
 * any earlier open invitation of the user is revoked, so only the newest link works.
 */
export async function invitationStatements(
  ctx: Ctx,
  user: { id: number | SQL<number>; email: string; first_name: string; preferred_lang: string },
): Promise<{ token: string; statements: Statement[] }> {
  const token = randomToken();
  const link = `${ctx.env.PUBLIC_URL}/invite/sign-up?token=${token}`;
  await loadLanguages([user.preferred_lang]);
  const t = (k: string, p?: Record<string, string | number>) => translate(user.preferred_lang, k, p);
  return {
    token,
    statements: [
      ctx.db
        .update(invitations)
        .set({ revoked_at: ctx.now })
        .where(
          and(
            eq(invitations.user_id, user.id),
            isNull(invitations.accepted_at),
            isNull(invitations.revoked_at),
          ),
        ),
      ctx.db.insert(invitations).values({
        token_hash: await sha256Hex(token),
        user_id: user.id,
        invited_by: ctx.actor?.user_id ?? null,
        expires_at: new Date(ctx.now.getTime() + INVITATION_LIFETIME_MS),
        created_at: ctx.now,
      }),
      queueMessage(ctx.db, ctx.now, {
        channel: 'email',
        recipient: user.email,
        template: 'invitation',
        subject: t('email.invitation_subject', { product: ctx.env.PRODUCT_NAME }),
        body_text: t('email.invitation_body', { name: user.first_name, link, product: ctx.env.PRODUCT_NAME }),
      }),
    ],
  };
}

export interface InvitationState {
  invitation_id: number;
  user_id: number;
  email: string;
  first_name: string;
  last_name: string;
  password_set: boolean;
  email_verified: boolean;
  phone_country: string | null;
  phone_number: string | null;
  phone_verified: boolean;
}

/** Why an invitation link does not open (the invitation page says which). */
export type InvitationRefusal =
  'auth.invitation_invalid' | 'auth.invitation_used' | 'auth.invitation_revoked' | 'auth.invitation_expired';

/**
 * Looks an invitation up by its token, for its page: the open invitation, or why the link does not open it
 * (unknown, used, revoked or expired).
 */
export async function lookUpInvitation(
  ctx: Ctx,
  token: string | null | undefined,
): Promise<
  { invitation: InvitationState; refused: null } | { invitation: null; refused: InvitationRefusal }
> {
  const refuse = (refused: InvitationRefusal) => ({ invitation: null, refused }) as const;
  if (!token) return refuse('auth.invitation_invalid');
  const [row] = await ctx.db
    .select({ invitation: invitations, user: users })
    .from(invitations)
    .innerJoin(users, eq(users.id, invitations.user_id))
    .where(eq(invitations.token_hash, await sha256Hex(token)))
    .limit(1);
  if (!row) return refuse('auth.invitation_invalid');
  if (row.invitation.accepted_at) return refuse('auth.invitation_used');
  if (row.invitation.revoked_at) return refuse('auth.invitation_revoked');
  if (row.invitation.expires_at.getTime() <= ctx.now.getTime()) return refuse('auth.invitation_expired');
  if (row.user.status !== 'invited') return refuse('auth.invitation_invalid');
  return {
    refused: null,
    invitation: {
      invitation_id: row.invitation.id,
      user_id: row.user.id,
      email: row.user.email,
      first_name: row.user.first_name,
      last_name: row.user.last_name,
      password_set: !!row.user.password_hash,
      email_verified: !!row.user.email_verified_at,
      phone_country: row.user.phone_country,
      phone_number: row.user.phone_number,
      phone_verified: !!row.user.phone_verified_at,
    },
  };
}

/**
 * Reads an open invitation by its token. An unknown token answers "not found"; a used, revoked or expired
 * one answers "not found" with a message that says which.
 */
export async function getInvitation(ctx: Ctx, token: string | null | undefined): Promise<InvitationState> {
  const found = await lookUpInvitation(ctx, token);
  if (found.refused) throw new NotFound(msg(found.refused));
  return found.invitation;
}

export async function updateInvitedName(
  ctx: Ctx,
  token: string,
  input: { first_name: string; last_name: string },
) {
  const inv = await getInvitation(ctx, token);
  await ctx.db
    .update(users)
    .set({ ...input, updated_at: ctx.now })
    .where(eq(users.id, inv.user_id));
}

/** Invitation step: the password (the spec's rules are in the schema). */
export async function setInvitedPassword(ctx: Ctx, token: string, password: string) {
  const inv = await getInvitation(ctx, token);
  await ctx.db
    .update(users)
    .set({ password_hash: await hashPassword(password), password_changed_at: ctx.now, updated_at: ctx.now })
    .where(eq(users.id, inv.user_id));
}

export async function sendInviteEmailPin(ctx: Ctx, token: string) {
  const inv = await getInvitation(ctx, token);
  await limit(ctx, [{ key: `verify-email:${inv.email}`, max: 5 }]);
  const { pin, statements } = await issuePin(ctx.db, ctx.env, {
    from: ctx,
    purpose: 'verify_email',
    channel: 'email',
    target: inv.email,
    userId: inv.user_id,
    now: ctx.now,
  });
  await loadLanguages([lang(ctx)]);
  await runBatch(ctx.db, [...statements, pinEmail(ctx, inv.email, pin, 'verify', lang(ctx))]);
  await sendNow(ctx.db, ctx.env, ctx.now);
}

export async function verifyInviteEmail(ctx: Ctx, token: string, pin: string) {
  const inv = await getInvitation(ctx, token);
  await checkPin(ctx.db, ctx.env, {
    from: ctx,
    purpose: 'verify_email',
    target: inv.email,
    pin,
    now: ctx.now,
    consume: true,
  });
  await ctx.db.update(users).set({ email_verified_at: ctx.now }).where(eq(users.id, inv.user_id));
}

export async function setInvitePhone(
  ctx: Ctx,
  token: string,
  input: { phone_country: string; phone_number: string },
) {
  const inv = await getInvitation(ctx, token);
  const target = phoneTarget(input.phone_country, input.phone_number);
  await limit(ctx, [{ key: `verify-phone:${inv.user_id}`, max: 5 }]);
  const { pin, statements } = await issuePin(ctx.db, ctx.env, {
    from: ctx,
    purpose: 'verify_phone',
    channel: 'phone',
    target,
    userId: inv.user_id,
    now: ctx.now,
  });
  await loadLanguages([lang(ctx)]);
  await runBatch(ctx.db, [
    ctx.db
      .update(users)
      .set({
        phone_country: input.phone_country.toUpperCase(),
        phone_number: input.phone_number,
        phone_verified_at: null,
      })
      .where(eq(users.id, inv.user_id)),
    ...statements,
    pinSms(ctx, target, pin, 'verify', lang(ctx)),
  ]);
  await sendNow(ctx.db, ctx.env, ctx.now);
}

/**
 * Last invitation step: the phone PIN. The invitation is accepted, the user becomes active and is signed
 * in (they proved their password, email and phone just now).
 */
export async function completeInvitation(ctx: Ctx, token: string, pin: string, kind: 'web' | 'api' = 'web') {
  const inv = await getInvitation(ctx, token);
  if (!inv.password_set || !inv.email_verified || !inv.phone_country || !inv.phone_number) {
    throw ValidationFailed.field('pin', msg('auth.invitation_incomplete'));
  }
  await checkPin(ctx.db, ctx.env, {
    from: ctx,
    purpose: 'verify_phone',
    target: phoneTarget(inv.phone_country, inv.phone_number),
    pin,
    now: ctx.now,
    consume: true,
  });
  await runBatch(ctx.db, [
    ctx.db
      .update(users)
      .set({ phone_verified_at: ctx.now, status: 'active', updated_at: ctx.now })
      .where(eq(users.id, inv.user_id)),
    ctx.db.update(invitations).set({ accepted_at: ctx.now }).where(eq(invitations.id, inv.invitation_id)),
    logActivity(ctx, {
      entity_type: 'user',
      entity_id: inv.user_id,
      action: 'invitation_accepted',
      before: { status: 'invited' },
      after: { status: 'active' },
    }),
  ]);
  return openSession(ctx, inv.user_id, kind);
}

/** Whether an address or phone has been verified (the catalogue's verification-status calls). */
export async function verificationStatus(
  ctx: Ctx,
  input: { email: string } | { phone_country: string; phone_number: string },
): Promise<{ verified: boolean }> {
  const user =
    'email' in input
      ? await findUserByEmail(ctx, input.email)
      : await findUserByPhone(ctx, input.phone_country, input.phone_number);
  if (!user) return { verified: false };
  return { verified: 'email' in input ? !!user.email_verified_at : !!user.phone_verified_at };
}
