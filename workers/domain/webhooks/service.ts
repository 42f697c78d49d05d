import { and, desc, eq, sql } from 'drizzle-orm';
import { webhookDeliveries, webhookEndpoints, companies, clients } from '../../../drizzle/schema';
import type { Env } from '../../env';
import { isLocalHttp, isProduction } from '../../env';
import { publicId } from '../../platform/crypto';
import { requireActor, type Actor } from '../access/actor';
import { canManagePartnerAccess } from '../access/api-keys';
import { companyForNewRecord } from '../access/finders';
import { visibleWebhookEndpoints } from '../access/scope';
import { logActivity } from '../audit/activity-log';
import type { ActorCtx } from '../context';
import { Forbidden, NotFound, ValidationFailed } from '../errors';
import { msg } from '../messages';
import type { WebhookEndpointInput } from './schema';
import { newWebhookSecret } from './signing';

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

export function requireManager(ctx: ActorCtx): Actor {
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

/** The address of an endpoint the manager reaches (what removing it names before it acts). */
export async function webhookEndpointUrl(ctx: ActorCtx, id: string): Promise<string> {
  return (await findEndpoint(ctx, id)).url;
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
