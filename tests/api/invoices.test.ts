/**
 * The invoice calls through the API: summary, export, download (ZIP, or above 200 a job
 * with its status and its ZIP), PDF and Excel, void, credit note, a client's and a campus's invoices,
 * with good and bad input.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createExecutionContext, createMessageBatch, getQueueResult } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { invoiceItems, jobs } from '../../drizzle/schema';
import { MAX_ZIP_INVOICES } from '../../workers/domain/invoices/schema';
import type { JobMessage } from '../../workers/env';
import { createApp } from '../../workers/http';
import { handleMessage, handleQueue } from '../../workers/jobs/consumer';
import { readCentralDirectory } from '../../workers/platform/zip';
import { apiToken, call, type ErrorEnvelope } from '../support/api';
import { DEMO_ACCOUNTS, SETUP_TIMEOUT_MS, testEnv, uniqueIp } from '../support/world';
import { seedContractsWorld, STRANGER, type ContractsWorld } from '../support/contracts';
import { db, day, insertInvoice, type InvoiceRow } from '../support/billing';

vi.mock('@remix-run/cloudflare', () => import('../support/remix-stub'));

let w: ContractsWorld;
let finance: string;
let stranger: string;
let school: string;
let a: InvoiceRow;
let b: InvoiceRow;

async function withLine(row: InvoiceRow) {
  await db()
    .insert(invoiceItems)
    .values({
      invoice_id: row.id,
      description: 'Cover',
      unit_minor: row.total_minor - row.tax_minor,
      tax_minor: row.tax_minor,
      total_minor: row.total_minor,
      tax_rate_bp: 2000,
    });
  return row;
}

beforeAll(async () => {
  w = await seedContractsWorld();
  const base = { company_id: w.albion.id, client_id: w.oakwood.id, campus_id: w.north.id };
  a = await withLine(await insertInvoice({ ...base, total_minor: 12_000, tax_minor: 2000, due_at: day(-5) }));
  b = await withLine(await insertInvoice({ ...base, total_minor: 6000, tax_minor: 1000, currency: 'EUR' }));
  finance = await apiToken(DEMO_ACCOUNTS.finance);
  stranger = await apiToken(STRANGER.companyUser);
  school = await apiToken(DEMO_ACCOUNTS.schoolAdmin);
}, SETUP_TIMEOUT_MS);

describe('invoice calls', () => {
  it('GET invoices filters by status overdue and GET invoices/summary sums per currency', async () => {
    const list = await call<{ data: { invoices: { items: { number: string; due_state: string }[] } } }>(
      `/api/company/invoices?status=overdue&number=${a.number}`,
      { token: finance },
    );
    expect(list.status).toBe(200);
    expect(list.body.data.invoices.items).toEqual([
      expect.objectContaining({ number: a.number, due_state: 'overdue' }),
    ]);
    const summary = await call<{ data: { summary: { currency: string; balance_minor: number }[] } }>(
      '/api/company/invoices/summary?currency=EUR',
      { token: finance },
    );
    expect(summary.status).toBe(200);
    expect(summary.body.data.summary).toEqual([
      expect.objectContaining({ currency: 'EUR', balance_minor: 6000 }),
    ]);
  });

  it('GET invoices/export answers an .xlsx; GET invoices/{id}/pdf and /excel are named by the number', async () => {
    const x = await call('/api/company/invoices/export?currency=EUR', { token: finance });
    expect(x.status).toBe(200);
    expect(x.headers.get('content-type')).toContain('spreadsheetml');
    const pdf = await call(`/api/company/invoices/${a.public_id}/pdf`, { token: finance });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-disposition')).toContain(`${a.number}.pdf`);
    const xlsx = await call(`/api/company/invoices/${a.public_id}/excel`, { token: finance });
    expect(xlsx.headers.get('content-disposition')).toContain(`${a.number}.xlsx`);
    const other = await call(`/api/company/invoices/${a.public_id}/pdf`, { token: stranger });
    expect(other.status).toBe(404);
  });

  it('POST invoices/download answers one ZIP of the chosen; a bad format or no ids is refused', async () => {
    const zip = await call('/api/company/invoices/download', {
      method: 'POST',
      token: finance,
      json: { ids: [a.public_id, b.public_id], format: 'pdf' },
    });
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    // Stored entries: both names are in the archive's text, the local headers and the directory.
    expect(String(zip.body)).toContain(`${a.number}.pdf`);
    expect(String(zip.body)).toContain(`${b.number}.pdf`);
    const bad = await call('/api/company/invoices/download', {
      method: 'POST',
      token: finance,
      json: { ids: [], format: 'doc' },
    });
    expect(bad.status).toBe(422);
  });

  it('POST invoices/{id}/credit-note issues a CN; POST invoices/{id}/void refuses one without a reason and a credited one', async () => {
    const noReason = await call(`/api/company/invoices/${a.public_id}/void`, {
      method: 'POST',
      token: finance,
      json: {},
    });
    expect(noReason.status).toBe(422);
    const note = await call<{ data: { credit_note: { number: string } } }>(
      `/api/company/invoices/${a.public_id}/credit-note`,
      { method: 'POST', token: finance, json: { reason: 'Wrong price' } },
    );
    expect(note.status).toBe(201);
    expect(note.body.data.credit_note.number).toMatch(/^CN\d{7}$/);
    const voided = await call(`/api/company/invoices/${a.public_id}/void`, {
      method: 'POST',
      token: finance,
      json: { reason: 'x' },
    });
    expect(voided.status).toBe(409);
    const ok = await call<{ data: { invoice: { status: string } } }>(
      `/api/company/invoices/${b.public_id}/void`,
      {
        method: 'POST',
        token: finance,
        json: { reason: 'Raised twice' },
      },
    );
    expect(ok.status).toBe(200);
    expect(ok.body.data.invoice.status).toBe('void');
    const forbidden = await call(`/api/company/invoices/${b.public_id}/void`, {
      method: 'POST',
      token: school,
      json: { reason: 'x' },
    });
    expect(forbidden.status).toBe(403);
  });

  it("GET clients/{id}/invoices(/{invoice_id}) and campuses/{id}/invoices(/{invoice_id}): the owner's, not another's", async () => {
    const mine = await call<{ data: { invoices: { items: unknown[] } } }>(
      `/api/company/clients/${w.oakwood.public_id}/invoices`,
      { token: finance },
    );
    expect(mine.status).toBe(200);
    expect(mine.body.data.invoices.items.length).toBeGreaterThanOrEqual(2);
    const one = await call<{ data: { invoice: { number: string; tax_lines: unknown[] } } }>(
      `/api/company/campuses/${w.north.public_id}/invoices/${a.public_id}`,
      { token: finance },
    );
    expect(one.status).toBe(200);
    expect(one.body.data.invoice.number).toBe(a.number);
    const wrongCampus = await call(`/api/company/campuses/${w.south.public_id}/invoices/${a.public_id}`, {
      token: finance,
    });
    expect(wrongCampus.status).toBe(404);
    const theirs = await call(`/api/company/clients/${w.oakwood.public_id}/invoices`, { token: stranger });
    expect(theirs.status).toBe(404);
    const detail = await call(`/api/company/clients/${w.oakwood.public_id}/invoices/${a.public_id}`, {
      token: finance,
    });
    expect(detail.status).toBe(200);
  });
});

// The ZIP job is run here by handing its message to the consumer, as the queue would.
const quietQueue = { send: async () => {}, sendBatch: async () => {} } as never;
const app = createApp();

/** A call whose answer is a file: its status, headers and bytes. */
async function download(path: string, token: string) {
  const res = await app.request(
    path,
    { headers: { authorization: `Bearer ${token}`, 'cf-connecting-ip': uniqueIp() } },
    testEnv(),
  );
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

interface ZipJob {
  id: string;
  status: string;
  ready: boolean;
  done: number;
  total: number;
  percent: number;
  message: string | null;
  status_url: string;
  file_url: string | null;
  file_name: string | null;
  invoices: number | null;
}

/** More than 200 ids (so the call queues a job): the invoices named, then ids of nothing. */
const overLimit = (ids: string[]) => [...ids, ...Array.from({ length: 201 }, (_, i) => `nothing-${i}`)];

describe('invoices/download above 200 invoices: a job', () => {
  let c: InvoiceRow;
  let d: InvoiceRow;
  beforeAll(async () => {
    const base = { company_id: w.albion.id, client_id: w.oakwood.id, campus_id: w.north.id };
    c = await withLine(await insertInvoice({ ...base, total_minor: 2400, tax_minor: 400 }));
    d = await withLine(await insertInvoice({ ...base, total_minor: 3600, tax_minor: 600 }));
  });

  it('answers 202 with the job and its status URL; the status shows progress, then the ZIP', async () => {
    const started = await call<{ data: { job: ZipJob } }>('/api/company/invoices/download', {
      method: 'POST',
      token: finance,
      json: { ids: overLimit([d.public_id, c.public_id]), format: 'excel' },
      env: { JOBS: quietQueue },
    });
    expect(started.status).toBe(202);
    const job = started.body.data.job;
    expect(job).toMatchObject({
      status: 'queued',
      ready: false,
      done: 0,
      total: 2,
      percent: 0,
      message: null,
      status_url: `/api/company/invoices/download/${job.id}`,
      file_url: null,
    });
    // Not ready: no file yet.
    expect((await download(`${job.status_url}/file`, finance)).status).toBe(404);

    const [row] = await db().select().from(jobs).where(eq(jobs.public_id, job.id));
    await handleMessage(testEnv(), { type: 'job.run', id: row.id });
    const status = await call<{ data: { job: ZipJob } }>(job.status_url, { token: finance });
    expect(status.status).toBe(200);
    expect(status.body.data.job).toMatchObject({
      status: 'done',
      ready: true,
      done: 2,
      total: 2,
      percent: 100,
      invoices: 2,
      file_url: `/api/company/invoices/download/${job.id}/file`,
    });
    const zip = await download(status.body.data.job.file_url!, finance);
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    expect(zip.headers.get('content-disposition')).toContain(status.body.data.job.file_name!);
    const entries = readCentralDirectory(zip.bytes, 10);
    if (!Array.isArray(entries)) throw new Error('not a zip');
    expect(entries.map((e) => e.name)).toEqual([`${c.number}.xlsx`, `${d.number}.xlsx`]);
  });

  it("is the caller's only: another company's user, or a school user, gets not found", async () => {
    const started = await call<{ data: { job: ZipJob } }>('/api/company/invoices/download', {
      method: 'POST',
      token: finance,
      json: { ids: overLimit([c.public_id]), format: 'pdf' },
      env: { JOBS: quietQueue },
    });
    const { status_url } = started.body.data.job;
    for (const token of [stranger, school]) {
      expect((await call(status_url, { token })).status).toBe(404);
      expect((await download(`${status_url}/file`, token)).status).toBe(404);
    }
    // Another company's user naming our invoices finds none of them.
    const theirs = await call('/api/company/invoices/download', {
      method: 'POST',
      token: stranger,
      json: { ids: overLimit([c.public_id]), format: 'pdf' },
      env: { JOBS: quietQueue },
    });
    expect(theirs.status).toBe(404);
    expect((await call('/api/company/invoices/download/nosuchjob', { token: finance })).status).toBe(404);
  });

  it("says 'Error downloading invoice(s)' when the job failed", async () => {
    const started = await call<{ data: { job: ZipJob } }>('/api/company/invoices/download', {
      method: 'POST',
      token: finance,
      json: { ids: overLimit([d.public_id]), format: 'pdf' },
      env: { JOBS: quietQueue },
    });
    const [row] = await db().select().from(jobs).where(eq(jobs.public_id, started.body.data.job.id));
    // The queue gave up on it: its message lands on the dead-letter queue.
    const batch = createMessageBatch<JobMessage>('enrolment-jobs-dlq-uk', [
      { id: 'dlq-1', timestamp: new Date(), attempts: 1, body: { type: 'job.run', id: row.id } },
    ]);
    await handleQueue(batch, testEnv());
    await getQueueResult(batch, createExecutionContext());
    const failed = await call<{ data: { job: ZipJob } }>(started.body.data.job.status_url, {
      token: finance,
    });
    expect(failed.body.data.job).toMatchObject({
      status: 'failed',
      ready: false,
      message: 'Error downloading invoice(s)',
      file_url: null,
    });
    expect((await download(`${started.body.data.job.status_url}/file`, finance)).status).toBe(404);
  });

  it('refuses more than 5000 ids, ids that are not strings and an unknown format', async () => {
    const tooMany = await call<ErrorEnvelope>('/api/company/invoices/download', {
      method: 'POST',
      token: finance,
      json: { ids: Array.from({ length: MAX_ZIP_INVOICES + 1 }, (_, i) => `x${i}`), format: 'pdf' },
      env: { JOBS: quietQueue },
    });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.errors).toEqual([
      { key: 'ids', message: 'Choose at most 5000 invoices to download at once.' },
    ]);
    for (const json of [
      { ids: [1, 2], format: 'pdf' },
      { ids: c.public_id, format: 'pdf' },
      { ids: [c.public_id], format: 'zip' },
      { ids: [c.public_id] },
    ]) {
      const bad = await call('/api/company/invoices/download', { method: 'POST', token: finance, json });
      expect(bad.status, JSON.stringify(json)).toBe(422);
    }
  });

  it('is in the OpenAPI document and on /api/docs: the ZIP (200), the job (202), its status and its ZIP', async () => {
    type Answer = { description: string; content?: Record<string, { schema: unknown }> };
    const doc = await call<{
      paths: Record<string, Record<string, { responses: Record<string, Answer> }>>;
      components: { schemas: Record<string, unknown> };
    }>('/api/openapi.json');
    const download = doc.body.paths['/api/company/invoices/download'].post.responses;
    expect(Object.keys(download['200'].content!)).toEqual(['application/octet-stream']);
    expect(download['202'].description).toBe('Accepted');
    // The 202 answer is `data.job`, the same shape as the job's status answer.
    const resolve = (node: unknown): unknown => {
      if (Array.isArray(node)) return node.map(resolve);
      if (!node || typeof node !== 'object') return node;
      const ref = (node as { $ref?: string }).$ref;
      if (ref) return resolve(doc.body.components.schemas[ref.split('/').pop()!]);
      return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, resolve(v)]));
    };
    const shapeOf = (answer: Answer) => JSON.stringify(resolve(answer.content!['application/json'].schema));
    const status = doc.body.paths['/api/company/invoices/download/{jobId}'].get.responses['200'];
    expect(shapeOf(download['202'])).toContain('status_url');
    expect(shapeOf(download['202'])).toBe(shapeOf(status));
    expect(doc.body.paths['/api/company/invoices/download/{jobId}/file'].get.responses['200']).toBeDefined();

    const page = await call<string>('/api/docs');
    const section = page.body.slice(page.body.indexOf('id="post-/api/company/invoices/download"'));
    const own = section.slice(0, section.indexOf('</section>'));
    expect(own).toContain('Answer 200 The file (application/octet-stream)');
    expect(own).toContain('Answer 202 Accepted (application/json)');
  });
});
