/**
 * Demo partners: an API key per demo school and one for the main company, none of them shown
 * anywhere (only their hashes are stored, as for any key), and Oakwood's webhook endpoint pointing at the
 * local test receiver with a few deliveries, one of them failed.
 */
import { apiKeys, webhookDeliveries, webhookEndpoints } from '../schema';
import type { DB } from '../../workers/platform/db';
import { publicId } from '../../workers/platform/crypto';
import { newApiKey } from '../../workers/domain/api-keys/token';
import { newWebhookSecret } from '../../workers/domain/webhooks/signing';

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
  const delivery = (
    type: string,
    ago: number,
    outcome: { status: 'delivered' | 'failed'; code: number; excerpt: string; attempts: number },
  ) => {
    const at = new Date(now - ago);
    const id = `msg_${publicId()}`;
    return {
      public_id: id,
      endpoint_id: endpoint.id,
      event_type: type,
      payload: JSON.stringify({ type, timestamp: at.toISOString(), data: { demo: true } }),
      status: outcome.status,
      attempts: outcome.attempts,
      response_status: outcome.code,
      response_excerpt: outcome.excerpt,
      last_error: outcome.status === 'failed' ? `The endpoint answered ${outcome.code}.` : null,
      last_attempt_at: at,
      delivered_at: outcome.status === 'delivered' ? at : null,
      created_at: new Date(at.getTime() - (outcome.attempts - 1) * 3600 * 1000),
    };
  };
  const ok = '{"received":true,"verified":true,"message":"Received."}';
  await db.insert(webhookDeliveries).values([
    delivery('invoice.issued', 5 * day, { status: 'delivered', code: 200, excerpt: ok, attempts: 1 }),
    delivery('policy.issued', 5 * day, { status: 'delivered', code: 200, excerpt: ok, attempts: 1 }),
    delivery('invoice.paid', 4 * day, {
      status: 'failed',
      code: 503,
      excerpt: '{"received":false,"verified":true,"message":"Failing on purpose (?fail)."}',
      attempts: 8,
    }),
    delivery('policy.updated', 1 * day, { status: 'delivered', code: 200, excerpt: ok, attempts: 2 }),
  ]);
}
