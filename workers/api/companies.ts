import { Hono } from 'hono';
import {
  companyListSchema,
  companySchema,
  companyStatusSchema,
  financeUsersQuerySchema,
} from '../domain/companies/schema';
import {
  companiesSummary,
  createCompany,
  financeUsers,
  getCompany,
  listCompanies,
  updateCompany,
  updateCompanyStatus,
} from '../domain/companies/service';
import { formatMessage } from '../platform/i18n';
import { actorCtxOf, langOf, requireAuth, type ApiEnv } from './context';
import { valid } from './validate';

/** Companies (catalogue: Companies): the caller's own companies only; any other answers 404. */
export const companiesApi = new Hono<ApiEnv>()
  .use('/company/companies/*', requireAuth)
  .get('/company/companies/list', valid('query', companyListSchema), async (c) =>
    c.json({ data: { companies: await listCompanies(actorCtxOf(c), c.req.valid('query')) } }),
  )
  .get('/company/companies/summary', async (c) =>
    c.json({ data: { summary: await companiesSummary(actorCtxOf(c)) } }),
  )
  .post('/company/companies/add', valid('json', companySchema), async (c) => {
    const company = await createCompany(actorCtxOf(c), c.req.valid('json'));
    return c.json({ data: { company }, message: formatMessage('companies.created', langOf(c)) }, 201);
  })
  .get('/company/companies/:company/users/finance', valid('query', financeUsersQuerySchema), async (c) => {
    const items = await financeUsers(actorCtxOf(c), c.req.param('company'), c.req.valid('query').search);
    return c.json({ data: { users: items } });
  })
  .get('/company/companies/:id', async (c) =>
    c.json({ data: { company: await getCompany(actorCtxOf(c), c.req.param('id')) } }),
  )
  .patch('/company/companies/:id/update', valid('json', companySchema), async (c) => {
    const company = await updateCompany(actorCtxOf(c), c.req.param('id'), c.req.valid('json'));
    return c.json({ data: { company }, message: formatMessage('companies.updated', langOf(c)) });
  })
  .patch('/company/companies/:id/status/update', valid('json', companyStatusSchema), async (c) => {
    const { status } = c.req.valid('json');
    const company = await updateCompanyStatus(actorCtxOf(c), c.req.param('id'), status);
    return c.json({
      data: { company },
      message: formatMessage(status === 'active' ? 'companies.activated' : 'companies.archived', langOf(c)),
    });
  });
