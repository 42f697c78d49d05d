/**
 * Tenant isolation of API keys and webhooks: every id-taking call (revoke a key, remove an endpoint,
 * redeliver a delivery) answers "not found" to a user of another company or school, and to the other
 * side of the same company (company staff do not act on a school's own keys and endpoints, nor a school
 * on its company's). Each actor may manage keys, so it is the scope that stops them. Lists leave the
 * other tenant's rows out.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { clients, webhookDeliveries, webhookEndpoints } from '../../drizzle/schema';
import { buildUser } from '../../drizzle/seed/builders';
import { generateApiKeySchema } from '../../workers/domain/api-keys/schema';
import { generateApiKey, listApiKeys, revokeApiKey } from '../../workers/domain/api-keys/service';
import { webhookEndpointSchema } from '../../workers/domain/webhooks/schema';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookEndpoints,
} from '../../workers/domain/webhooks/service';
import {
  getWebhookDelivery,
  listWebhookDeliveries,
  redeliverWebhook,
} from '../../workers/domain/webhooks/log';
import { NotFound } from '../../workers/domain/errors';
import type { ActorCtx } from '../../workers/domain/context';
import { DEMO_ACCOUNTS, actorCtx, db, SETUP_TIMEOUT_MS } from '../support/world';
import { seedContractsWorld, STRANGER } from '../support/contracts';

const actors: Record<string, ActorCtx> = {};
type Records = { key: string; endpoint: string; delivery: string };
const records: Record<'school' | 'company', Records> = {} as never;

async function recordsOf(ctx: ActorCtx): Promise<Records> {
  const { api_key } = await generateApiKey(
    ctx,
    generateApiKeySchema.parse({ name: 'isolation', permissions: ['read_insured'] }),
  );
  const endpoint = await createWebhookEndpoint(
    ctx,
    webhookEndpointSchema.parse({ url: 'https://partner.example/hook', events: ['invoice.issued'] }),
  );
  const [row] = await db().select().from(webhookEndpoints).where(eq(webhookEndpoints.public_id, endpoint.id));
  const delivery = `msg_iso_${endpoint.id}`;
  await db().insert(webhookDeliveries).values({
    public_id: delivery,
    endpoint_id: row.id,
    event_type: 'invoice.issued',
    payload: '{}',
    status: 'failed',
    created_at: new Date(),
  });
  return { key: api_key.id, endpoint: endpoint.id, delivery };
}

beforeAll(async () => {
  await seedContractsWorld();
  const [highland] = await db().select().from(clients).where(eq(clients.name, 'Highland Academy'));
  await buildUser(db(), {
    email: 'stranger.master@caledonia.test',
    first_name: 'Morag',
    last_name: 'Stranger',
    roles: ['school_master_user'],
    clientId: highland.id,
    canAccessAllCampuses: true,
    isMasterUser: true,
  });
  actors.school = await actorCtx(DEMO_ACCOUNTS.schoolAdmin);
  actors.company = await actorCtx(DEMO_ACCOUNTS.seniorAdmin);
  actors.strangerCompanyUser = await actorCtx(STRANGER.companyUser);
  actors.strangerSchoolUser = await actorCtx('stranger.master@caledonia.test');
  records.school = await recordsOf(actors.school);
  records.company = await recordsOf(actors.company);
}, SETUP_TIMEOUT_MS);

const calls = [
  ['revokeApiKey', (c: ActorCtx, r: Records) => revokeApiKey(c, r.key)],
  ['deleteWebhookEndpoint', (c: ActorCtx, r: Records) => deleteWebhookEndpoint(c, r.endpoint)],
  ['redeliverWebhook', (c: ActorCtx, r: Records) => redeliverWebhook(c, r.delivery)],
  ['getWebhookDelivery', (c: ActorCtx, r: Records) => getWebhookDelivery(c, r.delivery)],
] as const;

const matrix = (
  [
    ['strangerCompanyUser', 'school'],
    ['strangerCompanyUser', 'company'],
    ['strangerSchoolUser', 'school'],
    ['strangerSchoolUser', 'company'],
    ['company', 'school'],
    ['school', 'company'],
  ] as const
).flatMap(([who, owner]) => calls.map(([name, run]) => ({ who, owner, name, run })));

describe('API keys and webhooks tenant isolation', () => {
  it.each(matrix)('$who gets not found from $name on a record of $owner', async ({ who, owner, run }) => {
    await expect(run(actors[who], records[owner])).rejects.toBeInstanceOf(NotFound);
  });

  it('lists leave out what belongs to another tenant', async () => {
    for (const [who, owner] of [
      ['strangerCompanyUser', 'school'],
      ['strangerSchoolUser', 'company'],
      ['company', 'school'],
      ['school', 'company'],
    ] as const) {
      const keys = await listApiKeys(actors[who], { page: 1, items: 100 });
      expect(keys.items.map((k) => k.id)).not.toContain(records[owner].key);
      const endpoints = await listWebhookEndpoints(actors[who]);
      expect(endpoints.map((e) => e.id)).not.toContain(records[owner].endpoint);
      const log = await listWebhookDeliveries(actors[who], {
        page: 1,
        items: 100,
        endpoint_id: records[owner].endpoint,
      });
      expect(log.items).toEqual([]);
    }
  });

  it('left every record as it was', async () => {
    for (const owner of ['school', 'company'] as const) {
      const keys = await listApiKeys(actors[owner], { page: 1, items: 100 });
      expect(keys.items.find((k) => k.id === records[owner].key)?.state).toBe('active');
      expect((await listWebhookEndpoints(actors[owner])).map((e) => e.id)).toContain(records[owner].endpoint);
    }
  });
});
