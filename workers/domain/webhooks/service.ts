import { and, count, desc, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import { webhookDeliveries, webhookEndpoints, companies, clients } from '../../../drizzle/schema';
import type { Env } from '../../env';
import { isLocalHttp, isProduction } from '../../env';
import { publicId } from '../../platform/crypto';
import { chunk, type DB } from '../../platform/db';
import { sendWebhook } from '../../platform/webhook-transport';
import { requireActor, type Actor } from '../access/actor';
import { canManagePartnerAccess } from '../access/api-keys';
import { companyForNewRecord } from '../access/finders';
import { visibleWebhookEndpoints } from '../access/scope';
import { logActivity } from '../audit/activity-log';
import type { ActorCtx } from '../context';
import { Forbidden, NotFound, ValidationFailed } from '../errors';
import { meta, type Page } from '../list-query';
import { msg } from '../messages';
import type { DeliveryQuery, WebhookEndpointInput } from './schema';
import { newWebhookSecret, signedHeaders } from './signing';

/**
 * Retries (Standard Webhooks' schedule, then every 12 hours): after an attempt fails, the next one waits
 * the n-th of these; a delivery that has not succeeded three days after it was made is failed.
 */
export const RETRY_DELAYS_S = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 10 * 3600];
export const RETRY_MAX_DELAY_S = 12 * 3600;
export const GIVE_UP_AFTER_MS = 3 * 24 * 3600 * 1000;
const CLAIM_TIMEOUT_MS = 60_000;
const ATTEMPT_TIMEOUT_MS = 15_000;
const EXCERPT_LENGTH = 500;

export interface EndpointRow {
  id: string;
  url: string;
  description: string | null;
  events: string[];
  secret: string;
  status: 'active' | 'disabled';
  owner: string;
  created_at: string;
}

export interface DeliveryRow {
  id: string;
  endpoint_id: string;
  endpoint_url: string;
  event_type: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  response_status: number | null;
  response_excerpt: string | null;
  last_error: string | null;
  last_attempt_at: string | null;
  next_attempt_at: string | null;
  created_at: string;
}

function requireManager(ctx: ActorCtx): Actor {
  const actor = requireActor(ctx.actor);
  if (!canManagePartnerAccess(actor)) throw new Forbidden();
  return actor;
}

/**
 * Endpoints must be https. Where the portal itself runs on local http (development), its own test
 * receiver's http address is allowed too, so the whole flow runs with no network.
 */
function checkAddress(env: Env, address: string): void {
  const u = new URL(address);
  if (u.protocol === 'https:') return;
  if (!isProduction(env) && isLocalHttp(env) && address.startsWith(`${env.PUBLIC_URL}/dev/webhooks/`)) return;
  throw ValidationFailed.field('url', msg('webhooks.errors.https'));
}

export async function listWebhookEndpoints(ctx: ActorCtx): Promise<EndpointRow[]> {
  const actor = requireManager(ctx);
  const rows = await ctx.db
    .select({
      e: webhookEndpoints,
      company: sql<string>`${companies.name}`.as('company_name'),
      client: sql<string | null>`${clients.name}`.as('client_name'),
    })
    .from(webhookEndpoints)
    .innerJoin(companies, eq(companies.id, webhookEndpoints.company_id))
    .leftJoin(clients, eq(clients.id, webhookEndpoints.client_id))
    .where(and(visibleWebhookEndpoints(actor), eq(webhookEndpoints.status, 'active')))
    .orderBy(desc(webhookEndpoints.created_at), desc(webhookEndpoints.id))
    .limit(100);
  return rows.map((r) => ({
    id: r.e.public_id,
    url: r.e.url,
    description: r.e.description,
    events: r.e.events,
    secret: r.e.secret,
    status: r.e.status,
    owner: r.client ?? r.company,
    created_at: r.e.created_at.toISOString(),
  }));
}

/** Registers an endpoint of the actor's company (company users) or school (school users). */
export async function createWebhookEndpoint(
  ctx: ActorCtx,
  input: WebhookEndpointInput,
): Promise<EndpointRow> {
  const actor = requireManager(ctx);
  checkAddress(ctx.env, input.url);
  let companyId: number;
  let clientId: number | null = null;
  if (actor.user_type === 'company') {
    const chosen = companyForNewRecord(actor, input.company_id);
    if (chosen === 'invalid' || chosen === 'required')
      throw ValidationFailed.field('company_id', msg(`api_keys.errors.company_${chosen}`));
    companyId = chosen;
  } else {
    if (!actor.companies[0] || !actor.client_id) throw new Forbidden();
    companyId = actor.companies[0].id;
    clientId = actor.client_id;
  }
  const id = publicId();
  const events = [...new Set(input.events)];
  await ctx.db.batch([
    ctx.db.insert(webhookEndpoints).values({
      public_id: id,
      url: input.url,
      description: input.description ?? null,
      events,
      secret: newWebhookSecret(),
      company_id: companyId,
      client_id: clientId,
      created_by: actor.user_id,
      created_at: ctx.now,
      updated_at: ctx.now,
    }),
    logActivity(ctx, {
      entity_type: 'webhook_endpoint',
      entity_id: sql<number>`(SELECT id FROM webhook_endpoints WHERE public_id = ${id})`,
      action: 'created',
      after: { url: input.url, events },
      company_id: companyId,
      client_id: clientId,
    }),
  ]);
  const row = (await listWebhookEndpoints(ctx)).find((e) => e.id === id);
  if (!row) throw new NotFound();
  return row;
}

