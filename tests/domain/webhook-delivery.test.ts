/**
 * Webhook deliveries follow their own retry schedule, one attempt at a time, through a queue that
 * behaves as Cloudflare Queues may: messages delivered at least once, a batch whose consumer failed
 * delivered again whole (acknowledged messages included), and the cron handing due deliveries over as
 * well. The clock is the simulation's, so attempt times are exact.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { and, asc, eq, sql } from 'drizzle-orm';
import { webhookDeliveries, webhookDeliveryAttempts, webhookEndpoints } from '../../drizzle/schema';
import type { Env, JobMessage } from '../../workers/env';
import type { ActorCtx } from '../../workers/domain/context';
import { Conflict } from '../../workers/domain/errors';
import { webhookEvents } from '../../workers/domain/webhooks/emit';
import {
  deliverWebhook,
  flushNewDeliveries,
  GIVE_UP_AFTER_MS,
  queueDueDeliveries,
  retryDelaySeconds,
} from '../../workers/domain/webhooks/delivery';
import { getWebhookDelivery, redeliverWebhook } from '../../workers/domain/webhooks/log';
import { createWebhookEndpoint } from '../../workers/domain/webhooks/service';
import { handleQueue } from '../../workers/jobs/consumer';
import { actorCtx, db, DEMO_ACCOUNTS, seedUk, SETUP_TIMEOUT_MS, testEnv } from '../support/world';

const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);
/**
 * The cron's period in the simulation: an hour rather than wrangler.toml's 5 minutes, so three days run
 * in a few seconds; it still hands due deliveries over while their own messages are on the queue.
 */
const CRON_MS = 3600_000;
const DOWN = 'https://unreachable.partner.example/hooks';

interface Queued {
  id: number;
  body: JobMessage;
  visibleAt: number;
}

/**
 * A queue on the simulation's clock. `send` with `delaySeconds` makes a message visible that much later;
 * `deliverEach` delivers every visible message in batches of 10 (as wrangler.toml's consumer), each
 * message twice (at least once), and the first batch's consumer "fails" after handling it, so the queue
 * delivers that whole batch again, as Cloudflare does when a consumer invocation does not finish well.
 */
class SimQueue {
  now = T0;
  private seq = 0;
  private messages: Queued[] = [];
  private failedOnce = false;

  readonly binding = {
    send: async (body: JobMessage, opts?: { delaySeconds?: number }) => this.push(body, opts?.delaySeconds),
    sendBatch: async (batch: Iterable<{ body: JobMessage; delaySeconds?: number }>) => {
      for (const m of batch) this.push(m.body, m.delaySeconds);
    },
  };

  private push(body: JobMessage, delaySeconds = 0) {
    const visibleAt = this.now + delaySeconds * 1000;
    for (let copy = 0; copy < 2; copy++) this.messages.push({ id: ++this.seq, body, visibleAt });
  }

  nextVisible(): number | null {
    return this.messages.length ? Math.min(...this.messages.map((m) => m.visibleAt)) : null;
  }

  async deliverVisible(env: Env): Promise<void> {
    for (;;) {
      const visible = this.messages.filter((m) => m.visibleAt <= this.now).slice(0, 10);
      if (!visible.length) return;
      this.messages = this.messages.filter((m) => !visible.includes(m));
      const outcome = new Map<number, number | null>(); // id → retry delay; absent: acked
      const batch = {
        queue: 'enrolment-jobs-uk',
        messages: visible.map((m) => ({
          id: String(m.id),
          timestamp: new Date(this.now),
          attempts: 1,
          body: m.body,
          ack: () => outcome.delete(m.id),
          retry: (o?: { delaySeconds?: number }) => outcome.set(m.id, o?.delaySeconds ?? 0),
        })),
        ackAll() {},
        retryAll() {},
      } as unknown as MessageBatch<JobMessage>;
      for (const m of visible) outcome.set(m.id, null);
      await handleQueue(batch, env, () => new Date(this.now));
      const wholeAgain = !this.failedOnce;
      this.failedOnce = true;
      for (const m of visible) {
        const delay = outcome.get(m.id);
        if (wholeAgain) this.messages.push({ ...m, visibleAt: this.now });
        else if (delay !== undefined) this.messages.push({ ...m, visibleAt: this.now + (delay ?? 0) * 1000 });
      }
    }
  }
}

