import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import { activityLogs, outbox, sessions, users } from '../../drizzle/schema';
import type { Env, JobMessage } from '../../workers/env';
import { DEMO_PASSWORD, buildUser } from '../../drizzle/seed/builders';
import {
  SIGN_IN_LIMITS,
  changePassword,
  completeSignIn,
  requestPasswordReset,
  resetPassword,
  signOut,
  startSignIn,
} from '../../workers/domain/auth/service';
import { SESSION_LIMITS, createSession, findSession, resolveActor } from '../../workers/domain/auth/sessions';
import { TooManyRequests, Unauthenticated, ValidationFailed } from '../../workers/domain/errors';
import { verifyPassword } from '../../workers/platform/auth/password';
import { hit } from '../../workers/platform/rate-limit';
import { parseMessage } from '../../workers/domain/messages';
import { translate } from '../../workers/platform/i18n';
import {
  DEMO_ACCOUNTS,
  ctx,
  db,
  lastPinFor,
  otherPin,
  seedUk,
  uniqueIp,
  userByEmail,
  SETUP_TIMEOUT_MS,
  testEnv,
} from '../support/world';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

let people = 0;
/** A company user of this test alone, so changing their password or standing touches no other test. */
async function freshUser() {
  people += 1;
  const d = db();
  const main = await userByEmail(DEMO_ACCOUNTS.admin);
  const companyIds = (
    await d.query.userCompanies.findMany({ where: (t, o) => o.eq(t.user_id, main.id) })
  ).map((c) => c.company_id);
  return buildUser(d, {
    email: `signin-${people}@example.test`,
    first_name: 'Test',
    last_name: 'Person',
    roles: ['finance'],
    companyIds,
  });
}

async function activeSession(userId: number, now = new Date()) {
  return createSession(db(), { userId, kind: 'web', stage: 'active', now });
}

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (e) {
    return e;
  }
  throw new Error('expected the call to be refused');
}

async function expectInvalidCredentials(promise: Promise<unknown>) {
  const error = await failureOf(promise);
  expect(error).toBeInstanceOf(ValidationFailed);
  expect((error as ValidationFailed).errors).toEqual([
    { key: 'password', message: 'auth.invalid_credentials' },
  ]);
}

beforeAll(async () => {
  await seedUk();
}, SETUP_TIMEOUT_MS);

