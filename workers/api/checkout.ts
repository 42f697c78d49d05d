import { Hono } from 'hono';
import { z } from 'zod';
import { confirmOpenSchema } from '../domain/checkout/schema';
import { confirmOpenBatches } from '../domain/checkout/service';
import { sendWelcomeEmails } from '../domain/checkout/welcome';
import { invoiceItemsQuerySchema, invoiceListQuerySchema } from '../domain/invoices/schema';
import { listInvoices } from '../domain/invoices/service';
import { invoiceDetail } from '../domain/invoices/detail';
import { approveBankTransferSchema, cardResultSchema, startPaymentSchema } from '../domain/payments/schema';
import {
  approveBankTransfer,
  invoiceTransactions,
  verifyCardResult,
  startBankTransfer,
  startCardPayment,
} from '../domain/payments/service';
import { formatMessage } from '../platform/i18n';
import { actorCtxOf, langOf, requireAuth, type ApiEnv } from './context';
import { idempotent } from './idempotency';
import { valid } from './validate';

const idParam = z.object({ id: z.string().min(1).max(40) });
const invoiceIdParam = z.object({ invoiceId: z.string().min(1).max(40) });

/**
 * Checkout, invoices and payments (spec 002 s.7 "Policy batches and enrollments": confirm-open and
 * send-welcome-email; "Invoices and payments"). Errors go through the one error handler.
 */
export const checkoutApi = new Hono<ApiEnv>()
  .use('/company/policy-batches/confirm-open', requireAuth)
  .use('/company/policy-batches/:id/send-welcome-email', requireAuth)
  .use('/company/invoices', requireAuth)
  .use('/company/invoices/*', requireAuth)
  .use('/company/payment/*', requireAuth)
  .use('/school/payment/*', requireAuth)
  .post('/company/policy-batches/confirm-open', valid('json', confirmOpenSchema), idempotent, async (c) => {
    const result = await confirmOpenBatches(actorCtxOf(c), c.req.valid('json'));
    return c.json({ data: result });
  })
  .post('/company/policy-batches/:id/send-welcome-email', valid('param', idParam), async (c) => {
    const result = await sendWelcomeEmails(actorCtxOf(c), c.req.valid('param').id);
    return c.json({ data: result });
  })
  .get('/company/invoices', valid('query', invoiceListQuerySchema), async (c) =>
    c.json({ data: { invoices: await listInvoices(actorCtxOf(c), c.req.valid('query')) } }),
  )
  .get(
    '/company/invoices/:id',
    valid('param', idParam),
    valid('query', invoiceItemsQuerySchema),
    async (c) => {
      const invoice = await invoiceDetail(actorCtxOf(c), c.req.valid('param').id, c.req.valid('query'));
      // The tax lines' labels are message keys the pages translate; the API answers them as text.
      const lang = langOf(c);
      const tax_lines = invoice.tax_lines.map((line) => ({
        ...line,
        label: formatMessage(line.label, lang),
      }));
      return c.json({ data: { invoice: { ...invoice, tax_lines } } });
    },
  )
  .get('/company/invoices/:id/transactions', valid('param', idParam), async (c) =>
    c.json({ data: { transactions: await invoiceTransactions(actorCtxOf(c), c.req.valid('param').id) } }),
  )
  .post(
    '/company/payment/invoices/:invoiceId/approve-bank-transfer',
    valid('param', invoiceIdParam),
    valid('json', approveBankTransferSchema),
    idempotent,
    async (c) => {
      const result = await approveBankTransfer(
        actorCtxOf(c),
        c.req.valid('param').invoiceId,
        c.req.valid('json'),
      );
      return c.json({ data: result });
    },
  )
  .post(
    '/school/payment/barclaycard/pay-invoice/verify',
    valid('json', cardResultSchema),
    idempotent,
    async (c) => {
      const result = await verifyCardResult(actorCtxOf(c), c.req.valid('json'));
      return c.json({ data: result });
    },
  )
  .post(
    '/school/payment/barclaycard/pay-invoice/:id/start',
    valid('param', idParam),
    valid('json', startPaymentSchema),
    idempotent,
    async (c) => {
      const result = await startCardPayment(actorCtxOf(c), c.req.valid('param').id, c.req.valid('json'));
      return c.json({ data: result });
    },
  )
  .post(
    '/school/payment/bank-transfer/pay-invoice/:id/start',
    valid('param', idParam),
    valid('json', startPaymentSchema),
    idempotent,
    async (c) => {
      const result = await startBankTransfer(actorCtxOf(c), c.req.valid('param').id, c.req.valid('json'));
      return c.json({ data: result });
    },
  );