/** Runs the queue and the cron until `until` (ms), or until the queue is empty and nothing is pending. */
async function run(q: SimQueue, env: Env, until: number): Promise<void> {
  let cron = Math.ceil(q.now / CRON_MS) * CRON_MS;
  while (q.now <= until) {
    await q.deliverVisible(env);
    if (q.nextVisible() === null) {
      const [pending] = await db()
        .select({ n: sql<number>`count(*)` })
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.status, 'pending'));
      if (!pending.n) return;
    }
    if (cron <= q.now) {
      await queueDueDeliveries(db(), env, new Date(q.now));
      cron += CRON_MS;
      continue;
    }
    q.now = Math.min(q.nextVisible() ?? Infinity, cron);
  }
}

/** The attempt times of a delivery, in seconds from `from`. */
async function attemptTimes(deliveryId: number, from: number): Promise<number[]> {
  const rows = await db()
    .select({ at: webhookDeliveryAttempts.attempted_at })
    .from(webhookDeliveryAttempts)
    .where(eq(webhookDeliveryAttempts.delivery_id, deliveryId))
    .orderBy(asc(webhookDeliveryAttempts.number));
  return rows.map((r) => (r.at.getTime() - from) / 1000);
}

/** The schedule: attempt times (s) from the first, until the next would be past three days. */
function schedule(): number[] {
  const times = [0];
  for (let n = 1; ; n++) {
    const next = times[n - 1] + retryDelaySeconds(n);
    if (next * 1000 > GIVE_UP_AFTER_MS) return times;
    times.push(next);
  }
}

let admin: ActorCtx;
let unauthorised: string;
let unreachable: string;

beforeAll(async () => {
  await seedUk();
  const env = testEnv();
  admin = await actorCtx(DEMO_ACCOUNTS.seniorAdmin);
  // One endpoint answers 401 (the test receiver, told to), one cannot be reached at all.
  unauthorised = (
    await createWebhookEndpoint(admin, {
      url: `${env.PUBLIC_URL}/dev/webhooks/partner-a?fail=401`,
      events: ['invoice.issued'],
    })
  ).id;
  unreachable = (await createWebhookEndpoint(admin, { url: DOWN, events: ['invoice.issued'] })).id;
}, SETUP_TIMEOUT_MS);

afterEach(() => {
  vi.restoreAllMocks();
});

/** The address that cannot be reached: fetch fails as it does when no connection can be made. */
function unreachableAddress() {
  const real = globalThis.fetch;
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (url.startsWith(DOWN)) throw new TypeError('Network connection lost.');
    return real(input, init);
  });
}

/** One `invoice.issued` event of the admin's company, written at `at` and handed to the queue. */
async function emitInvoiceIssued(q: SimQueue, env: Env, at: Date): Promise<Map<string, number>> {
  const companyId = admin.actor.companies[0]!.id;
  await webhookEvents(
    { db: db(), now: at },
    'invoice.issued',
    sql`SELECT ${companyId} AS company_id, NULL AS client_id, json_object('id', 'inv_sim', 'number', 'INV-1') AS data`,
  );
  await flushNewDeliveries(db(), env, at);
  const rows = await db()
    .select({ id: webhookDeliveries.id, endpoint: webhookEndpoints.public_id })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpoint_id))
    .where(eq(webhookDeliveries.created_at, at));
  return new Map(rows.map((r) => [r.endpoint, r.id]));
}

