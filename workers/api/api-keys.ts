import { Hono } from 'hono';
import { apiKeyListQuerySchema, generateApiKeySchema } from '../domain/api-keys/schema';
import { generateApiKey, listApiKeys, revokeApiKey } from '../domain/api-keys/service';
import { formatMessage } from '../platform/i18n';
import { actorCtxOf, langOf, requireAuth, type ApiEnv } from './context';
import { valid } from './validate';

/**
 * API keys (catalogue: Api keys, `GET api-keys`, `POST api-keys/generate`; revoke is ours). The key is
 * in the generate answer only (`data.key`); lists show its start (`display`), never the key.
 */
export const apiKeysApi = new Hono<ApiEnv>()
  .use('/company/api-keys', requireAuth)
  .use('/company/api-keys/*', requireAuth)
  .get('/company/api-keys', valid('query', apiKeyListQuerySchema), async (c) =>
    c.json({ data: { api_keys: await listApiKeys(actorCtxOf(c), c.req.valid('query')) } }),
  )
  .post('/company/api-keys/generate', valid('json', generateApiKeySchema), async (c) => {
    const { key, api_key } = await generateApiKey(actorCtxOf(c), c.req.valid('json'));
    return c.json({ data: { key, api_key }, message: formatMessage('api_keys.generated', langOf(c)) }, 201);
  })
  .post('/company/api-keys/:id/revoke', async (c) => {
    await revokeApiKey(actorCtxOf(c), c.req.param('id'));
    return c.json({ data: null, message: formatMessage('api_keys.revoked', langOf(c)) });
  });
