/** The account page's sessions: listing one's own, ending them, the password change's choice. */
import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { sessions } from '../../drizzle/schema';
import { DEMO_PASSWORD, buildUser } from '../../drizzle/seed/builders';
import { describeDevice, deviceLabel } from '../../workers/domain/account/devices';
import { endOtherSessions, endOwnSession, listOwnSessions } from '../../workers/domain/account/sessions';
import { changePassword } from '../../workers/domain/auth/service';
import { SESSION_LIMITS, createSession, resolveActor } from '../../workers/domain/auth/sessions';
import { NotFound } from '../../workers/domain/errors';
import type { ActorCtx } from '../../workers/domain/context';
import { DEMO_ACCOUNTS, ctx, db, seedUk, uniqueIp, userByEmail, SETUP_TIMEOUT_MS } from '../support/world';

const CHROME_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const T0 = new Date('2026-06-01T09:00:00Z');

let people = 0;
/** A user of this test alone, so ending their sessions touches no other test. */
async function freshUser() {
  people += 1;
  const main = await userByEmail(DEMO_ACCOUNTS.finance);
  const companyIds = (
    await db().query.userCompanies.findMany({ where: (t, o) => o.eq(t.user_id, main.id) })
  ).map((c) => c.company_id);
  return buildUser(db(), {
    email: `sessions-${people}@example.test`,
    first_name: 'Session',
    last_name: 'Person',
    roles: ['finance'],
    companyIds,
  });
}

async function session(userId: number, userAgent: string | null = CHROME_WINDOWS, now = T0) {
  return createSession(db(), { userId, kind: 'web', stage: 'active', now, ip: '198.51.100.4', userAgent });
}

async function ctxOf(token: string, now = T0): Promise<ActorCtx> {
  const resolved = await resolveActor(db(), token, now);
  if (!resolved) throw new Error('session did not resolve');
  return ctx({ actor: resolved.actor, now, ip: uniqueIp() }) as ActorCtx;
}

beforeAll(async () => {
  await seedUk();
}, SETUP_TIMEOUT_MS);

describe('devices in plain words', () => {
  it('names the browser and the system from the user agent', () => {
    const cases: [string | null, string][] = [
      [CHROME_WINDOWS, 'Chrome on Windows'],
      [SAFARI_IPHONE, 'Safari on iPhone'],
      [
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Safari/605.1.15',
        'Safari on macOS',
      ],
      ['Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0', 'Firefox on Linux'],
      [
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
        'Edge on Windows',
      ],
      [
        'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
        'Chrome on Android',
      ],
      ['curl/8.5.0', 'curl'],
      [null, 'Unknown device'],
      ['Mozilla/5.0', 'Unknown device'],
    ];
    for (const [ua, label] of cases) expect(deviceLabel(describeDevice(ua)), String(ua)).toBe(label);
  });
});

describe('the user’s own sessions', () => {
  it('lists the live sessions, most recent first, marking this device; not other users’, not timed out, not waiting for a PIN', async () => {
    const user = await freshUser();
    const current = await session(user.id, CHROME_WINDOWS, new Date(T0.getTime() - 60_000));
    const phone = await session(user.id, SAFARI_IPHONE, new Date(T0.getTime() - 120_000));
    await session(user.id, CHROME_WINDOWS, new Date(T0.getTime() - SESSION_LIMITS.idleMs - 60_000));
    await createSession(db(), { userId: user.id, kind: 'web', stage: 'pin', now: T0 });
    await session((await userByEmail(DEMO_ACCOUNTS.finance)).id);
    const listed = await listOwnSessions(await ctxOf(current.token));
    expect(listed.map((s) => [s.id, s.device_label, s.current, s.ip])).toEqual([
      [current.session.id, 'Chrome on Windows', true, '198.51.100.4'],
      [phone.session.id, 'Safari on iPhone', false, '198.51.100.4'],
    ]);
  });

  it('ends one of them: its next request is refused; another user’s session is "not found"', async () => {
    const user = await freshUser();
    const current = await session(user.id);
    const other = await session(user.id, SAFARI_IPHONE);
    const c = await ctxOf(current.token);
    await endOwnSession(c, other.session.id);
    expect(await resolveActor(db(), other.token, T0)).toBeNull();
    expect(await resolveActor(db(), current.token, T0)).not.toBeNull();
    const someoneElse = await session((await userByEmail(DEMO_ACCOUNTS.finance)).id);
    await expect(endOwnSession(c, someoneElse.session.id)).rejects.toBeInstanceOf(NotFound);
    expect(await resolveActor(db(), someoneElse.token, T0)).not.toBeNull();
  });

  it('ends all the others at once, keeping this one', async () => {
    const user = await freshUser();
    const current = await session(user.id);
    const a = await session(user.id, SAFARI_IPHONE);
    const b = await createSession(db(), { userId: user.id, kind: 'api', stage: 'active', now: T0 });
    expect(await endOtherSessions(await ctxOf(current.token))).toEqual({ ended: 2 });
    expect(await resolveActor(db(), a.token, T0)).toBeNull();
    expect(await resolveActor(db(), b.token, T0)).toBeNull();
    expect(await resolveActor(db(), current.token, T0)).not.toBeNull();
  });

  it('writes last seen at most once a minute', async () => {
    const user = await freshUser();
    const { token, session: s } = await session(user.id);
    const seen = async () =>
      (await db().select().from(sessions).where(eq(sessions.id, s.id)))[0].last_seen_at.getTime();
    await resolveActor(db(), token, new Date(T0.getTime() + 30_000));
    expect(await seen()).toBe(T0.getTime());
    await resolveActor(db(), token, new Date(T0.getTime() + 61_000));
    expect(await seen()).toBe(T0.getTime() + 61_000);
  });
});

describe('changing the password', () => {
  it('offers to keep the other sessions: with false they stay signed in', async () => {
    const user = await freshUser();
    const current = await session(user.id);
    const other = await session(user.id, SAFARI_IPHONE);
    await changePassword(await ctxOf(current.token), {
      current_password: DEMO_PASSWORD,
      password: 'Kept-Sessi0ns!',
      sign_out_other_sessions: false,
    });
    expect(await resolveActor(db(), other.token, T0)).not.toBeNull();
  });

  it('signs the other sessions out when asked', async () => {
    const user = await freshUser();
    const current = await session(user.id);
    const other = await session(user.id, SAFARI_IPHONE);
    await changePassword(await ctxOf(current.token), {
      current_password: DEMO_PASSWORD,
      password: 'Ended-Sessi0ns!',
      sign_out_other_sessions: true,
    });
    expect(await resolveActor(db(), other.token, T0)).toBeNull();
    expect(await resolveActor(db(), current.token, T0)).not.toBeNull();
  });
});
