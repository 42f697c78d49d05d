import { Hono } from 'hono';
import { insurerListSchema, insurerSchema, insurerStatusSchema } from '../domain/insurers/schema';
import {
  createInsurer,
  deleteInsurer,
  getInsurer,
  insurersSummary,
  listInsurers,
  updateInsurer,
  updateInsurerStatus,
} from '../domain/insurers/service';
import { formatMessage } from '../platform/i18n';
import { actorCtxOf, langOf, requireAuth, type ApiEnv } from './context';
import { valid } from './validate';

/** Insurers (catalogue: Insurers), per company: the top-bar company scopes every call. */
export const insurersApi = new Hono<ApiEnv>()
  .use('/company/insurers/*', requireAuth)
  .get('/company/insurers/list', valid('query', insurerListSchema), async (c) =>
    c.json({ data: { insurers: await listInsurers(actorCtxOf(c), c.req.valid('query')) } }),
  )
  .get('/company/insurers/summary', async (c) =>
    c.json({ data: { summary: await insurersSummary(actorCtxOf(c)) } }),
  )
  .post('/company/insurers/add', valid('json', insurerSchema), async (c) => {
    const insurer = await createInsurer(actorCtxOf(c), c.req.valid('json'));
    return c.json({ data: { insurer }, message: formatMessage('insurers.created', langOf(c)) }, 201);
  })
  .delete('/company/insurers/company/:id', async (c) => {
    await deleteInsurer(actorCtxOf(c), c.req.param('id'));
    return c.json({ data: null, message: formatMessage('insurers.deleted', langOf(c)) });
  })
  .get('/company/insurers/:id', async (c) =>
    c.json({ data: { insurer: await getInsurer(actorCtxOf(c), c.req.param('id')) } }),
  )
  .patch('/company/insurers/:id/update', valid('json', insurerSchema), async (c) => {
    const insurer = await updateInsurer(actorCtxOf(c), c.req.param('id'), c.req.valid('json'));
    return c.json({ data: { insurer }, message: formatMessage('insurers.updated', langOf(c)) });
  })
  .patch('/company/insurers/:id/status/update', valid('json', insurerStatusSchema), async (c) => {
    const { status } = c.req.valid('json');
    const insurer = await updateInsurerStatus(actorCtxOf(c), c.req.param('id'), status);
    return c.json({
      data: { insurer },
      message: formatMessage(status === 'active' ? 'insurers.activated' : 'insurers.archived', langOf(c)),
    });
  });
