import { Hono } from 'hono';
import { z } from 'zod';
import { NotFound } from '../domain/errors';
import {
  allocationSchema,
  ignoreSchema,
  linesQuerySchema,
  statementListQuerySchema,
  statementMappingSchema,
} from '../domain/reconciliation/schema';
import {
  addAllocation,
  confirmStatement,
  findAllocatableInvoices,
  ignoreLine,
  removeAllocation,
} from '../domain/reconciliation/review';
import { getStatement, statementLines } from '../domain/reconciliation/service';
import { listStatements } from '../domain/reconciliation/statement-list';
import { confirmStatementMapping, uploadStatement } from '../domain/reconciliation/upload';
import { msg } from '../domain/validation';
import { actorCtxOf, requireAuth, type ApiEnv } from './context';
import { accepts, readMultipart, refuseFieldsOtherThan } from './body';
import { valid } from './validate';

/** A path's whole-number id (a credit's line number, an allocation), else "not found". */
function intParam(value: string, notFound: string): number {
  if (!/^\d{1,9}$/.test(value)) throw new NotFound(msg(notFound));
  return Number(value);
}

const invoiceSearchSchema = z.object({
  search: z.string().trim().max(100).default(''),
  currency: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{3}$/)
    .transform((v) => v.toUpperCase())
    .optional(),
});

/**
 * Bank reconciliation (not in the catalogue, named like its calls): upload a bank statement (CSV or
 * camt.053), list the statements (`data.bank_statements`, searched and filtered), match a CSV's columns,
 * read its credits and their matches (`data.lines`), allocate by hand, ignore a credit, confirm. Finance
 * (read_billing to read, update_billing to change).
 */
export const reconciliationApi = new Hono<ApiEnv>()
  .use('/company/bank-statements', requireAuth)
  .use('/company/bank-statements/*', requireAuth)
  .get('/company/bank-statements', valid('query', statementListQuerySchema), async (c) => {
    return c.json({ data: { bank_statements: await listStatements(actorCtxOf(c), c.req.valid('query')) } });
  })
  .post('/company/bank-statements/upload', accepts('multipart'), async (c) => {
    const form = await readMultipart(c);
    refuseFieldsOtherThan(form, ['file']);
    const { statement, existing } = await uploadStatement(actorCtxOf(c), form.get('file'));
    return c.json({ data: { bank_statement: statement, existing } }, existing ? 200 : 201);
  })
  .get('/company/bank-statements/:id', async (c) => {
    return c.json({ data: { bank_statement: await getStatement(actorCtxOf(c), c.req.param('id')) } });
  })
  .get('/company/bank-statements/:id/lines', valid('query', linesQuerySchema), async (c) => {
    return c.json({
      data: { lines: await statementLines(actorCtxOf(c), c.req.param('id'), c.req.valid('query')) },
    });
  })
  .get('/company/bank-statements/:id/invoices', valid('query', invoiceSearchSchema), async (c) => {
    const q = c.req.valid('query');
    const items = await findAllocatableInvoices(actorCtxOf(c), c.req.param('id'), q.search, q.currency);
    return c.json({ data: items });
  })
  .post('/company/bank-statements/:id/mapping', valid('json', statementMappingSchema), async (c) => {
    const view = await confirmStatementMapping(actorCtxOf(c), c.req.param('id'), c.req.valid('json'));
    return c.json({ data: { bank_statement: view } });
  })
  .post(
    '/company/bank-statements/:id/lines/:line/allocations',
    valid('json', allocationSchema),
    async (c) => {
      const line = intParam(c.req.param('line'), 'reconciliation.errors.line_not_found');
      const view = await addAllocation(actorCtxOf(c), c.req.param('id'), line, c.req.valid('json'));
      return c.json({ data: { line: view } }, 201);
    },
  )
  .delete('/company/bank-statements/:id/allocations/:allocationId', async (c) => {
    const id = intParam(c.req.param('allocationId'), 'reconciliation.errors.allocation_not_found');
    const view = await removeAllocation(actorCtxOf(c), c.req.param('id'), id);
    return c.json({ data: { line: view } });
  })
  .post('/company/bank-statements/:id/lines/:line/ignore', valid('json', ignoreSchema), async (c) => {
    const line = intParam(c.req.param('line'), 'reconciliation.errors.line_not_found');
    const view = await ignoreLine(actorCtxOf(c), c.req.param('id'), line, c.req.valid('json').ignored);
    return c.json({ data: { line: view } });
  })
  .post('/company/bank-statements/:id/confirm', async (c) => {
    return c.json({ data: { bank_statement: await confirmStatement(actorCtxOf(c), c.req.param('id')) } });
  });
