import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { mfaEvents, oneTimePins, type MFA_EVENTS, type PIN_PURPOSES } from '../../../drizzle/schema';
import { constantTimeEqual, hmacSha256, randomDigits, toHex } from '../../platform/crypto';
import { runBatch, type DB, type Statement } from '../../platform/db';
import type { Env } from '../../env';
import { TooManyRequests, ValidationFailed } from '../errors';
import { msg } from '../validation';

/** One time PINs: 6 digits, single use, valid 10 minutes, 5 attempts. */
export const PIN_RULES = { length: 6, lifetimeMs: 10 * 60 * 1000, maxAttempts: 5 } as const;

export type PinPurpose = (typeof PIN_PURPOSES)[number];
export type MfaEvent = (typeof MFA_EVENTS)[number];

/** Where a request came from, kept with its MFA activity. */
export interface RequestOrigin {
  ip?: string | null;
  userAgent?: string | null;
}

/** The MFA activity row of a PIN's user (none for a PIN sent to no account). */
function mfaEvent(
  db: DB,
  pin: { user_id: number | null; purpose: PinPurpose; channel: 'email' | 'phone' },
  event: MfaEvent,
  now: Date,
  from: RequestOrigin = {},
): Statement[] {
  if (!pin.user_id) return [];
  return [
    db.insert(mfaEvents).values({
      user_id: pin.user_id,
      event,
      purpose: pin.purpose,
      channel: pin.channel,
      ip: from.ip ?? null,
      user_agent: from.userAgent?.slice(0, 500) ?? null,
      created_at: now,
    }),
  ];
}

async function hashPin(env: Pick<Env, 'SESSION_SECRET'>, purpose: string, target: string, value: string) {
  return toHex(await hmacSha256(env.SESSION_SECRET, `${purpose}:${target}:${value}`));
}

/**
 * Issues a new PIN for a purpose and target; any earlier unused PIN of the same purpose and target stops
 * working. Returns the PIN (to be sent) and the statements to run in the caller's batch.
 */
export async function issuePin(
  db: DB,
  env: Pick<Env, 'SESSION_SECRET'>,
  input: {
    purpose: PinPurpose;
    channel: 'email' | 'phone';
    target: string;
    userId?: number | null;
    now: Date;
    /** The request asking for it, for the user's MFA activity. */
    from?: RequestOrigin;
  },
): Promise<{ pin: string; statements: Statement[] }> {
  const value = randomDigits(PIN_RULES.length);
  const target = input.target.toLowerCase();
  const pin = { user_id: input.userId ?? null, purpose: input.purpose, channel: input.channel };
  return {
    pin: value,
    statements: [
      db
        .update(oneTimePins)
        .set({ used_at: input.now })
        .where(
          and(
            eq(oneTimePins.purpose, input.purpose),
            eq(oneTimePins.target, target),
            isNull(oneTimePins.used_at),
          ),
        ),
      db.insert(oneTimePins).values({
        purpose: input.purpose,
        channel: input.channel,
        target,
        user_id: input.userId ?? null,
        pin_hash: await hashPin(env, input.purpose, target, value),
        expires_at: new Date(input.now.getTime() + PIN_RULES.lifetimeMs),
        created_at: input.now,
      }),
      ...mfaEvent(db, pin, 'sent', input.now, input.from),
    ],
  };
}

/**
 * The 'verified' row of a PIN about to be spent, written only while it is unspent: run in one batch just
 * before the statement spending it, so a PIN a parallel request spent first records nothing more.
 */
function verifiedIfUnspent(db: DB, pinId: number, now: Date, from: RequestOrigin = {}): Statement {
  return db.run(sql`INSERT INTO ${mfaEvents} (user_id, event, purpose, channel, ip, user_agent, created_at)
    SELECT ${oneTimePins.user_id}, 'verified', ${oneTimePins.purpose}, ${oneTimePins.channel},
      ${from.ip ?? null}, ${from.userAgent?.slice(0, 500) ?? null}, ${now.getTime()}
    FROM ${oneTimePins}
    WHERE ${oneTimePins.id} = ${pinId} AND ${oneTimePins.used_at} IS NULL
      AND ${oneTimePins.user_id} IS NOT NULL`);
}

/**
 * Checks a PIN. Every wrong try counts; after 5 the PIN is dead and a new one must be requested. With
 * `consume` the PIN is spent on success (single use); without it, it is only checked (a step that is
 * followed by a consuming one, as in password reset).
 */
export async function checkPin(
  db: DB,
  env: Pick<Env, 'SESSION_SECRET'>,
  input: {
    purpose: PinPurpose;
    target: string;
    pin: string;
    now: Date;
    consume: boolean;
    /** The request trying it, for the user's MFA activity. */
    from?: RequestOrigin;
  },
): Promise<{ userId: number | null }> {
  const target = input.target.toLowerCase();
  const [row] = await db
    .select()
    .from(oneTimePins)
    .where(
      and(
        eq(oneTimePins.purpose, input.purpose),
        eq(oneTimePins.target, target),
        isNull(oneTimePins.used_at),
      ),
    )
    .orderBy(desc(oneTimePins.id))
    .limit(1);
  const invalid = ValidationFailed.field('pin', msg('auth.pin_invalid'));
  if (!row) throw invalid;
  const record = (event: MfaEvent) => mfaEvent(db, row, event, input.now, input.from);
  if (row.expires_at.getTime() <= input.now.getTime()) {
    await runBatch(db, record('expired'));
    throw ValidationFailed.field('pin', msg('auth.pin_expired'));
  }
  if (row.attempts >= PIN_RULES.maxAttempts) throw new TooManyRequests(msg('auth.pin_attempts'));
  const expected = await hashPin(env, input.purpose, target, input.pin);
  if (!constantTimeEqual(expected, row.pin_hash)) {
    const attempts = row.attempts + 1;
    const locked = attempts >= PIN_RULES.maxAttempts;
    await runBatch(db, [
      db.update(oneTimePins).set({ attempts }).where(eq(oneTimePins.id, row.id)),
      ...record(locked ? 'locked' : 'failed'),
    ]);
    if (locked) throw new TooManyRequests(msg('auth.pin_attempts'));
    throw invalid;
  }
  if (input.consume) {
    // Recorded and spent together; a PIN a parallel request spent first is not this request's.
    await runBatch(db, [
      verifiedIfUnspent(db, row.id, input.now, input.from),
      db
        .update(oneTimePins)
        .set({ used_at: input.now })
        .where(and(eq(oneTimePins.id, row.id), isNull(oneTimePins.used_at))),
    ]);
    const [spent] = await db
      .select({ used_at: oneTimePins.used_at })
      .from(oneTimePins)
      .where(eq(oneTimePins.id, row.id));
    if (spent?.used_at?.getTime() !== input.now.getTime()) throw invalid;
  }
  return { userId: row.user_id };
}
