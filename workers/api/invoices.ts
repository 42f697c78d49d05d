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
import { EXPORT_COLUMNS, exportRow, fileResponse, invoiceFile } from '../domain/invoices/files';
import { downloadInvoicesZip, downloadOrQueueInvoices, invoicesZipStatus } from '../domain/invoices/zip-job';
import type { JobStatus } from '../domain/jobs/service';
import { formatMessage, translate } from '../platform/i18n';
import { buildWorkbook, XLSX_CONTENT_TYPE } from '../platform/xlsx';
import { actorCtxOf, fileAnswer, langOf, requireAuth, type ApiEnv } from './context';
import { valid } from './validate';

const idParam = z.object({ id: z.string().min(1).max(40) });
const ownerParam = z.object({ id: z.string().min(1).max(40), invoiceId: z.string().min(1).max(40) });
const jobParam = z.object({ jobId: z.string().min(1).max(64) });

/**
 * An invoices ZIP job as the API answers it: its state, progress, where to ask again and, once ready,
 * where the ZIP is; a failure says 'Error downloading invoice(s)'.
 */
function zipJobOf(job: JobStatus, lang: string) {
  const path = `/api/company/invoices/download/${job.id}`;
  const result = job.result as { invoices?: number; size?: number; file_name?: string } | null;
  const ready = job.status === 'done';
  return {
    id: job.id,
    status: job.status,
    ready,
    done: job.done,
    total: job.total,
    percent: job.percent,
    message: job.status === 'failed' && job.message ? formatMessage(job.message, lang) : null,
    status_url: path,
    file_url: ready ? `${path}/file` : null,
    file_name: ready ? (result?.file_name ?? null) : null,
    invoices: ready ? (result?.invoices ?? 0) : null,
    size: ready ? (result?.size ?? 0) : null,
    finished_at: job.finished_at,
  };
}

/**
 * Invoices beyond checkout (spec 002 s.7 "Invoices and payments", the clients' and campuses'
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
    const t = (key: string) => translate(langOf(c), `invoices.${key}`);
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
  .post('/company/invoices/download', valid('json', invoiceDownloadSchema), async (c) => {
    const answer = await downloadOrQueueInvoices(actorCtxOf(c), c.req.valid('json'));
    return answer.zip
      ? fileAnswer(answer.zip)
      : c.json({ data: { job: zipJobOf(answer.job, langOf(c)) } }, 202);
  })
  .get('/company/invoices/download/:jobId', valid('param', jobParam), async (c) =>
    c.json({
      data: { job: zipJobOf(await invoicesZipStatus(actorCtxOf(c), c.req.valid('param').jobId), langOf(c)) },
    }),
  )
  .get('/company/invoices/download/:jobId/file', valid('param', jobParam), async (c) =>
    downloadInvoicesZip(actorCtxOf(c), c.req.valid('param').jobId),
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
