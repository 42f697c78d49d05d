import { and, desc, eq, isNull } from 'drizzle-orm';
import { oneTimePins, type PIN_PURPOSES } from '../../../drizzle/schema';
import { constantTimeEqual, hmacSha256, randomDigits, toHex } from '../../platform/crypto';
import type { DB, Statement } from '../../platform/db';
import type { Env } from '../../env';
import { TooManyRequests, ValidationFailed } from '../errors';
import { msg } from '../validation';

/** One time PINs: 6 digits, single use, valid 10 minutes, 5 attempts. */
export const PIN_RULES = { length: 6, lifetimeMs: 10 * 60 * 1000, maxAttempts: 5 } as const;

export type PinPurpose = (typeof PIN_PURPOSES)[number];

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
  },
): Promise<{ pin: string; statements: Statement[] }> {
  const value = randomDigits(PIN_RULES.length);
  const target = input.target.toLowerCase();
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
    ],
  };
}

/**
 * Checks a PIN. Every wrong try counts; after 5 the PIN is dead and a new one must be requested. With
 * `consume` the PIN is spent on success (single use); without it, it is only checked (a step that is
 * followed by a consuming one, as in password reset).
 */
export async function checkPin(
  db: DB,
  env: Pick<Env, 'SESSION_SECRET'>,
  input: { purpose: PinPurpose; target: string; pin: string; now: Date; consume: boolean },
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
  if (row.expires_at.getTime() <= input.now.getTime())
    throw ValidationFailed.field('pin', msg('auth.pin_expired'));
  if (row.attempts >= PIN_RULES.maxAttempts) throw new TooManyRequests(msg('auth.pin_attempts'));
  const expected = await hashPin(env, input.purpose, target, input.pin);
  if (!constantTimeEqual(expected, row.pin_hash)) {
    const attempts = row.attempts + 1;
    await db.update(oneTimePins).set({ attempts }).where(eq(oneTimePins.id, row.id));
    if (attempts >= PIN_RULES.maxAttempts) throw new TooManyRequests(msg('auth.pin_attempts'));
    throw invalid;
  }
  if (input.consume) {
    const spent = await db
      .update(oneTimePins)
      .set({ used_at: input.now })
      .where(and(eq(oneTimePins.id, row.id), isNull(oneTimePins.used_at)))
      .returning({ id: oneTimePins.id });
    if (!spent.length) throw invalid;
  }
  return { userId: row.user_id };
}