describe('sign-in with password and PIN', () => {
  it('rotates the session at the PIN: the pending token stops working and the new token resolves the actor', async () => {
    const c = ctx({ ip: uniqueIp() });
    const { pendingToken, userId } = await startSignIn(c, {
      email: DEMO_ACCOUNTS.finance,
      password: DEMO_PASSWORD,
    });
    // Before the PIN the pending token is not a signed-in session.
    expect(await resolveActor(db(), pendingToken, c.now)).toBeNull();

    const pin = await lastPinFor(DEMO_ACCOUNTS.finance);
    const { token, actor } = await completeSignIn(c, { pendingToken, pin });
    expect(token).not.toBe(pendingToken);
    expect(actor.user_id).toBe(userId);

    expect(await findSession(db(), pendingToken, c.now)).toBeNull();
    const resolved = await resolveActor(db(), token, c.now);
    expect(resolved?.actor.email).toBe(DEMO_ACCOUNTS.finance);
    expect(resolved?.actor.permissions.has('read_billing')).toBe(true);

    expect(await failureOf(completeSignIn(c, { pendingToken, pin }))).toBeInstanceOf(Unauthenticated);
  });

  it('records the sign-in: last login time and an activity-log row', async () => {
    const user = await freshUser();
    const c = ctx({ ip: uniqueIp(), now: new Date('2026-05-01T08:00:00Z') });
    const { pendingToken } = await startSignIn(c, { email: user.email, password: DEMO_PASSWORD });
    await completeSignIn(c, { pendingToken, pin: await lastPinFor(user.email) });
    const after = await userByEmail(user.email);
    expect(after.last_login_at?.toISOString()).toBe('2026-05-01T08:00:00.000Z');
    const logs = await db().select().from(activityLogs).where(eq(activityLogs.entity_id, user.id));
    expect(logs.map((l) => [l.entity_type, l.action, l.actor_user_id])).toContainEqual([
      'user',
      'signed_in',
      user.id,
    ]);
  });

  it('accepts the email in any letter case', async () => {
    const c = ctx({ ip: uniqueIp() });
    const { userId } = await startSignIn(c, {
      email: `  ${DEMO_ACCOUNTS.external.toUpperCase()} `,
      password: DEMO_PASSWORD,
    });
    expect(userId).toBe((await userByEmail(DEMO_ACCOUNTS.external)).id);
  });

  it('refuses a wrong password and an unknown email with the same auth.invalid_credentials, and sends no PIN', async () => {
    const before = await db().select().from(outbox);
    await expectInvalidCredentials(
      startSignIn(ctx({ ip: uniqueIp() }), { email: DEMO_ACCOUNTS.executive, password: 'Wrong-Passw0rd!' }),
    );
    await expectInvalidCredentials(
      startSignIn(ctx({ ip: uniqueIp() }), { email: 'nobody@demo.test', password: DEMO_PASSWORD }),
    );
    expect(await db().select().from(outbox)).toHaveLength(before.length);
  });

  it('refuses the right password of an archived or invited user with the same message', async () => {
    const archived = await freshUser();
    await db().update(users).set({ status: 'archived' }).where(eq(users.id, archived.id));
    const invited = await freshUser();
    await db().update(users).set({ status: 'invited' }).where(eq(users.id, invited.id));
    for (const u of [archived, invited]) {
      await expectInvalidCredentials(
        startSignIn(ctx({ ip: uniqueIp() }), { email: u.email, password: DEMO_PASSWORD }),
      );
    }
  });

  it('tells a suspended user so only after the right password, and whom to ask', async () => {
    const suspended = await freshUser();
    await db().update(users).set({ suspended: true }).where(eq(users.id, suspended.id));
    await expectInvalidCredentials(
      startSignIn(ctx({ ip: uniqueIp() }), { email: suspended.email, password: 'not-the-password-1' }),
    );
    const error = await failureOf(
      startSignIn(ctx({ ip: uniqueIp() }), { email: suspended.email, password: DEMO_PASSWORD }),
    );
    expect((error as ValidationFailed).errors).toEqual([
      { key: 'password', message: 'auth.account_suspended_no_contact' },
    ]);
    expect(await db().select().from(sessions).where(eq(sessions.user_id, suspended.id))).toEqual([]);

    // A school's staff member is told the name and address of the school's master user.
    const master = await userByEmail(DEMO_ACCOUNTS.schoolAdmin);
    const staff = await buildUser(db(), {
      email: `signin-staff-${++people}@example.test`,
      first_name: 'Sam',
      last_name: 'Staff',
      roles: ['school_employee'],
      clientId: master.client_id!,
    });
    await db().update(users).set({ suspended: true }).where(eq(users.id, staff.id));
    const told = await failureOf(
      startSignIn(ctx({ ip: uniqueIp() }), { email: staff.email, password: DEMO_PASSWORD }),
    );
    const { key, params } = parseMessage((told as ValidationFailed).errors[0].message);
    expect(key).toBe('auth.account_suspended');
    expect(params).toEqual({ name: `${master.first_name} ${master.last_name}`, email: master.email });
    expect(translate('en', key, params)).toBe(
      `Your account has been suspended. Please ask ${master.first_name} ${master.last_name} (${master.email}), your school's administrator, to restore your access.`,
    );
  });

  it('refuses a wrong PIN and keeps the pending session for the next try', async () => {
    const c = ctx({ ip: uniqueIp() });
    const user = await freshUser();
    const { pendingToken } = await startSignIn(c, { email: user.email, password: DEMO_PASSWORD });
    const pin = await lastPinFor(user.email);
    const wrong = pin === '000000' ? '000001' : '000000';
    const error = await failureOf(completeSignIn(c, { pendingToken, pin: wrong }));
    expect((error as ValidationFailed).errors).toEqual([{ key: 'pin', message: 'auth.pin_invalid' }]);
    await expect(completeSignIn(c, { pendingToken, pin })).resolves.toMatchObject({
      actor: { user_id: user.id },
    });
  });

  it('refuses the PIN step once the pending session is 10 minutes old', async () => {
    const user = await freshUser();
    const t0 = new Date('2026-05-01T10:00:00Z');
    const { token } = await createSession(db(), { userId: user.id, kind: 'web', stage: 'pin', now: t0 });
    const error = await failureOf(
      completeSignIn(ctx({ now: new Date(t0.getTime() + SESSION_LIMITS.pinStageMs) }), {
        pendingToken: token,
        pin: '123456',
      }),
    );
    expect(error).toBeInstanceOf(Unauthenticated);
  });

  it('refuses the PIN step for a user suspended after giving the password', async () => {
    const c = ctx({ ip: uniqueIp() });
    const user = await freshUser();
    const { pendingToken } = await startSignIn(c, { email: user.email, password: DEMO_PASSWORD });
    const pin = await lastPinFor(user.email);
    await db().update(users).set({ suspended: true }).where(eq(users.id, user.id));
    expect(await failureOf(completeSignIn(c, { pendingToken, pin }))).toBeInstanceOf(Unauthenticated);
  });
});