describe('webhook retries', () => {
  it('each delivery follows its own schedule, one attempt at a time, whatever the queue repeats', async () => {
    unreachableAddress();
    const q = new SimQueue();
    const env = { ...testEnv(), JOBS: q.binding } as unknown as Env;
    const ids = await emitInvoiceIssued(q, env, new Date(T0));
    expect([...ids.keys()].sort()).toEqual([unauthorised, unreachable].sort());

    await run(q, env, T0 + 4 * 24 * 3600_000);

    const expected = schedule();
    expect(expected.slice(0, 6)).toEqual([0, 5, 305, 2105, 9305, 27305]);
    for (const id of ids.values()) expect(await attemptTimes(id, T0)).toEqual(expected);
    const [answered401] = await db()
      .select()
      .from(webhookDeliveryAttempts)
      .where(eq(webhookDeliveryAttempts.delivery_id, ids.get(unauthorised)!))
      .limit(1);
    expect(answered401).toMatchObject({ response_status: 401, error: 'The endpoint answered 401.' });
    expect(answered401.duration_ms).toBeGreaterThanOrEqual(0);
    const [lost] = await db()
      .select()
      .from(webhookDeliveryAttempts)
      .where(eq(webhookDeliveryAttempts.delivery_id, ids.get(unreachable)!))
      .limit(1);
    expect(lost).toMatchObject({ response_status: null, error: 'Network connection lost.' });
    for (const id of ids.values()) {
      const [row] = await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
      expect(row).toMatchObject({ status: 'failed', attempts: expected.length, next_attempt_at: null });
      expect(row.created_at.getTime()).toBe(T0);
    }
  }, 120_000);

  it('Redeliver starts the schedule again from now, keeps when the event happened, and lists every attempt', async () => {
    unreachableAddress();
    const q = new SimQueue();
    q.now = T0 + 5 * 24 * 3600_000;
    const env = { ...testEnv(), JOBS: q.binding } as unknown as Env;
    const [row] = await db()
      .select()
      .from(webhookDeliveries)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpoint_id))
      .where(
        and(eq(webhookEndpoints.public_id, unauthorised), eq(webhookDeliveries.created_at, new Date(T0))),
      );
    const before = row.webhook_deliveries;
    expect(before.status).toBe('failed');

    const redeliveredAt = q.now;
    await redeliverWebhook({ ...admin, env, now: new Date(redeliveredAt) }, before.public_id);
    // Three attempts of the new schedule: now, 5 s and 5 min later.
    await run(q, env, redeliveredAt + 306_000);

    const detail = await getWebhookDelivery(admin, before.public_id);
    expect(detail.created_at).toBe(new Date(T0).toISOString());
    expect(detail.status).toBe('pending');
    expect(detail.attempt_log).toHaveLength(before.attempts + 3);
    expect(detail.attempt_log.map((a) => a.number)).toEqual(detail.attempt_log.map((_, i) => i + 1));
    const again = detail.attempt_log
      .slice(before.attempts)
      .map((a) => (Date.parse(a.attempted_at) - redeliveredAt) / 1000);
    expect(again).toEqual([0, 5, 305]);
    expect(detail.attempt_log.at(-1)).toMatchObject({ response_status: 401 });
    expect(detail.next_attempt_at).toBe(new Date(redeliveredAt + 2105_000).toISOString());
    expect(JSON.parse(detail.payload)).toMatchObject({ type: 'invoice.issued', data: { id: 'inv_sim' } });
  });

  it('drops a message for an attempt already made, and sends an early one again for the time left', async () => {
    const q = new SimQueue();
    const env = { ...testEnv(), JOBS: q.binding } as unknown as Env;
    const [row] = await db()
      .select({ d: webhookDeliveries })
      .from(webhookDeliveries)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpoint_id))
      .where(and(eq(webhookEndpoints.public_id, unauthorised), eq(webhookDeliveries.status, 'pending')));
    const due = row.d.next_attempt_at!.getTime();
    q.now = due - 60_000;
    expect(await deliverWebhook(db(), env, row.d.id, new Date(q.now), due)).toBe('later');
    expect(q.nextVisible()).toBe(due);
    expect(await deliverWebhook(db(), env, row.d.id, new Date(due), due - 5000)).toBe('dropped');
    expect(await deliverWebhook(db(), env, row.d.id, new Date(q.now))).toBe('dropped');
    const [after] = await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.id, row.d.id));
    expect(after.attempts).toBe(row.d.attempts);
  });

  it('refuses Redeliver while an attempt of the delivery is under way', async () => {
    const [row] = await db()
      .select({ d: webhookDeliveries })
      .from(webhookDeliveries)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpoint_id))
      .where(eq(webhookEndpoints.public_id, unreachable))
      .limit(1);
    const now = new Date();
    await db().update(webhookDeliveries).set({ claimed_at: now }).where(eq(webhookDeliveries.id, row.d.id));
    const q = new SimQueue();
    const env = { ...testEnv(), JOBS: q.binding } as unknown as Env;
    await expect(redeliverWebhook({ ...admin, env, now }, row.d.public_id)).rejects.toBeInstanceOf(Conflict);
    expect(q.nextVisible()).toBeNull();
  });
});
