/**
 * The delivery log: every delivery of the actor's endpoints with when its event happened, where it
 * stands, and each attempt (when, the answer code, an excerpt of the answer or the error, how long it
 * took); and Redeliver.
 */
import { and, asc, count, desc, eq } from 'drizzle-orm';
import { webhookDeliveries, webhookDeliveryAttempts, webhookEndpoints } from '../../../drizzle/schema';
import { visibleWebhookEndpoints } from '../access/scope';
import type { ActorCtx } from '../context';
import { Conflict, NotFound } from '../errors';
import { paginate, type Page } from '../lists';
import { msg } from '../messages';
import { restartDelivery } from './delivery';
import type { DeliveryQuery } from './schema';
import { requireManager } from './service';

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
  /** When the event happened (a Redeliver does not change it). */
  created_at: string;
}

export interface DeliveryAttemptRow {
  number: number;
  attempted_at: string;
  duration_ms: number | null;
  response_status: number | null;
  response_excerpt: string | null;
  error: string | null;
}

export interface DeliveryDetail extends DeliveryRow {
  endpoint_description: string | null;
  /** The JSON body sent on every attempt, exactly. */
  payload: string;
  /** Whether Redeliver is offered (the endpoint is still there). */
  can_redeliver: boolean;
  /** Oldest first. */
  attempt_log: DeliveryAttemptRow[];
}

type Joined = {
  d: typeof webhookDeliveries.$inferSelect;
  endpoint_id: string;
  url: string;
};

function rowOf({ d, endpoint_id, url }: Joined): DeliveryRow {
  return {
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
  };
}

/** The delivery log of the actor's endpoints (or of one), newest event first. */
export async function listWebhookDeliveries(ctx: ActorCtx, query: DeliveryQuery): Promise<Page<DeliveryRow>> {
  const actor = requireManager(ctx);
  const where = and(
    visibleWebhookEndpoints(actor),
    query.endpoint_id ? eq(webhookEndpoints.public_id, query.endpoint_id) : undefined,
    query.status ? eq(webhookDeliveries.status, query.status) : undefined,
  );
  // Apart, not in one batch: in a batch D1 answers rows as objects keyed by column name, and the two
  // tables' `public_id` columns overwrite each other (the delivery's id came back as its endpoint's).
  const page = await paginate(ctx.db, query, {
    apart: true,
    rows: (limit, offset) =>
      ctx.db
        .select({ d: webhookDeliveries, endpoint_id: webhookEndpoints.public_id, url: webhookEndpoints.url })
        .from(webhookDeliveries)
        .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpoint_id))
        .where(where)
        .orderBy(desc(webhookDeliveries.created_at), desc(webhookDeliveries.id))
        .limit(limit)
        .offset(offset),
    count: ctx.db
      .select({ total: count() })
      .from(webhookDeliveries)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpoint_id))
      .where(where),
  });
  return { ...page, items: page.items.map(rowOf) };
}

/** One delivery of the actor's endpoints (a removed endpoint's too), with its body and every attempt. */
export async function getWebhookDelivery(ctx: ActorCtx, id: string): Promise<DeliveryDetail> {
  const actor = requireManager(ctx);
  const [found] = await ctx.db
    .select({
      d: webhookDeliveries,
      endpoint_id: webhookEndpoints.public_id,
      url: webhookEndpoints.url,
      description: webhookEndpoints.description,
      endpoint_status: webhookEndpoints.status,
    })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpoint_id))
    .where(and(eq(webhookDeliveries.public_id, id), visibleWebhookEndpoints(actor)))
    .limit(1);
  if (!found) throw new NotFound(msg('webhooks.errors.delivery_not_found'));
  const attempts = await ctx.db
    .select()
    .from(webhookDeliveryAttempts)
    .where(eq(webhookDeliveryAttempts.delivery_id, found.d.id))
    .orderBy(asc(webhookDeliveryAttempts.number));
  return {
    ...rowOf(found),
    endpoint_description: found.description,
    payload: found.d.payload,
    can_redeliver: found.endpoint_status === 'active',
    attempt_log: attempts.map((a) => ({
      number: a.number,
      attempted_at: a.attempted_at.toISOString(),
      duration_ms: a.duration_ms,
      response_status: a.response_status,
      response_excerpt: a.response_excerpt,
      error: a.error,
    })),
  };
}

/**
 * Sends a delivery again now (same `webhook-id`, so a receiver that has it already can skip it), and
 * retries it on the schedule from now if that fails. When its event happened stays as it was.
 */
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
  if (!(await restartDelivery(ctx.db, ctx.env, row.id, ctx.now)))
    throw new Conflict(msg('webhooks.errors.attempt_under_way'));
}
