import { Hono } from 'hono';
import { z } from 'zod';
import { generateInvoices, previewInvoices } from '../domain/invoices/periodic';
import { generateInvoicesSchema } from '../domain/invoices/periodic-schema';
import { actorCtxOf, requireAuth, type ApiEnv } from './context';
import { idempotent } from './idempotency';
import { valid } from './validate';

const idParam = z.object({ id: z.string().min(1).max(40) });

/**
 * Periodic invoicing on demand (spec 002 s.7: `clients/{id}/generate-invoices` and
 * `campuses/{id}/generate-invoices` with from, to and group). GET previews what would be invoiced and
 * changes nothing; POST (the same fields as JSON) issues it. A policy is invoiced once: issuing again
 * answers no invoices. Decided in docs/decisions/billing.md, "Periodic invoicing".
 */
export const invoicingApi = new Hono<ApiEnv>()
  .use('/company/clients/:id/generate-invoices', requireAuth)
  .use('/company/campuses/:id/generate-invoices', requireAuth)
  .get(
    '/company/clients/:id/generate-invoices',
    valid('param', idParam),
    valid('query', generateInvoicesSchema),
    async (c) =>
      c.json({
        data: await previewInvoices(actorCtxOf(c), { client: c.req.valid('param').id }, c.req.valid('query')),
      }),
  )
  .post(
    '/company/clients/:id/generate-invoices',
    valid('param', idParam),
    valid('json', generateInvoicesSchema),
    idempotent,
    async (c) =>
      c.json({
        data: await generateInvoices(actorCtxOf(c), { client: c.req.valid('param').id }, c.req.valid('json')),
      }),
  )
  .get(
    '/company/campuses/:id/generate-invoices',
    valid('param', idParam),
    valid('query', generateInvoicesSchema),
    async (c) =>
      c.json({
        data: await previewInvoices(actorCtxOf(c), { campus: c.req.valid('param').id }, c.req.valid('query')),
      }),
  )
  .post(
    '/company/campuses/:id/generate-invoices',
    valid('param', idParam),
    valid('json', generateInvoicesSchema),
    idempotent,
    async (c) =>
      c.json({
        data: await generateInvoices(actorCtxOf(c), { campus: c.req.valid('param').id }, c.req.valid('json')),
      }),
  );
