/**
 * Partners: API keys and webhooks.
 *
 * - An API key is shown once; only its SHA-256 is kept (`token_hash`), with the first characters of its
 *   random part (`hint`) so a person can tell keys apart. It belongs to a company, or to a client of that
 *   company (optionally one campus), and carries a subset of its creator's permissions.
 * - A webhook endpoint belongs to a company, or to a client of it; each event that concerns it adds one
 *   delivery row in the same batch as the change (workers/domain/webhooks/emit.ts). The queue delivers
 *   it one attempt at a time; the row keeps the latest answer, and each attempt is a row of
 *   `webhook_delivery_attempts` (when, answer code, body excerpt or error, how long it took).
 */
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { timestamps } from './columns';
import { campuses, clients, companies, users } from '../schema';
import { WEBHOOK_DELIVERY_STATUSES, WEBHOOK_ENDPOINT_STATUSES } from './partners-enums';

export * from './partners-enums';

export const apiKeys = sqliteTable(
  'api_keys',
  {
    id: integer('id').primaryKey(),
    public_id: text('public_id').notNull(),
    name: text('name').notNull(),
    token_hash: text('token_hash').notNull(),
    /** The first characters of the key after its prefix, shown in lists. */
    hint: text('hint').notNull(),
    created_by: integer('created_by')
      .notNull()
      .references(() => users.id),
    company_id: integer('company_id')
      .notNull()
      .references(() => companies.id),
    client_id: integer('client_id').references(() => clients.id),
    campus_id: integer('campus_id').references(() => campuses.id),
    permissions: text('permissions', { mode: 'json' }).$type<string[]>().notNull(),
    expires_at: integer('expires_at', { mode: 'timestamp_ms' }),
    last_used_at: integer('last_used_at', { mode: 'timestamp_ms' }),
    revoked_at: integer('revoked_at', { mode: 'timestamp_ms' }),
    revoked_by: integer('revoked_by').references(() => users.id),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('api_keys_public_id_uq').on(t.public_id),
    uniqueIndex('api_keys_token_hash_uq').on(t.token_hash),
    index('api_keys_company_idx').on(t.company_id, t.client_id, t.created_at),
  ],
);

export const webhookEndpoints = sqliteTable(
  'webhook_endpoints',
  {
    id: integer('id').primaryKey(),
    public_id: text('public_id').notNull(),
    url: text('url').notNull(),
    description: text('description'),
    events: text('events', { mode: 'json' }).$type<string[]>().notNull(),
    /** `whsec_<base64>`: the signing secret, shown to the owner so they can check signatures. */
    secret: text('secret').notNull(),
    status: text('status', { enum: WEBHOOK_ENDPOINT_STATUSES }).notNull().default('active'),
    company_id: integer('company_id')
      .notNull()
      .references(() => companies.id),
    client_id: integer('client_id').references(() => clients.id),
    created_by: integer('created_by')
      .notNull()
      .references(() => users.id),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('webhook_endpoints_public_id_uq').on(t.public_id),
    index('webhook_endpoints_company_idx').on(t.company_id, t.status),
  ],
);

export const webhookDeliveries = sqliteTable(
  'webhook_deliveries',
  {
    id: integer('id').primaryKey(),
    /** The `webhook-id` header: the same on every attempt of this delivery (the receiver's dedup key). */
    public_id: text('public_id').notNull(),
    endpoint_id: integer('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    event_type: text('event_type').notNull(),
    /** The JSON body sent, exactly. */
    payload: text('payload').notNull(),
    status: text('status', { enum: WEBHOOK_DELIVERY_STATUSES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    next_attempt_at: integer('next_attempt_at', { mode: 'timestamp_ms' }),
    claimed_at: integer('claimed_at', { mode: 'timestamp_ms' }),
    response_status: integer('response_status'),
    response_excerpt: text('response_excerpt'),
    last_error: text('last_error'),
    last_attempt_at: integer('last_attempt_at', { mode: 'timestamp_ms' }),
    delivered_at: integer('delivered_at', { mode: 'timestamp_ms' }),
    /** When the event happened; never changes (a redelivery starts a new retry schedule instead). */
    created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    /** When the current retry schedule began: the last Redeliver, or (null) the event itself. */
    schedule_from: integer('schedule_from', { mode: 'timestamp_ms' }),
    /** Attempts made before the current retry schedule began (before the last Redeliver). */
    schedule_base: integer('schedule_base').notNull().default(0),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_public_id_uq').on(t.public_id),
    index('webhook_deliveries_endpoint_idx').on(t.endpoint_id, t.created_at),
    index('webhook_deliveries_due_idx').on(t.status, t.next_attempt_at),
  ],
);

/** One attempt of a delivery: what was sent when, and what the endpoint answered (or why it could not). */
export const webhookDeliveryAttempts = sqliteTable(
  'webhook_delivery_attempts',
  {
    id: integer('id').primaryKey(),
    delivery_id: integer('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    /** 1 for the first attempt of the delivery, counting on across redeliveries. */
    number: integer('number').notNull(),
    attempted_at: integer('attempted_at', { mode: 'timestamp_ms' }).notNull(),
    /** How long the request took; null for the last attempt of deliveries made before attempts were kept. */
    duration_ms: integer('duration_ms'),
    response_status: integer('response_status'),
    response_excerpt: text('response_excerpt'),
    error: text('error'),
  },
  (t) => [uniqueIndex('webhook_delivery_attempts_number_uq').on(t.delivery_id, t.number)],
);
