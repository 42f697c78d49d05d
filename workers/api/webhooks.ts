import { Hono } from 'hono';
import { deliveryQuerySchema, webhookEndpointSchema } from '../domain/webhooks/schema';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookEndpoints,
} from '../domain/webhooks/service';
import { getWebhookDelivery, listWebhookDeliveries, redeliverWebhook } from '../domain/webhooks/log';
import { formatMessage } from '../platform/i18n';
import { actorCtxOf, langOf, requireAuth, type ApiEnv } from './context';
import { valid } from './validate';

/** Webhook endpoints of a company or school, and their delivery log (not in the catalogue: ours). */
export const webhooksApi = new Hono<ApiEnv>()
  .use('/company/webhooks', requireAuth)
  .use('/company/webhooks/*', requireAuth)
  .get('/company/webhooks', async (c) =>
    c.json({ data: { webhooks: await listWebhookEndpoints(actorCtxOf(c)) } }),
  )
  .post('/company/webhooks/add', valid('json', webhookEndpointSchema), async (c) => {
    const webhook = await createWebhookEndpoint(actorCtxOf(c), c.req.valid('json'));
    return c.json({ data: { webhook }, message: formatMessage('webhooks.created', langOf(c)) }, 201);
  })
  .get('/company/webhooks/deliveries', valid('query', deliveryQuerySchema), async (c) =>
    c.json({ data: { deliveries: await listWebhookDeliveries(actorCtxOf(c), c.req.valid('query')) } }),
  )
  .get('/company/webhooks/deliveries/:id', async (c) =>
    c.json({ data: { delivery: await getWebhookDelivery(actorCtxOf(c), c.req.param('id')) } }),
  )
  .post('/company/webhooks/deliveries/:id/redeliver', async (c) => {
    await redeliverWebhook(actorCtxOf(c), c.req.param('id'));
    return c.json({ data: null, message: formatMessage('webhooks.redelivered', langOf(c)) });
  })
  .delete('/company/webhooks/:id', async (c) => {
    await deleteWebhookEndpoint(actorCtxOf(c), c.req.param('id'));
    return c.json({ data: null, message: formatMessage('webhooks.deleted', langOf(c)) });
  });