async function findEndpoint(ctx: ActorCtx, id: string) {
  const actor = requireManager(ctx);
  const [row] = await ctx.db
    .select()
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.public_id, id),
        eq(webhookEndpoints.status, 'active'),
        visibleWebhookEndpoints(actor),
      ),
    )
    .limit(1);
  if (!row) throw new NotFound(msg('webhooks.errors.not_found'));
  return row;
}

/** Removes an endpoint: it gets no more events; its pending deliveries stop. Its log stays. */
export async function deleteWebhookEndpoint(ctx: ActorCtx, id: string): Promise<void> {
  const row = await findEndpoint(ctx, id);
  await ctx.db.batch([
    ctx.db
      .update(webhookEndpoints)
      .set({ status: 'disabled', updated_at: ctx.now })
      .where(eq(webhookEndpoints.id, row.id)),
    ctx.db
      .update(webhookDeliveries)
      .set({ status: 'failed', last_error: 'The endpoint was removed.', next_attempt_at: null })
      .where(and(eq(webhookDeliveries.endpoint_id, row.id), eq(webhookDeliveries.status, 'pending'))),
    logActivity(ctx, {
      entity_type: 'webhook_endpoint',
      entity_id: row.id,
      action: 'deleted',
      before: { status: 'active' },
      after: { status: 'disabled' },
      company_id: row.company_id,
      client_id: row.client_id,
    }),
  ]);
}

/** The delivery log of the actor's endpoints (or of one), newest first. */
export async function listWebhookDeliveries(ctx: ActorCtx, query: DeliveryQuery): Promise<Page<DeliveryRow>> {
  const actor = requireManager(ctx);
  const where = and(
    visibleWebhookEndpoints(actor),
    query.endpoint_id ? eq(webhookEndpoints.public_id, query.endpoint_id) : undefined,
    query.status ? eq(webhookDeliveries.status, query.status) : undefined,
  );
  // Not one db.batch: in a batch D1 answers rows as objects keyed by column name, and the two tables'
  // `public_id` columns overwrite each other (the delivery's id came back as its endpoint's).
  const [rows, counted] = await Promise.all([
    ctx.db
      .select({ d: webhookDeliveries, endpoint_id: webhookEndpoints.public_id, url: webhookEndpoints.url })
      .from(webhookDeliveries)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpoint_id))
      .where(where)
      .orderBy(desc(webhookDeliveries.created_at), desc(webhookDeliveries.id))
      .limit(query.items)
      .offset((query.page - 1) * query.items),
    ctx.db
      .select({ total: count() })
      .from(webhookDeliveries)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpoint_id))
      .where(where),
  ]);
  const items = rows.map(({ d, endpoint_id, url }): DeliveryRow => ({
    id: d.public_id,
    endpoint_id,
    endpoint_url: url,
    event_type: d.event_type,
    status: d.status,
    attempts: d.attempts,
    response_status: d.response_status,
    response_excerpt: d.response_excerpt,
    last_error: d.last_error,
    last_attempt_at: d.last_attempt_at?.toISOString() ?? null,
    next_attempt_at: d.next_attempt_at?.toISOString() ?? null,
    created_at: d.created_at.toISOString(),
  }));
  return { items, meta: meta(counted[0]?.total ?? 0, query.page, query.items, items.length) };
}

/** Sends a delivery again now (same `webhook-id`, so a receiver that has it already can skip it). */
export async function redeliverWebhook(ctx: ActorCtx, id: string): Promise<void> {
  const actor = requireManager(ctx);
  const [row] = await ctx.db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpoint_id))
    .where(
      and(
        eq(webhookDeliveries.public_id, id),
        eq(webhookEndpoints.status, 'active'),
        visibleWebhookEndpoints(actor),
      ),
    )
    .limit(1);
  if (!row) throw new NotFound(msg('webhooks.errors.delivery_not_found'));
  await ctx.db
    .update(webhookDeliveries)
    .set({ status: 'pending', next_attempt_at: ctx.now, claimed_at: null, created_at: ctx.now })
    .where(eq(webhookDeliveries.id, row.id));
  await ctx.env.JOBS.send({ type: 'webhook.deliver', id: row.id });
}

