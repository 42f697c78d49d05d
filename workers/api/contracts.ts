import { Hono } from 'hono';
import {
  activityQuerySchema,
  addContractSchema,
  cloneContractSchema,
  contractListQuerySchema,
  contractStatusSchema,
} from '../domain/contracts/schema';
import {
  CONTRACT_SAVED,
  addContract,
  cloneContract,
  contractActivities,
  contractsSummary,
  getContract,
  listContracts,
  updateContractStatus,
} from '../domain/contracts/service';
import { formatMessage } from '../platform/i18n';
import { actorCtxOf, langOf, requireAuth, type ApiEnv } from './context';
import { valid } from './validate';

/** Contracts (spec 002 s.7 Contracts). */
export const contractsApi = new Hono<ApiEnv>()
  .use('/company/contracts/*', requireAuth)
  .get('/company/contracts/list', valid('query', contractListQuerySchema), async (c) => {
    const contracts = await listContracts(actorCtxOf(c), c.req.valid('query'));
    return c.json({ data: { contracts } });
  })
  .get('/company/contracts/summary', async (c) => {
    return c.json({ data: { summary: await contractsSummary(actorCtxOf(c)) } });
  })
  .post('/company/contracts/add', valid('json', addContractSchema), async (c) => {
    const contract = await addContract(actorCtxOf(c), c.req.valid('json'));
    return c.json({ data: { contract }, message: formatMessage(CONTRACT_SAVED, langOf(c)) }, 201);
  })
  .get('/company/contracts/:id', async (c) => {
    return c.json({ data: { contract: await getContract(actorCtxOf(c), c.req.param('id')) } });
  })
  .get('/company/contracts/:id/activities', valid('query', activityQuerySchema), async (c) => {
    const { page, items } = c.req.valid('query');
    const activities = await contractActivities(actorCtxOf(c), c.req.param('id'), page, items);
    return c.json({ data: { activities } });
  })
  .post('/company/contracts/:id/clone', valid('json', cloneContractSchema), async (c) => {
    const contract = await cloneContract(actorCtxOf(c), c.req.param('id'), c.req.valid('json'));
    return c.json({ data: { contract }, message: formatMessage(CONTRACT_SAVED, langOf(c)) }, 201);
  })
  .patch('/company/contracts/:id/status/update', valid('json', contractStatusSchema), async (c) => {
    const contract = await updateContractStatus(actorCtxOf(c), c.req.param('id'), c.req.valid('json').status);
    return c.json({ data: { contract }, message: formatMessage(CONTRACT_SAVED, langOf(c)) });
  });
