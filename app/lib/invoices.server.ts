/**
 * What the invoice pages share on the server: the list's loader data for a scope (all, a client, a
 * campus), the export and the ZIP download, and an invoice's page data under a client or a campus.
 */
import { json, redirect, type AppLoadContext } from '@remix-run/cloudflare';
import type { ActorCtx } from '@server/domain/context';
import { isDomainError } from '@server/domain/errors';
import { startAboutPath } from '@server/domain/conversations/options';
import { threadsAbout } from '@server/domain/conversations/inbox';
import { invoiceDetail } from '@server/domain/invoices/detail';
import { EXPORT_COLUMNS, exportRow } from '@server/domain/invoices/files';
import {
  invoiceItemsQuerySchema,
  invoiceListQuerySchema,
  type InvoiceListQuery,
} from '@server/domain/invoices/schema';
import { downloadOrQueueInvoices } from '@server/domain/invoices/zip-job';
import { localePath } from '~/i18n/config';
import {
  exportInvoices,
  invoiceFilterOptions,
  invoiceSummary,
  listInvoices,
  requireInvoiceOf,
  selectedInvoiceIds,
} from '@server/domain/invoices/service';
import type { BulkSelection } from '@server/domain/list-query';
import { translate } from '@server/platform/i18n';
import { redirectWithToast } from './actions.server';
import { langOf } from './guards.server';
import { lenientQuery, queryOf, xlsxResponse } from './lists.server';

/** The list, its summary and the filters' choices, over the address's filters and a fixed scope. */
export async function invoiceListData(
  ctx: ActorCtx,
  request: Request,
  fixed: Partial<InvoiceListQuery> = {},
) {
  const query = { ...lenientQuery(invoiceListQuerySchema, queryOf(request)), ...fixed };
  const [list, summary, options] = await Promise.all([
    listInvoices(ctx, query),
    invoiceSummary(ctx, query),
    invoiceFilterOptions(ctx),
  ]);
  return { list, summary, options, staff: ctx.actor.user_type === 'company' };
}

/** The list's filters as an .xlsx ('Error downloading invoice(s)' back on the list when refused). */
export async function invoiceExportResponse(
  ctx: ActorCtx,
  request: Request,
  context: AppLoadContext,
  back: string,
  fixed: Partial<InvoiceListQuery> = {},
) {
  const lang = langOf(request);
  const query = { ...lenientQuery(invoiceListQuerySchema, queryOf(request)), ...fixed };
  const rows = await exportInvoices(ctx, query).catch((e: unknown) => {
    if (isDomainError(e)) return null;
    throw e;
  });
  if (!rows)
    return redirectWithToast(
      context,
      lang,
      `${back}${new URL(request.url).search}`,
      'invoices.errors.download_failed',
      {
        type: 'error',
      },
    );
  const t = (key: string) => translate(lang, `invoices.${key}`);
  return xlsxResponse('invoices.xlsx', {
    name: t('title'),
    columns: EXPORT_COLUMNS.map(([key, label, width]) => ({ header: t(label), key, width })),
    rows: rows.map((r) => exportRow(r, t)),
  });
}

/**
 * The ZIP of a selection (rows or all matching), or back to `back` with 'Error downloading invoice(s)'
 * when it cannot be made (nothing of the actor's, too many, a file that fails).
 */
export async function invoiceZipResponse(
  ctx: ActorCtx,
  context: AppLoadContext,
  lang: string,
  format: 'pdf' | 'excel',
  selection: BulkSelection,
  filters: Record<string, string>,
  back: string,
) {
  const query = lenientQuery(invoiceListQuerySchema, filters);
  const answer = await selectedInvoiceIds(ctx, selection, query)
    .then(async (ids) => {
      const answer = await downloadOrQueueInvoices({ ...ctx, lang }, { ids, format });
      // More than one request makes: a queued job, whose page shows its progress and then the ZIP.
      return answer.zip ?? redirect(localePath(lang, `/invoices/downloads/${answer.job.id}`));
    })
    .catch((e: unknown) => {
      if (isDomainError(e)) return null;
      throw e;
    });
  return (
    answer ?? redirectWithToast(context, lang, back, 'invoices.errors.download_failed', { type: 'error' })
  );
}

/** An invoice's page under a client or a campus: NotFound unless it is theirs and the actor's to see. */
export async function invoicePageData(
  ctx: ActorCtx,
  request: Request,
  owner: { client?: string; campus?: string },
  invoiceId: string,
) {
  await requireInvoiceOf(ctx, owner, invoiceId);
  const q = lenientQuery(invoiceItemsQuerySchema, queryOf(request));
  const [invoice, threads] = await Promise.all([
    invoiceDetail(ctx, invoiceId, q),
    threadsAbout(ctx, { invoice: invoiceId }),
  ]);
  const start = startAboutPath(ctx.actor, { invoice_id: invoiceId }, invoice.client.id);
  return json({ invoice, threads, start });
}

export { INVOICE_ACCESS, invoiceByNumber } from '@server/domain/invoices/queries';
export { fileResponse, invoiceFile } from '@server/domain/invoices/files';
export { campusInvoices, clientInvoices } from '@server/domain/invoices/service';
export { findCampus, findClient } from '@server/domain/access/finders';
export { can } from '@server/domain/access/actor';
export { downloadInvoicesZip, invoicesZipStatus } from '@server/domain/invoices/zip-job';
