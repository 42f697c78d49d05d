/**
 * Many invoices as one ZIP: a selection of more than MAX_DOWNLOAD_INVOICES (which
 * `downloadInvoices` answers in the request) is made by a queued job, as the insureds' documents ZIP is
 * (policy-documents/bulk.ts): each delivery renders invoices into R2 for its time budget (as the user
 * who started it, with what that user may see then) and goes on in the next; the last one writes the ZIP
 * into R2, streamed from the stored files. The page polls the job (RefreshWhile) and then offers the ZIP,
 * streamed from R2. A file that cannot be made fails the job: 'Error downloading invoice(s)'.
 */
import { and, asc } from 'drizzle-orm';
import { invoices } from '../../../drizzle/schema';
import type { Env } from '../../env';
import { inJson, type DB } from '../../platform/db';
import { fileResponse } from '../../platform/storage';
import { writeZipToBucket, type StoredZipEntry } from '../../platform/zip-store';
import { loadActor, requirePermission } from '../access/actor';
import { visibleInvoices } from '../access/scope';
import type { ActorCtx } from '../context';
import { NotFound, ValidationFailed } from '../errors';
import {
  ContinueJob,
  deliveryBudget,
  getJobStatus,
  reportProgress,
  startJob,
  type Job,
  type JobStatus,
} from '../jobs/service';
import { msg } from '../validation';
import { documentOf } from './document';
import { DOWNLOAD_FAILED, downloadInvoices, invoiceFileOf } from './files';
import { INVOICE_ACCESS, joinedInvoices, type JoinedInvoice } from './queries';
import {
  MAX_DOWNLOAD_INVOICES,
  MAX_ZIP_INVOICES,
  type InvoiceDownloadInput,
  type InvoiceFormat,
} from './schema';

export const INVOICES_ZIP_JOB = 'invoices.zip';
interface ZipPayload {
  invoice_ids: number[];
  format: InvoiceFormat;
  lang: string;
  /** At most this many invoices rendered per delivery (tests set it low); else the time budget. */
  per_run?: number;
}

const zipNameOf = (format: InvoiceFormat, now: Date) =>
  `invoices-${format === 'pdf' ? 'pdf' : 'excel'}-${now.toISOString().slice(0, 10)}.zip`;

/**
 * Starts the ZIP of the invoices `ids` (public ids; those not the actor's are left out, none at all is not
 * found) as a job, in the actor's language; answers its status (the page polls it).
 */
export async function startInvoicesZip(
  ctx: ActorCtx,
  input: { ids: readonly string[]; format: InvoiceFormat },
): Promise<JobStatus> {
  requirePermission(ctx.actor, INVOICE_ACCESS);
  if (input.ids.length > MAX_ZIP_INVOICES)
    throw ValidationFailed.field('ids', msg('invoices.errors.too_many', { max: MAX_ZIP_INVOICES }));
  const rows = await ctx.db
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(visibleInvoices(ctx.actor), inJson(invoices.public_id, [...input.ids])))
    .orderBy(asc(invoices.number));
  if (!rows.length) throw new NotFound(msg('checkout.errors.invoice_not_found'));
  const payload: ZipPayload = {
    invoice_ids: rows.map((r) => r.id),
    format: input.format,
    lang: ctx.lang ?? 'en',
  };
  return startJob(ctx, { type: INVOICES_ZIP_JOB, total: rows.length, payload: { ...payload } });
}

/** What a download of chosen invoices answers: the ZIP itself, or the job that makes it. */
export type InvoicesDownload = { zip: Response; job?: undefined } | { zip?: undefined; job: JobStatus };

/**
 * The ZIP of the invoices `ids` (public ids, as the list page and POST invoices/download send them): made
 * in the request up to MAX_DOWNLOAD_INVOICES, otherwise a queued job (the page then shows its progress,
 * the API answers 202 with it). Ids not the actor's are left out; none at all is not found.
 */
