import { Hono } from 'hono';
import { z } from 'zod';
import { statementPeriodShape, statementQuerySchema, withPeriodRule } from '../domain/billing/schema';
import {
  billingSummary,
  campusStatement,
  clientReceivables,
  clientStatement,
  ownStatement,
  presentStatement,
  statementFile,
  STATEMENT_FORMATS,
} from '../domain/billing/service';
import type { StatementOfAccount } from '../domain/billing/statement';
import { actorCtxOf, langOf, requireAuth, type ApiEnv } from './context';
import { valid } from './validate';

const idParam = z.object({ id: z.string().min(1).max(64) });
const campusParam = z.object({ id: z.string().min(1).max(64), campusId: z.string().min(1).max(64) });
const format = z.enum(STATEMENT_FORMATS);
const campusId = z.string().min(1).max(64).optional();
const downloadQuery = withPeriodRule(z.object({ ...statementPeriodShape, format }));
const ownQuery = withPeriodRule(z.object({ ...statementPeriodShape, campus_id: campusId }));
const ownDownloadQuery = withPeriodRule(z.object({ ...statementPeriodShape, format, campus_id: campusId }));

const answer = (s: StatementOfAccount) => ({ data: { statement: presentStatement(s) } });
const period = (q: { from?: string; to?: string }) => ({ from: q.from, to: q.to });

/**
 * Billing (spec 002 s.7 "Billing and school-area summaries"): GET billing/summary, the
 * statements of account of a client, a campus and a school user's own client (JSON, or a PDF / Excel
 * download with `format`), and a client's receivables.
 */
export const billingApi = new Hono<ApiEnv>()
  .use('/company/billing/*', requireAuth)
  .use('/school/billing/*', requireAuth)
  .use('/company/clients/:id/statement', requireAuth)
  .use('/company/clients/:id/statement/*', requireAuth)
  .use('/company/clients/:id/receivables', requireAuth)
  .use('/company/clients/:id/campuses/:campusId/statement', requireAuth)
  .use('/company/campuses/:id/statement', requireAuth)
  .use('/company/campuses/:id/statement/*', requireAuth)
  .get('/company/billing/summary', async (c) => c.json({ data: await billingSummary(actorCtxOf(c)) }))
  .get('/school/billing/summary', async (c) => c.json({ data: await billingSummary(actorCtxOf(c)) }))
  .get('/company/clients/:id/receivables', valid('param', idParam), async (c) =>
    c.json({ data: await clientReceivables(actorCtxOf(c), c.req.valid('param').id) }),
  )
  .get(
    '/company/clients/:id/statement',
    valid('param', idParam),
    valid('query', statementQuerySchema),
    async (c) =>
      c.json(answer(await clientStatement(actorCtxOf(c), c.req.valid('param').id, c.req.valid('query')))),
  )
  .get(
    '/company/clients/:id/statement/download',
    valid('param', idParam),
    valid('query', downloadQuery),
    async (c) => {
      const ctx = actorCtxOf(c);
      const q = c.req.valid('query');
      return statementFile(
        ctx,
        await clientStatement(ctx, c.req.valid('param').id, period(q)),
        q.format,
        langOf(c),
      );
    },
  )
  .get(
    '/company/clients/:id/campuses/:campusId/statement',
    valid('param', campusParam),
    valid('query', statementQuerySchema),
    async (c) => {
      const p = c.req.valid('param');
      return c.json(answer(await clientStatement(actorCtxOf(c), p.id, c.req.valid('query'), p.campusId)));
    },
  )
  .get(
    '/company/campuses/:id/statement',
    valid('param', idParam),
    valid('query', statementQuerySchema),
    async (c) =>
      c.json(answer(await campusStatement(actorCtxOf(c), c.req.valid('param').id, c.req.valid('query')))),
  )
  .get(
    '/company/campuses/:id/statement/download',
    valid('param', idParam),
    valid('query', downloadQuery),
    async (c) => {
      const ctx = actorCtxOf(c);
      const q = c.req.valid('query');
      return statementFile(
        ctx,
        await campusStatement(ctx, c.req.valid('param').id, period(q)),
        q.format,
        langOf(c),
      );
    },
  )
  .get('/school/billing/statement', valid('query', ownQuery), async (c) => {
    const q = c.req.valid('query');
    return c.json(answer(await ownStatement(actorCtxOf(c), period(q), q.campus_id)));
  })
  .get('/school/billing/statement/download', valid('query', ownDownloadQuery), async (c) => {
    const ctx = actorCtxOf(c);
    const q = c.req.valid('query');
    return statementFile(ctx, await ownStatement(ctx, period(q), q.campus_id), q.format, langOf(c));
  });
