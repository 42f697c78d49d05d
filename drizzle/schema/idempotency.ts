/**
 * Idempotency keys of the API's money calls (workers/api/idempotency.ts). A call sent with an
 * `Idempotency-Key` header claims the key within its sender's scope (the API key, or the user of a
 * session) before it runs, and keeps its answer once it has run, so the same request sent again gets the
 * first answer and records nothing more. `fingerprint` is the SHA-256 of the method, path and body, so the
 * key sent with another request is told apart. Kept 24 hours (`expires_at`); the cron purges older rows.
 */
import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';

export const IDEMPOTENCY_STATES = ['running', 'done'] as const;

export const idempotencyKeys = sqliteTable(
  'idempotency_keys',
  {
    /** Whose key it is: `key:<api key id>` for a request made with an API key, `user:<user id>` otherwise. */
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    fingerprint: text('fingerprint').notNull(),
    state: text('state', { enum: IDEMPOTENCY_STATES }).notNull(),
    /** While running: when the claim is taken to be abandoned (the request never finished). */
    running_until: integer('running_until', { mode: 'timestamp_ms' }).notNull(),
    status: integer('status'),
    content_type: text('content_type'),
    body: text('body'),
    created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    expires_at: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.key] }), index('idempotency_keys_expires_idx').on(t.expires_at)],
);