export async function downloadOrQueueInvoices(
  ctx: ActorCtx,
  input: InvoiceDownloadInput,
): Promise<InvoicesDownload> {
  const ids = [...new Set(input.ids)];
  if (ids.length <= MAX_DOWNLOAD_INVOICES)
    return { zip: await downloadInvoices(ctx, { ids, format: input.format }) };
  return { job: await startInvoicesZip(ctx, { ids, format: input.format }) };
}

/** The job runner: renders what is not in R2 yet (picking up where the last delivery stopped), then the ZIP. */
export async function runInvoicesZip(db: DB, env: Env, job: Job): Promise<Record<string, unknown>> {
  const payload = job.payload as unknown as ZipPayload;
  const actor = job.created_by
    ? // The company in view when the job was asked for; null there was "all companies" (stored as 0).
      await loadActor(db, job.created_by, { selectedCompanyId: job.company_id ?? 0 })
    : null;
  if (!actor) throw new Error('The user who asked for the invoices can no longer act.');
  const now = new Date();
  const ctx: ActorCtx = { db, env, now, actor, lang: payload.lang };
  // What the user may see now: an invoice gone out of their reach since is left out.
  const rows = (await joinedInvoices(ctx)
    .where(and(visibleInvoices(actor), inJson(invoices.id, payload.invoice_ids)))
    .orderBy(asc(invoices.number))) as JoinedInvoice[];
  const prefix = `jobs/${job.public_id}/files/`;
  const entries: StoredZipEntry[] = [];
  const budget = deliveryBudget(payload.per_run);
  for (const [n, row] of rows.entries()) {
    const name = `${row.invoice.number}.${payload.format === 'pdf' ? 'pdf' : 'xlsx'}`;
    const key = `${prefix}${name}`;
    let stored = await env.FILES.head(key);
    if (!stored) {
      if (await budget.spent()) {
        await reportProgress(db, job.id, { done: n, total: rows.length });
        throw new ContinueJob();
      }
      const file = await invoiceFileOf(ctx, await documentOf(ctx, row), payload.format);
      stored = await env.FILES.put(key, file.body, { httpMetadata: { contentType: file.contentType } });
      budget.made();
      if ((n + 1) % 10 === 0) await reportProgress(db, job.id, { done: n + 1, total: rows.length });
    }
    entries.push({ name, key, size: stored.size, lastModified: stored.uploaded });
  }
  await reportProgress(db, job.id, { done: rows.length, total: rows.length });
  const fileName = zipNameOf(payload.format, now);
  const zipKey = `jobs/${job.public_id}/${fileName}`;
  const size = await writeZipToBucket(env.FILES, zipKey, fileName, entries);
  // The single files have done their part: only the ZIP stays.
  for (let i = 0; i < entries.length; i += 1000)
    await env.FILES.delete(entries.slice(i, i + 1000).map((e) => e.key));
  return { file_key: zipKey, file_name: fileName, size, invoices: entries.length, format: payload.format };
}

/** The status of an invoices ZIP job the actor started (another job or another user's: not found). */
export async function invoicesZipStatus(ctx: ActorCtx, jobId: string): Promise<JobStatus> {
  requirePermission(ctx.actor, INVOICE_ACCESS);
  const status = await getJobStatus(ctx, jobId);
  if (status.type !== INVOICES_ZIP_JOB) throw new NotFound();
  // A failure the runner did not word (the queue gave up) is said as the spec says it.
  return status.status === 'failed' ? { ...status, message: DOWNLOAD_FAILED } : status;
}

/** The finished ZIP of an invoices job the actor started, streamed from R2. */
export async function downloadInvoicesZip(ctx: ActorCtx, jobId: string): Promise<Response> {
  const status = await invoicesZipStatus(ctx, jobId);
  if (status.status !== 'done' || !status.result) throw new NotFound();
  const result = status.result as { file_key: string; file_name: string };
  const response = await fileResponse(ctx.env.FILES, result.file_key, {
    name: result.file_name,
    contentType: 'application/zip',
  });
  if (!response) throw new NotFound();
  return response;
}
