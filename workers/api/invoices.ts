import { Hono } from 'hono';
import { z } from 'zod';
import {
  creditNoteSchema,
  invoiceDownloadSchema,
  invoiceItemsQuerySchema,
  invoiceListQuerySchema,
  voidInvoiceSchema,
} from '../domain/invoices/schema';
import {
  campusInvoices,
  clientInvoices,
  exportInvoices,
  invoiceSummary,
  requireInvoiceOf,
} from '../domain/invoices/service';
import { invoiceDetail } from '../domain/invoices/detail';
import { issueCreditNote, voidInvoice } from '../domain/invoices/corrections';
import { downloadInvoices, fileResponse, invoiceFile } from '../domain/invoices/files';
import { translate } from '../platform/i18n';
import { buildWorkbook, XLSX_CONTENT_TYPE } from '../platform/xlsx';
import { actorCtxOf, requireAuth, type ApiEnv } from './context';
import { valid } from './validate';

const idParam = z.object({ id: z.string().min(1).max(40) });
const ownerParam = z.object({ id: z.string().min(1).max(40), invoiceId: z.string().min(1).max(40) });

/**
 * Invoices beyond checkout (issue 10; spec 002 s.7 "Invoices and payments", the clients' and campuses'
 * invoice calls): the summary, the export, the ZIP of the chosen, each invoice's PDF and Excel, void,
 * credit note, and a client's and a campus's invoices. GET invoices and GET invoices/{id} stay in
 * checkout.ts (registered after this router, so `invoices/summary` is not read as an id).
 */
export const invoicesApi = new Hono<ApiEnv>()
  .use('/company/invoices/*', requireAuth)
  .use('/company/clients/:id/invoices', requireAuth)
  .use('/company/clients/:id/invoices/*', requireAuth)
  .use('/company/campuses/:id/invoices', requireAuth)
  .use('/company/campuses/:id/invoices/*', requireAuth)
  .get('/company/invoices/summary', valid('query', invoiceListQuerySchema), async (c) =>
    c.json({ data: { summary: await invoiceSummary(actorCtxOf(c), c.req.valid('query')) } }),
  )
  .get('/company/invoices/export', valid('query', invoiceListQuerySchema), async (c) => {
    const ctx = actorCtxOf(c);
    const rows = await exportInvoices(ctx, c.req.valid('query'));
    const t = (key: string) => translate('en', `invoices.${key}`);
    const body = await buildWorkbook([
      {
        name: t('title'),
        columns: EXPORT_COLUMNS.map(([key, label, width]) => ({ header: t(label), key, width })),
        rows: rows.map((r) => exportRow(r, t)),
      },
    ]);
    return new Response(body, {
      headers: {
        'content-type': XLSX_CONTENT_TYPE,
        'content-disposition': 'attachment; filename="invoices.xlsx"',
      },
    });
  })
  .post('/company/invoices/download', valid('json', invoiceDownloadSchema), async (c) =>
    downloadInvoices(actorCtxOf(c), c.req.valid('json')),
  )
  .get('/company/invoices/:id/pdf', valid('param', idParam), async (c) =>
    fileResponse(await invoiceFile(actorCtxOf(c), c.req.valid('param').id, 'pdf')),
  )
  .get('/company/invoices/:id/excel', valid('param', idParam), async (c) =>
    fileResponse(await invoiceFile(actorCtxOf(c), c.req.valid('param').id, 'excel')),
  )
  .post('/company/invoices/:id/void', valid('param', idParam), valid('json', voidInvoiceSchema), async (c) =>
    c.json({
      data: { invoice: await voidInvoice(actorCtxOf(c), c.req.valid('param').id, c.req.valid('json')) },
    }),
  )
  .post(
    '/company/invoices/:id/credit-note',
    valid('param', idParam),
    valid('json', creditNoteSchema),
    async (c) =>
      c.json(
        {
          data: {
            credit_note: await issueCreditNote(actorCtxOf(c), c.req.valid('param').id, c.req.valid('json')),
          },
        },
        201,
      ),
  )
  .get(
    '/company/clients/:id/invoices',
    valid('param', idParam),
    valid('query', invoiceListQuerySchema),
    async (c) =>
      c.json({
        data: {
          invoices: await clientInvoices(actorCtxOf(c), c.req.valid('param').id, c.req.valid('query')),
        },
      }),
  )
  .get(
    '/company/clients/:id/invoices/:invoiceId',
    valid('param', ownerParam),
    valid('query', invoiceItemsQuerySchema),
    async (c) => {
      const ctx = actorCtxOf(c);
      const p = c.req.valid('param');
      await requireInvoiceOf(ctx, { client: p.id }, p.invoiceId);
      return c.json({ data: { invoice: await invoiceDetail(ctx, p.invoiceId, c.req.valid('query')) } });
    },
  )
  .get(
    '/company/campuses/:id/invoices',
    valid('param', idParam),
    valid('query', invoiceListQuerySchema),
    async (c) =>
      c.json({
        data: {
          invoices: await campusInvoices(actorCtxOf(c), c.req.valid('param').id, c.req.valid('query')),
        },
      }),
  )
  .get(
    '/company/campuses/:id/invoices/:invoiceId',
    valid('param', ownerParam),
    valid('query', invoiceItemsQuerySchema),
    async (c) => {
      const ctx = actorCtxOf(c);
      const p = c.req.valid('param');
      await requireInvoiceOf(ctx, { campus: p.id }, p.invoiceId);
      return c.json({ data: { invoice: await invoiceDetail(ctx, p.invoiceId, c.req.valid('query')) } });
    },
  );

/** The export's columns: [key, label key, width]. */
export const EXPORT_COLUMNS: [string, string, number][] = [
  ['number', 'fields.number', 14],
  ['type', 'fields.type', 14],
  ['date', 'fields.date', 12],
  ['due_at', 'fields.due_at', 12],
  ['client', 'fields.client', 28],
  ['campus', 'fields.campus', 24],
  ['status', 'fields.status', 14],
  ['due_state', 'fields.due_state', 12],
  ['payment_method', 'fields.payment_method', 18],
  ['currency', 'fields.currency', 10],
  ['total', 'totals.total', 12],
  ['paid', 'totals.paid', 12],
  ['credited', 'totals.credited', 12],
  ['refunded', 'totals.refunded', 12],
  ['balance', 'totals.balance', 12],
  ['payment_reference', 'fields.payment_reference', 22],
];

export function exportRow(
  r: Awaited<ReturnType<typeof exportInvoices>>[number],
  t: (key: string) => string,
): Record<string, unknown> {
  return {
    number: r.number,
    type: t(`types.${r.type}`),
    date: r.date,
    due_at: r.due_at,
    client: r.client.name,
    campus: r.campus?.name ?? '',
    status: t(`statuses.${r.status}`),
    due_state: r.due_state ? t(`statuses.${r.due_state}`) : '',
    payment_method: t(`methods.${r.payment_method}`),
    currency: r.currency,
    total: r.total_minor / 100,
    paid: r.paid_minor / 100,
    credited: r.credited_minor / 100,
    refunded: r.refunded_minor / 100,
    balance: r.balance_minor / 100,
    payment_reference: r.payment_reference,
  };
}
