/**
 * The MFA activity a one-time PIN leaves (workers/domain/auth/pins.ts): one row when it is sent and one
 * per try (verified, wrong, expired, the wrong try that locks it), with the request's address and user
 * agent; a PIN spent once records one verification however often it is presented; a PIN sent to no
 * account records nothing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { mfaEvents } from '../../drizzle/schema';
import { PIN_RULES, checkPin, issuePin } from '../../workers/domain/auth/pins';
import { runBatch } from '../../workers/platform/db';
import {
  db,
  DEMO_ACCOUNTS,
  otherPin,
  seedUk,
  SETUP_TIMEOUT_MS,
  testEnv,
  userByEmail,
} from '../support/world';

const T0 = new Date('2026-03-02T09:00:00Z');
const FROM = {
  ip: '198.51.100.9',
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
};

let userId: number;
let targets = 0;

beforeAll(async () => {
  await seedUk();
  userId = (await userByEmail(DEMO_ACCOUNTS.admin)).id;
}, SETUP_TIMEOUT_MS);

/** A PIN of the admin's to a target of its own, sent at `now`. */
async function send(now = T0) {
  targets += 1;
  const target = `mfa-${targets}@example.test`;
  const { pin, statements } = await issuePin(db(), testEnv(), {
    purpose: 'login',
    channel: 'email',
    target,
    userId,
    now,
    from: FROM,
  });
  await runBatch(db(), statements);
  return { pin, target };
}

const tryPin = (target: string, pin: string, now: Date) =>
  checkPin(db(), testEnv(), { purpose: 'login', target, pin, now, consume: true, from: FROM }).catch(
    (e: Error) => e,
  );

async function eventsSince(since: Date) {
  const rows = await db()
    .select()
    .from(mfaEvents)
    .where(eq(mfaEvents.user_id, userId))
    .orderBy(asc(mfaEvents.id));
  return rows.filter((r) => r.created_at >= since);
}

describe('MFA activity of one-time PINs', () => {
  it('records the PIN sent, a wrong try and the verification, with where they came from', async () => {
    const start = new Date(T0.getTime() + 1000);
    const { pin, target } = await send(start);
    await tryPin(target, otherPin(pin), new Date(start.getTime() + 1000));
    expect(await tryPin(target, pin, new Date(start.getTime() + 2000))).toEqual({ userId });
    // Spent: presenting it again is refused and records nothing more.
    await tryPin(target, pin, new Date(start.getTime() + 3000));
    const rows = await eventsSince(start);
    expect(rows.map((r) => r.event)).toEqual(['sent', 'failed', 'verified']);
    for (const r of rows)
      expect(r).toMatchObject({
        purpose: 'login',
        channel: 'email',
        ip: FROM.ip,
        user_agent: FROM.userAgent,
      });
    expect(rows.map((r) => r.created_at.getTime() - start.getTime())).toEqual([0, 1000, 2000]);
  });

  it('records the wrong try that uses up the attempts as locked, and a try after expiry as expired', async () => {
    const start = new Date(T0.getTime() + 60_000);
    const { pin, target } = await send(start);
    for (let i = 1; i <= PIN_RULES.maxAttempts; i++)
      await tryPin(target, otherPin(pin), new Date(start.getTime() + i * 1000));
    const late = new Date(start.getTime() + 30_000);
    const second = await send(late);
    await tryPin(second.target, second.pin, new Date(late.getTime() + PIN_RULES.lifetimeMs + 1));
    expect((await eventsSince(start)).map((r) => r.event)).toEqual([
      'sent',
      ...Array(PIN_RULES.maxAttempts - 1).fill('failed'),
      'locked',
      'sent',
      'expired',
    ]);
  });

  it('records nothing for a PIN sent to no account', async () => {
    const before = (await db().select().from(mfaEvents)).length;
    const { statements } = await issuePin(db(), testEnv(), {
      purpose: 'verify_email',
      channel: 'email',
      target: 'nobody@example.test',
      now: T0,
      from: FROM,
    });
    await runBatch(db(), statements);
    expect((await db().select().from(mfaEvents)).length).toBe(before);
  });
});
