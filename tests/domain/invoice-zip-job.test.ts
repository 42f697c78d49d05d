/**
 * The ZIP of many invoices as a queued job (workers/domain/invoices/zip-job.ts): its messages go through
 * the queue consumer as miniflare's queue hands them over (createMessageBatch), each delivery rendering
 * a few invoices into R2 and going on in the next; the last writes the ZIP, which is streamed from R2.
 * Only the user who started it sees it; a job the queue gave up on says 'Error downloading invoice(s)'.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createExecutionContext, createMessageBatch, getQueueResult } from 'cloudflare:test';
import { eq, sql } from 'drizzle-orm';
import { jobs } from '../../drizzle/schema';
import type { ActorCtx } from '../../workers/domain/context';
import { NotFound, ValidationFailed } from '../../workers/domain/errors';
import { MAX_ZIP_INVOICES } from '../../workers/domain/invoices/schema';
import {
  downloadInvoicesZip,
  invoicesZipStatus,
  startInvoicesZip,
} from '../../workers/domain/invoices/zip-job';
import { handleQueue } from '../../workers/jobs/consumer';
import { formatMessage } from '../../workers/platform/i18n';
import { readCentralDirectory } from '../../workers/platform/zip';
import type { Env, JobMessage } from '../../workers/env';
import { actorCtx, DEMO_ACCOUNTS, SETUP_TIMEOUT_MS, testEnv } from '../support/world';
import { seedContractsWorld, STRANGER, type ContractsWorld } from '../support/contracts';
import { db, insertInvoice, type InvoiceRow } from '../support/billing';

let w: ContractsWorld;
let mine: InvoiceRow[];
let theirs: InvoiceRow;

/** The queue as the jobs see it: what they send is kept, to be delivered by the test as the queue would. */
function queue() {
  const sent: JobMessage[] = [];
  const env = {
    ...testEnv(),
    JOBS: { send: async (m: JobMessage) => void sent.push(m), sendBatch: async () => {} },
  } as unknown as Env;
  return { sent, env };
}

let deliveries = 0;
/** Delivers messages through the consumer as miniflare's queue does; answers which were acknowledged. */
async function deliver(env: Env, messages: JobMessage[], queueName = 'enrolment-jobs-uk') {
  const batch = createMessageBatch<JobMessage>(
    queueName,
    messages.map((body) => ({ id: `m-${++deliveries}`, timestamp: new Date(), attempts: 1, body })),
  );
  await handleQueue(batch, env);
  return getQueueResult(batch, createExecutionContext());
}

const finance = async (env: Env): Promise<ActorCtx> => ({ ...(await actorCtx(DEMO_ACCOUNTS.finance)), env });

beforeAll(async () => {
  w = await seedContractsWorld();
  const owner = { company_id: w.albion.id, client_id: w.oakwood.id, campus_id: w.north.id };
  mine = [];
  for (const total of [1_000, 2_000, 3_000, 4_000, 5_000])
    mine.push(await insertInvoice({ ...owner, total_minor: total }));
  const [other] = await db().all<{ company_id: number; client_id: number }>(
    sql`SELECT company_id, id AS client_id FROM clients WHERE company_id <> ${w.albion.id} LIMIT 1`,
  );
  if (!other) throw new Error('The world has a client of another company');
  theirs = await insertInvoice({ ...other, total_minor: 9_999 });
}, SETUP_TIMEOUT_MS);