describe('sign-in attempt limits', () => {
  it('refuses the 6th attempt on one account within 15 minutes, even with the right password and from new addresses', async () => {
    const user = await freshUser();
    const t0 = new Date('2026-06-01T09:00:00Z');
    for (let i = 0; i < SIGN_IN_LIMITS.perAccount; i++) {
      await expectInvalidCredentials(
        startSignIn(ctx({ ip: uniqueIp(), now: new Date(t0.getTime() + i * 1000) }), {
          email: user.email,
          password: 'Wrong-Passw0rd!',
        }),
      );
    }
    const sixth = await failureOf(
      startSignIn(ctx({ ip: uniqueIp(), now: new Date(t0.getTime() + 10 * MINUTE) }), {
        email: user.email,
        password: DEMO_PASSWORD,
      }),
    );
    expect(sixth).toBeInstanceOf(TooManyRequests);
    expect((sixth as TooManyRequests).message).toBe('auth.too_many_attempts');

    // A new window opens after 15 minutes.
    await expect(
      startSignIn(ctx({ ip: uniqueIp(), now: new Date(t0.getTime() + SIGN_IN_LIMITS.windowMs + MINUTE) }), {
        email: user.email,
        password: DEMO_PASSWORD,
      }),
    ).resolves.toMatchObject({ userId: user.id });
  });

  it('lets more staff than the failure limit sign in from one address (password and PIN): successes do not count', async () => {
    const ip = uniqueIp();
    const t0 = new Date('2026-06-02T08:00:00Z');
    const staff = [];
    // Five more people than the address may fail: a hundred would prove no more, at three times the cost.
    for (let i = 0; i < SIGN_IN_LIMITS.perAddress + 5; i++) staff.push(await freshUser());
    for (const [i, person] of staff.entries()) {
      const at = ctx({ ip, now: new Date(t0.getTime() + i * 1000) });
      const { pendingToken } = await startSignIn(at, { email: person.email, password: DEMO_PASSWORD });
      const signedIn = await completeSignIn(at, { pendingToken, pin: await lastPinFor(person.email) });
      expect(signedIn.actor.user_id).toBe(person.id);
    }
    // Real password checks (scrypt) take a while on a busy machine: a generous limit, no timing asserted.
  }, 300_000);

  it('refuses the 31st failed attempt from one address, on any account and even with the right password', async () => {
    const ip = uniqueIp();
    const t0 = new Date('2026-06-03T09:00:00Z');
    // Earlier failures from this address counted straight into the limiter, then the last one the limit
    // allows, a real wrong guess, which counts too.
    for (let i = 0; i < SIGN_IN_LIMITS.perAddress - 1; i++) {
      await hit(db(), `signin:ip:${ip}`, SIGN_IN_LIMITS.windowMs, t0);
    }
    await expectInvalidCredentials(
      startSignIn(ctx({ ip, now: t0 }), { email: 'guess@demo.test', password: DEMO_PASSWORD }),
    );
    const person = await freshUser();
    const refused = await failureOf(
      startSignIn(ctx({ ip, now: t0 }), { email: person.email, password: DEMO_PASSWORD }),
    );
    expect(refused).toBeInstanceOf(TooManyRequests);
    // Another address is not affected, and the address opens again in the next window.
    await expect(
      startSignIn(ctx({ ip: uniqueIp(), now: t0 }), { email: person.email, password: DEMO_PASSWORD }),
    ).resolves.toMatchObject({ userId: person.id });
    await expect(
      startSignIn(ctx({ ip, now: new Date(t0.getTime() + SIGN_IN_LIMITS.windowMs + MINUTE) }), {
        email: person.email,
        password: DEMO_PASSWORD,
      }),
    ).resolves.toMatchObject({ userId: person.id });
  }, 300_000);

  it('counts wrong PINs from one address: past the limit the PIN step is refused, a right PIN too', async () => {
    const ip = uniqueIp();
    const t0 = new Date('2026-06-04T09:00:00Z');
    const person = await freshUser();
    const at = ctx({ ip, now: t0 });
    const { pendingToken } = await startSignIn(at, { email: person.email, password: DEMO_PASSWORD });
    const pin = await lastPinFor(person.email);
    // Earlier wrong PINs from this address (on other people's PINs), counted straight into the limiter.
    for (let i = 0; i < SIGN_IN_LIMITS.perAddress - 1; i++) {
      await hit(db(), `pin:ip:${ip}`, SIGN_IN_LIMITS.windowMs, t0);
    }
    const wrong = await failureOf(completeSignIn(at, { pendingToken, pin: otherPin(pin) }));
    expect(wrong).toBeInstanceOf(ValidationFailed);
    expect(await failureOf(completeSignIn(at, { pendingToken, pin }))).toBeInstanceOf(TooManyRequests);
    await expect(
      completeSignIn(ctx({ ip: uniqueIp(), now: t0 }), { pendingToken, pin }),
    ).resolves.toMatchObject({ actor: { user_id: person.id } });
  });
});

