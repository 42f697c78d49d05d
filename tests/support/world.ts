/**
 * Test helpers: a seeded world built with the same builders as the demo seed, and contexts for acting
 * as one of its users. Only the mail provider is outside our system, and locally it records only.
 */
import { env } from 'cloudflare:test';
import { createDb, type DB } from '../../workers/platform/db';
import { loadActor, type Actor } from '../../workers/domain/access/actor';
import type { ActorCtx, Ctx } from '../../workers/domain/context';
import { seedDemo, isEmpty, DEMO_ACCOUNTS } from '../../drizzle/seed/demo';
import { restoreRows, snapshotRows, type TableRows } from './snapshot';
import { users } from '../../drizzle/schema';
import { eq } from 'drizzle-orm';
import type { Env } from '../../workers/env';

export { DEMO_ACCOUNTS };

export function testEnv(): Env {
  return env as unknown as Env;
}

export function db(): DB {
  return createDb(env.DB);
}

// Per test worker (a worker runs many files one after another, each on fresh storage): the UK demo
// rows as the first file's seed left them. On globalThis, so it outlives the module graph of one file.
const worlds = globalThis as typeof globalThis & { __ukDemoRows?: TableRows[] };

/**
 * Seeds the UK demo data into this test file's database (each file has its own storage). The seed is
 * built once per test worker; later files get the same rows copied in, which is the same data in a
 * fraction of the time (the seed hashes passwords).
 */
export async function seedUk(): Promise<DB> {
  const d = db();
  if (worlds.__ukDemoRows && (await isEmpty(d))) {
    await restoreRows(env.DB, worlds.__ukDemoRows);
    return d;
  }
  const { seeded } = await seedDemo(d, 'uk');
  if (seeded) worlds.__ukDemoRows = await snapshotRows(env.DB);
  return d;
}

export function ctx(overrides: Partial<Ctx> = {}): Ctx {
  return {
    db: db(),
    env: testEnv(),
    now: new Date(),
    actor: null,
    ip: '203.0.113.7',
    lang: 'en',
    ...overrides,
  };
}

export async function userByEmail(email: string) {
  const [u] = await db().select().from(users).where(eq(users.email, email)).limit(1);
  if (!u) throw new Error(`No user ${email}`);
  return u;
}

export async function actorFor(email: string, selectedCompanyId?: number | null): Promise<Actor> {
  const u = await userByEmail(email);
  const actor = await loadActor(db(), u.id, { selectedCompanyId });
  if (!actor) throw new Error(`${email} cannot act`);
  return actor;
}

export async function actorCtx(email: string, overrides: Partial<Ctx> = {}): Promise<ActorCtx> {
  return { ...ctx(overrides), actor: await actorFor(email) } as ActorCtx;
}

/** The newest PIN sent to an address, read from the outbox as a person reads the mailbox. */
export async function lastPinFor(recipient: string): Promise<string> {
  const { listMailbox } = await import('../../workers/domain/outbox/service');
  const [message] = await listMailbox(db(), recipient, 1);
  const match = message?.body_text.match(/\b(\d{6})\b/);
  if (!match) throw new Error(`No PIN sent to ${recipient}`);
  return match[1];
}

let addressCounter = 0;
/**
 * A network address of its own for one test, so the per-address sign-in limit of one test never
 * touches another's (all tests of a file share one database).
 */
export function uniqueIp(): string {
  addressCounter += 1;
  return `198.51.${Math.floor(addressCounter / 250)}.${(addressCounter % 250) + 1}`;
}

/** A 6-digit PIN that is certainly not `pin`. */
export function otherPin(pin: string): string {
  return String((Number(pin) + 1) % 1_000_000).padStart(6, '0');
}

/**
 * Time allowed for a file's setup (seeding, signing in): password hashing is slow by design, and
 * slower still on a busy machine.
 */
export const SETUP_TIMEOUT_MS = 120_000;