describe('the invoices ZIP job', () => {
  it('renders a few invoices per delivery through the queue, then streams one ZIP from R2', async () => {
    const { sent, env } = queue();
    const ctx = await finance(env);
    const started = await startInvoicesZip(ctx, { ids: mine.map((i) => i.public_id), format: 'pdf' });
    expect(started).toMatchObject({ status: 'queued', total: 5, done: 0 });
    const [job] = await db().select().from(jobs).where(eq(jobs.public_id, started.id));
    await db()
      .update(jobs)
      .set({ payload: { ...job.payload, per_run: 2 } })
      .where(eq(jobs.id, job.id));

    // Starting puts the job on the queue; two invoices per delivery: five take three deliveries, each
    // acknowledged and (but the last) sending the next.
    expect(sent).toEqual([{ type: 'job.run', id: job.id }]);
    const first = await deliver(env, [sent[0]]);
    expect(first.explicitAcks).toHaveLength(1);
    expect(sent).toEqual([
      { type: 'job.run', id: job.id },
      { type: 'job.run', id: job.id },
    ]);
    expect(await invoicesZipStatus(ctx, started.id)).toMatchObject({ status: 'queued', done: 2, total: 5 });
    await deliver(env, [sent[1]]);
    expect(await invoicesZipStatus(ctx, started.id)).toMatchObject({ status: 'queued', done: 4 });
    await deliver(env, [sent[2]]);
    expect(sent).toHaveLength(3);
    const done = await invoicesZipStatus(ctx, started.id);
    expect(done).toMatchObject({ status: 'done', done: 5, percent: 100 });
    expect(done.result).toMatchObject({ invoices: 5, format: 'pdf' });

    const response = await downloadInvoicesZip(ctx, started.id);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toContain('invoices-pdf-');
    const zip = new Uint8Array(await response.arrayBuffer());
    expect(Number(response.headers.get('content-length'))).toBe(zip.length);
    const entries = readCentralDirectory(zip, 100);
    expect(Array.isArray(entries) && entries.map((e) => e.name)).toEqual(mine.map((i) => `${i.number}.pdf`));
    // Only the ZIP stays in R2: the single files are gone.
    const left = await env.FILES.list({ prefix: `jobs/${started.id}/` });
    expect(left.objects.map((o) => o.key)).toEqual([`jobs/${started.id}/${done.result!.file_name}`]);

    // A redelivered message of a finished job changes nothing.
    await deliver(env, [{ type: 'job.run', id: job.id }]);
    expect(await invoicesZipStatus(ctx, started.id)).toMatchObject({ status: 'done', done: 5 });
  });

  it('takes only the invoices the user may see, and shows the job to that user only', async () => {
    const { env } = queue();
    const ctx = await finance(env);
    const started = await startInvoicesZip(ctx, {
      ids: [mine[0].public_id, 'nosuchid'],
      format: 'excel',
    });
    expect(started.total).toBe(1);
    const stranger = { ...(await actorCtx(STRANGER.companyUser)), env };
    await expect(
      startInvoicesZip(stranger, { ids: [mine[0].public_id], format: 'pdf' }),
    ).rejects.toBeInstanceOf(NotFound);
    await expect(invoicesZipStatus(stranger, started.id)).rejects.toBeInstanceOf(NotFound);
    await expect(downloadInvoicesZip(stranger, started.id)).rejects.toBeInstanceOf(NotFound);
    // Not done yet: nothing to download.
    await expect(downloadInvoicesZip(ctx, started.id)).rejects.toBeInstanceOf(NotFound);
    // Another company's invoice named among them is left out.
    const own = await startInvoicesZip(ctx, { ids: [theirs.public_id, mine[1].public_id], format: 'pdf' });
    expect(own.total).toBe(1);
    const tooMany = await startInvoicesZip(ctx, {
      ids: Array.from({ length: MAX_ZIP_INVOICES + 1 }, (_, i) => `x${i}`),
      format: 'pdf',
    }).catch((e: unknown) => e);
    expect(tooMany).toBeInstanceOf(ValidationFailed);
  });

  it("says 'Error downloading invoice(s)' when the queue gave up on the job", async () => {
    const { env } = queue();
    const ctx = await finance(env);
    const started = await startInvoicesZip(ctx, { ids: [mine[2].public_id], format: 'pdf' });
    const [job] = await db().select().from(jobs).where(eq(jobs.public_id, started.id));
    await deliver(env, [{ type: 'job.run', id: job.id }], 'enrolment-jobs-dlq-uk');
    const failed = await invoicesZipStatus(ctx, started.id);
    expect(failed.status).toBe('failed');
    expect(formatMessage(failed.message!)).toBe('Error downloading invoice(s)');
  });
});
