import { Hono } from 'hono';
import { z } from 'zod';
import { RECEIPT_FIELD, editTransactionSchema, recordTransactionSchema } from '../domain/payments/schema';
import { editTransaction, receiptResponse, recordTransaction } from '../domain/payments/record';
import { overdueEmailSchema, sendOverdueEmails } from '../domain/reminders/overdue';
import { actorCtxOf, requireAuth, type ApiEnv } from './context';
import { idempotent } from './idempotency';
import { valid } from './validate';

const idParam = z.object({ id: z.string().min(1).max(40) });
const invoiceIdParam = z.object({ invoiceId: z.string().min(1).max(40) });
const receiptParam = z.object({
  id: z.string().min(1).max(40),
  transactionId: z.string().min(1).max(40),
});

/** The receipt file of a multipart body (already read and cached by the body's validator). */
async function receiptOf(c: { req: { formData: () => Promise<FormData> } }) {
  return (await c.req.formData()).get(RECEIPT_FIELD);
}

/**
 * Payments and refunds recorded by finance, and editing them (spec 002 s.7 "Invoices and payments":
 * POST invoices/{id}/transactions/record and /record/refund (multipart), PATCH invoices/{invoice_id}/
 * transactions). The receipt (PDF, JPG or PNG) is the multipart field `receipt`; its download is
 * GET invoices/{id}/transactions/{transactionId}/receipt. GET invoices/{id}/transactions is in checkout.ts.
 */
export const invoiceTransactionsApi = new Hono<ApiEnv>()
  .use('/company/invoices/*', requireAuth)
  // POST invoices/overdue-email (spec 002 s.7): a reminder now for the overdue ones of these invoices.
  .post('/company/invoices/overdue-email', valid('json', overdueEmailSchema), async (c) => {
    const result = await sendOverdueEmails(actorCtxOf(c), c.req.valid('json').invoice_ids);
    return c.json({ data: result });
  })
  .post(
    '/company/invoices/:id/transactions/record',
    valid('param', idParam),
    valid('form', recordTransactionSchema),
    idempotent,
    async (c) => {
      const result = await recordTransaction(
        actorCtxOf(c),
        c.req.valid('param').id,
        'payment',
        c.req.valid('form'),
        await receiptOf(c),
      );
      return c.json({ data: result }, result.duplicate ? 200 : 201);
    },
  )
  .post(
    '/company/invoices/:id/transactions/record/refund',
    valid('param', idParam),
    valid('form', recordTransactionSchema),
    idempotent,
    async (c) => {
      const result = await recordTransaction(
        actorCtxOf(c),
        c.req.valid('param').id,
        'refund',
        c.req.valid('form'),
        await receiptOf(c),
      );
      return c.json({ data: result }, result.duplicate ? 200 : 201);
    },
  )
  .patch(
    '/company/invoices/:invoiceId/transactions',
    valid('param', invoiceIdParam),
    valid('form', editTransactionSchema),
    idempotent,
    async (c) => {
      const result = await editTransaction(
        actorCtxOf(c),
        c.req.valid('param').invoiceId,
        c.req.valid('form'),
        await receiptOf(c),
      );
      return c.json({ data: result });
    },
  )
  .get(
    '/company/invoices/:id/transactions/:transactionId/receipt',
    valid('param', receiptParam),
    async (c) => {
      const { id, transactionId } = c.req.valid('param');
      return receiptResponse(actorCtxOf(c), id, transactionId);
    },
  );