describe('session lifetime', () => {
  it('ends a session after 60 minutes without a request, and each request restarts that clock', async () => {
    const user = await freshUser();
    const t0 = new Date('2026-07-01T09:00:00Z');
    const { token, session } = await activeSession(user.id, t0);
    const at = (ms: number) => new Date(t0.getTime() + ms);

    expect(await resolveActor(db(), token, at(59 * MINUTE))).not.toBeNull();
    expect(await resolveActor(db(), token, at(118 * MINUTE))).not.toBeNull();
    expect(await resolveActor(db(), token, at(118 * MINUTE + SESSION_LIMITS.idleMs + 1))).toBeNull();
    expect(await db().select().from(sessions).where(eq(sessions.id, session.id))).toEqual([]);
  });

  it('ends a session 12 hours after it began, however busy', async () => {
    const user = await freshUser();
    const t0 = new Date('2026-07-02T07:00:00Z');
    const { token } = await activeSession(user.id, t0);
    let t = t0.getTime();
    while (t + 50 * MINUTE < t0.getTime() + SESSION_LIMITS.absoluteMs) {
      t += 50 * MINUTE;
      expect(await resolveActor(db(), token, new Date(t))).not.toBeNull();
    }
    expect(SESSION_LIMITS.absoluteMs).toBe(12 * HOUR);
    expect(await resolveActor(db(), token, new Date(t0.getTime() + 12 * HOUR))).toBeNull();
  });

  it('signOut ends the session on the server: the token no longer resolves', async () => {
    const user = await freshUser();
    const { token, session } = await activeSession(user.id);
    expect(await resolveActor(db(), token, new Date())).not.toBeNull();
    await signOut(ctx(), token);
    expect(await resolveActor(db(), token, new Date())).toBeNull();
    expect(await db().select().from(sessions).where(eq(sessions.id, session.id))).toEqual([]);
  });

  it('ends every session of a user who is suspended, at their next request', async () => {
    const user = await freshUser();
    const a = await activeSession(user.id);
    const b = await activeSession(user.id);
    expect(await resolveActor(db(), a.token, new Date())).not.toBeNull();
    await db().update(users).set({ suspended: true }).where(eq(users.id, user.id));
    expect(await resolveActor(db(), a.token, new Date())).toBeNull();
    // Lifting the suspension does not bring the old sessions back.
    await db().update(users).set({ suspended: false }).where(eq(users.id, user.id));
    expect(await resolveActor(db(), b.token, new Date())).toBeNull();
  });

  it('ends resolution at once for an archived user', async () => {
    const user = await freshUser();
    const { token } = await activeSession(user.id);
    expect(await resolveActor(db(), token, new Date())).not.toBeNull();
    await db().update(users).set({ status: 'archived' }).where(eq(users.id, user.id));
    expect(await resolveActor(db(), token, new Date())).toBeNull();
  });
});

