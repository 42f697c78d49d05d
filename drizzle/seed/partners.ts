/**
 * Demo partners: an API key per demo school and one for the main company, none of them shown
 * anywhere (only their hashes are stored, as for any key), and Oakwood's webhook endpoint pointing at the
 * local test receiver with a few deliveries and their attempts on the retry schedule, one of them failed.
 */
import { apiKeys, webhookDeliveries, webhookDeliveryAttempts, webhookEndpoints } from '../schema';
import { bulkInsert, runBatch, type DB } from '../../workers/platform/db';
import { publicId } from '../../workers/platform/crypto';
import { newApiKey } from '../../workers/domain/api-keys/token';
import { newWebhookSecret } from '../../workers/domain/webhooks/signing';
import { retryDelaySeconds } from '../../workers/domain/webhooks/delivery';

export async function seedPartners(
  db: DB,
  opts: {
    publicUrl: string;
    companyId: number;
    seniorAdminId: number;
    school: { clientId: number; userId: number; permissions: string[] };
  },
): Promise<void> {
  const now = Date.now();
  const day = 24 * 3600 * 1000;
  const key = async (values: {
    name: string;
    created_by: number;
    client_id: number | null;
    permissions: string[];
    last_used_at: Date | null;
  }) => {
    const { hash, hint } = await newApiKey(false);
    return {
      ...values,
      public_id: publicId(),
      token_hash: hash,
      hint,
      company_id: opts.companyId,
      created_at: new Date(now - 20 * day),
      updated_at: new Date(now - 20 * day),
    };
  };
  await db.insert(apiKeys).values([
    await key({
      name: 'Oakwood student information system',
      created_by: opts.school.userId,
      client_id: opts.school.clientId,
      permissions: opts.school.permissions,
      last_used_at: new Date(now - 2 * 3600 * 1000),
    }),
    await key({
      name: 'Albion reporting warehouse',
      created_by: opts.seniorAdminId,
      client_id: null,
      permissions: ['read_insured', 'read_invoice', 'read_policy'],
      last_used_at: null,
    }),
  ]);

  const endpointId = publicId();
  const [endpoint] = await db
    .insert(webhookEndpoints)
    .values({
      public_id: endpointId,
      url: `${opts.publicUrl}/dev/webhooks/receive/${endpointId}`,
      description: 'Oakwood SIS (local test receiver)',
      events: ['policy.issued', 'policy.updated', 'policy.cancelled', 'invoice.issued', 'invoice.paid'],
      secret: newWebhookSecret(),
      company_id: opts.companyId,
      client_id: opts.school.clientId,
      created_by: opts.school.userId,
      created_at: new Date(now - 10 * day),
      updated_at: new Date(now - 10 * day),
    })
    .returning();
  const ok = '{"received":true,"verified":true,"message":"Received."}';
  const failing = '{"received":false,"verified":true,"message":"Failing on purpose (?fail)."}';
  /**
   * A delivery of `type` whose event happened `ago` ms back, and its attempts on the retry schedule:
   * `failures` answered 503, then one 200 unless `gaveUp` (then it is failed after the schedule's last).
   */
  const delivery = (type: string, ago: number, failures: number, gaveUp = false) => {
    const created = now - ago;
    const times = [created];
    for (let n = 1; n <= failures; n++) times.push(times[n - 1] + retryDelaySeconds(n) * 1000);
    if (gaveUp) times.pop();
    const last = new Date(times[times.length - 1]);
    const payload = JSON.stringify({
      type,
      timestamp: new Date(created).toISOString(),
      data: { demo: true },
    });
    const row = {
      public_id: `msg_${publicId()}`,
      endpoint_id: endpoint.id,
      event_type: type,
      payload,
      status: gaveUp ? ('failed' as const) : ('delivered' as const),
      attempts: times.length,
      response_status: gaveUp ? 503 : 200,
      response_excerpt: gaveUp ? failing : ok,
      last_error: gaveUp ? 'The endpoint answered 503.' : null,
      last_attempt_at: last,
      delivered_at: gaveUp ? null : last,
      created_at: new Date(created),
    };
    const attempts = times.map((at, i) => {
      const failed = gaveUp || i < times.length - 1;
      return {
        number: i + 1,
        attempted_at: new Date(at),
        duration_ms: 40 + ((i * 37) % 90),
        response_status: failed ? 503 : 200,
        response_excerpt: failed ? failing : ok,
        error: failed ? 'The endpoint answered 503.' : null,
      };
    });
    return { row, attempts };
  };
  const deliveries = [
    delivery('invoice.issued', 5 * day, 0),
    delivery('policy.issued', 5 * day, 0),
    delivery('invoice.paid', 4 * day, 11, true),
    delivery('policy.updated', 1 * day, 1),
  ];
  const rows = await db
    .insert(webhookDeliveries)
    .values(deliveries.map((d) => d.row))
    .returning({ id: webhookDeliveries.id, public_id: webhookDeliveries.public_id });
  const idOf = new Map(rows.map((r) => [r.public_id, r.id]));
  await runBatch(
    db,
    bulkInsert(
      db,
      webhookDeliveryAttempts,
      deliveries.flatMap((d) => d.attempts.map((a) => ({ ...a, delivery_id: idOf.get(d.row.public_id)! }))),
    ),
  );
}
