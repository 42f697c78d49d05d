/**
 * Emitting webhook events: ONE function the places where things happen call inside their own batch
 * (`statements.push(webhookEvents(ctx, 'invoice.issued', invoicesWhere(sql`...`)))`). It adds one
 * delivery row per active endpoint of the event's company (or of its client) subscribed to the event,
 * so the event is recorded exactly when the change commits, and never when it does not. The request's
 * front door hands new deliveries to the queue after it answers (flushNewDeliveries); the cron hands
 * over any left behind.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { WebhookEvent } from '../../../drizzle/schema';
import type { DB, Statement } from '../../platform/db';

/**
 * Delivery rows for `type`, one per matching endpoint and source row. `source` is a SELECT answering
 * `company_id`, `client_id` and `data` (a JSON object, the event's `data`).
 */
export function webhookEvents(ctx: { db: DB; now: Date }, type: WebhookEvent, source: SQL): Statement {
  const now = ctx.now.getTime();
  const iso = ctx.now.toISOString();
  return ctx.db.run(sql`INSERT INTO webhook_deliveries
      (public_id, endpoint_id, event_type, payload, status, attempts, next_attempt_at, created_at)
    SELECT 'msg_' || lower(hex(randomblob(12))), e.id, ${type},
      json_object('type', ${type}, 'timestamp', ${iso}, 'data', json(s.data)), 'pending', 0, ${now}, ${now}
    FROM (${source}) s
    JOIN webhook_endpoints e ON e.company_id = s.company_id
      AND (e.client_id IS NULL OR e.client_id = s.client_id)
      AND e.status = 'active'
      AND EXISTS (SELECT 1 FROM json_each(e.events) WHERE value = ${type})`);
}

/** The event source of invoices matching `where` (a condition on `invoices`). */
export function invoicesWhere(where: SQL): SQL {
  return sql`SELECT company_id, client_id, json_object('id', public_id, 'number', number, 'status', status,
      'payment_method', payment_method, 'total', total_minor, 'paid', paid_minor, 'currency', currency,
      'date', date, 'due_at', due_at) AS data
    FROM invoices WHERE ${where}`;
}

/** The event source of policies matching `where` (a condition on `policies` aliased `p`), one event per policy. */
export function policiesWhere(where: SQL): SQL {
  return sql`SELECT p.company_id, p.client_id, json_object('id', p.public_id, 'policy_number', p.policy_number,
      'status', p.status, 'type', p.type, 'first_name', p.first_name, 'last_name', p.last_name,
      'start_date', p.start_date, 'end_date', p.end_date, 'premium', p.premium_minor, 'currency', p.currency,
      'campus_id', (SELECT public_id FROM campuses WHERE id = p.campus_id)) AS data
    FROM policies p WHERE ${where}`;
}

/** The invoice `invoiceId` if the batch's settleInvoice (run before this) has just made it paid. */
export function paidNow(invoiceId: number, now: Date): SQL {
  return invoicesWhere(sql`id = ${invoiceId} AND status = 'paid' AND updated_at = ${now.getTime()}`);
}

/** The policies of an amendment (`amendmentId`: its row id, or SQL naming it). */
export function amendedPolicies(amendmentId: number | SQL): SQL {
  return policiesWhere(
    sql`p.id IN (SELECT policy_id FROM policy_amendment_lines WHERE amendment_id = ${amendmentId})`,
  );
}