describe('password change and reset', () => {
  it('changePassword keeps the current session and ends the user’s other sessions', async () => {
    const user = await freshUser();
    const current = await activeSession(user.id);
    const other = await activeSession(user.id);
    const resolved = await resolveActor(db(), current.token, new Date());
    await changePassword(ctx({ actor: resolved!.actor, ip: uniqueIp() }), {
      current_password: DEMO_PASSWORD,
      password: 'Changed-Passw0rd!',
    });
    expect(await resolveActor(db(), current.token, new Date())).not.toBeNull();
    expect(await resolveActor(db(), other.token, new Date())).toBeNull();
    const after = await userByEmail(user.email);
    expect(await verifyPassword('Changed-Passw0rd!', after.password_hash)).toBe(true);
  });

  it('changePassword refuses a wrong current password and ends nothing', async () => {
    const user = await freshUser();
    const current = await activeSession(user.id);
    const other = await activeSession(user.id);
    const resolved = await resolveActor(db(), current.token, new Date());
    const error = await failureOf(
      changePassword(ctx({ actor: resolved!.actor, ip: uniqueIp() }), {
        current_password: 'Not-The-Passw0rd!',
        password: 'Changed-Passw0rd!',
      }),
    );
    expect((error as ValidationFailed).errors).toEqual([
      { key: 'current_password', message: 'auth.current_password_wrong' },
    ]);
    expect(await resolveActor(db(), other.token, new Date())).not.toBeNull();
  });

  it('resetPassword with the emailed PIN sets the password and ends every session; the PIN is single use', async () => {
    const user = await freshUser();
    const a = await activeSession(user.id);
    const b = await activeSession(user.id);
    const c = ctx({ ip: uniqueIp() });
    await requestPasswordReset(c, { method: 'email', email: user.email });
    const pin = await lastPinFor(user.email);
    await resetPassword(c, { email: user.email, pin, password: 'Reset-Passw0rd!' });
    expect(await resolveActor(db(), a.token, new Date())).toBeNull();
    expect(await resolveActor(db(), b.token, new Date())).toBeNull();
    const after = await userByEmail(user.email);
    expect(await verifyPassword('Reset-Passw0rd!', after.password_hash)).toBe(true);
    const again = await failureOf(resetPassword(c, { email: user.email, pin, password: 'Again-Passw0rd!' }));
    expect((again as ValidationFailed).errors).toEqual([{ key: 'pin', message: 'auth.pin_invalid' }]);
  });

  it('requestPasswordReset answers the same for an unknown address and sends nothing', async () => {
    const before = await db().select().from(outbox);
    await expect(
      requestPasswordReset(ctx({ ip: uniqueIp() }), { method: 'email', email: 'ghost@demo.test' }),
    ).resolves.toBeUndefined();
    expect(await db().select().from(outbox)).toHaveLength(before.length);
  });
});

/**
 * The jobs queue is shared with bulk work (welcome emails, invoice and document ZIPs), so a PIN that
 * waited on it could wait minutes. It is sent during the request; the queue is only its retry path.
 */
describe('the PIN is sent during the request', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** A queue that records what is handed to it and delivers nothing. */
  function recordingQueue() {
    const handed: JobMessage[] = [];
    const queue = {
      send: async (m: JobMessage) => void handed.push(m),
      sendBatch: async (ms: { body: JobMessage }[]) => void handed.push(...ms.map((m) => m.body)),
    };
    return { handed, queue: queue as unknown as Env['JOBS'] };
  }

  async function newestMessageTo(email: string) {
    const [row] = await db()
      .select()
      .from(outbox)
      .where(eq(outbox.recipient, email))
      .orderBy(desc(outbox.id))
      .limit(1);
    return row;
  }

  it('a sign-in PIN is sent when the password step answers, with nothing put on the queue', async () => {
    const user = await freshUser();
    const { handed, queue } = recordingQueue();
    await startSignIn(ctx({ ip: uniqueIp(), env: { ...testEnv(), JOBS: queue } }), {
      email: user.email,
      password: DEMO_PASSWORD,
    });
    const message = await newestMessageTo(user.email);
    expect(message).toMatchObject({ template: 'pin.login', status: 'sent', attempts: 1 });
    expect(handed).toEqual([]);
  });

  it('a password-reset PIN is sent at once too', async () => {
    const user = await freshUser();
    const { handed, queue } = recordingQueue();
    await requestPasswordReset(ctx({ ip: uniqueIp(), env: { ...testEnv(), JOBS: queue } }), {
      method: 'email',
      email: user.email,
    });
    expect(await newestMessageTo(user.email)).toMatchObject({ template: 'pin.reset', status: 'sent' });
    expect(handed).toEqual([]);
  });

  it('a PIN the mail provider refuses stays pending and goes to the queue to be tried again', async () => {
    const user = await freshUser();
    const { handed, queue } = recordingQueue();
    // The mail provider is outside our system: a stub that refuses.
    const provider = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation(async () => new Response('', { status: 503 }));
    const env = { ...testEnv(), JOBS: queue, MAIL_API_URL: 'https://mail-provider.test/send' } as Env;
    await startSignIn(ctx({ ip: uniqueIp(), env }), { email: user.email, password: DEMO_PASSWORD });
    expect(provider).toHaveBeenCalledTimes(1);
    const message = await newestMessageTo(user.email);
    expect(message).toMatchObject({
      template: 'pin.login',
      status: 'pending',
      attempts: 1,
      claimed_at: null,
    });
    expect(handed).toEqual([{ type: 'outbox.deliver_many', ids: [message.id] }]);
  });
});