/** Hands the deliveries written by a request (at `writtenAt`) to the queue. */
export async function flushNewDeliveries(db: DB, env: Env, writtenAt: Date): Promise<number> {
  const rows = await db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.status, 'pending'),
        eq(webhookDeliveries.next_attempt_at, writtenAt),
        eq(webhookDeliveries.attempts, 0),
        isNull(webhookDeliveries.claimed_at),
      ),
    )
    .limit(5000);
  for (const part of chunk(rows, 100))
    await env.JOBS.sendBatch(part.map((r) => ({ body: { type: 'webhook.deliver' as const, id: r.id } })));
  return rows.length;
}

/** Cron: deliveries due (a lost queue message, a retry past the queue's longest delay) go back on the queue. */
export async function queueDueDeliveries(db: DB, env: Env, now: Date): Promise<number> {
  const stale = new Date(now.getTime() - CLAIM_TIMEOUT_MS);
  const rows = await db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.status, 'pending'),
        lte(webhookDeliveries.next_attempt_at, now),
        or(isNull(webhookDeliveries.claimed_at), lt(webhookDeliveries.claimed_at, stale)),
      ),
    )
    .limit(1000);
  for (const part of chunk(rows, 100))
    await env.JOBS.sendBatch(part.map((r) => ({ body: { type: 'webhook.deliver' as const, id: r.id } })));
  return rows.length;
}

/** The wait before the attempt after `attempts` failed ones. */
export function retryDelaySeconds(attempts: number): number {
  return RETRY_DELAYS_S[attempts - 1] ?? RETRY_MAX_DELAY_S;
}

/**
 * One attempt of a delivery (the queue consumer). Idempotent: the row is claimed first, so a queue
 * message delivered twice sends once; a delivered or failed row is left alone. Never throws for the
 * receiver's failures: the next attempt is scheduled here (queue delay, and the cron as a safety net).
 */
export async function deliverWebhook(db: DB, env: Env, id: number, now = new Date()): Promise<void> {
  const [row] = await db
    .update(webhookDeliveries)
    .set({ claimed_at: now })
    .where(
      and(
        eq(webhookDeliveries.id, id),
        eq(webhookDeliveries.status, 'pending'),
        or(
          isNull(webhookDeliveries.claimed_at),
          lt(webhookDeliveries.claimed_at, new Date(now.getTime() - CLAIM_TIMEOUT_MS)),
        ),
      ),
    )
    .returning();
  if (!row) return;
  const [endpoint] = await db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.id, row.endpoint_id))
    .limit(1);
  if (!endpoint || endpoint.status !== 'active') {
    await db
      .update(webhookDeliveries)
      .set({
        status: 'failed',
        last_error: 'The endpoint was removed.',
        claimed_at: null,
        next_attempt_at: null,
      })
      .where(eq(webhookDeliveries.id, id));
    return;
  }
  let status: number | null = null;
  let excerpt: string | null = null;
  let error: string | null = null;
  try {
    const res = await sendWebhook(env, endpoint.url, {
      method: 'POST',
      headers: await signedHeaders(endpoint.secret, row.public_id, row.payload, now),
      body: row.payload,
      redirect: 'manual',
      signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
    });
    status = res.status;
    excerpt = (await res.text()).slice(0, EXCERPT_LENGTH);
  } catch (e) {
    error = (e instanceof Error ? e.message : String(e)).slice(0, EXCERPT_LENGTH);
  }
  const attempts = row.attempts + 1;
  const ok = status !== null && status >= 200 && status < 300;
  const delay = retryDelaySeconds(attempts);
  const next = new Date(now.getTime() + delay * 1000);
  const givingUp = !ok && next.getTime() - row.created_at.getTime() > GIVE_UP_AFTER_MS;
  await db
    .update(webhookDeliveries)
    .set({
      status: ok ? 'delivered' : givingUp ? 'failed' : 'pending',
      attempts,
      claimed_at: null,
      response_status: status,
      response_excerpt: excerpt,
      last_error: ok ? null : (error ?? `The endpoint answered ${status}.`),
      last_attempt_at: now,
      delivered_at: ok ? now : null,
      next_attempt_at: ok || givingUp ? null : next,
    })
    .where(eq(webhookDeliveries.id, id));
  if (!ok && !givingUp)
    await env.JOBS.send(
      { type: 'webhook.deliver', id },
      { delaySeconds: Math.min(delay, RETRY_MAX_DELAY_S) },
    );
}

/** Ids of deliveries, for the seed and tests. */
export async function deliveryIds(db: DB, publicIds: string[]): Promise<number[]> {
  if (!publicIds.length) return [];
  const rows = await db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(inArray(webhookDeliveries.public_id, publicIds));
  return rows.map((r) => r.id);
}
