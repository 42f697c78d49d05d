import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createExecutionContext, createMessageBatch, getQueueResult } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { jobs } from '../../drizzle/schema';
import {
  claimJob,
  failJob,
  finishJob,
  getJobStatus,
  registerJobRunner,
  toStatus,
  type Job,
} from '../../workers/domain/jobs/service';
import { NotFound } from '../../workers/domain/errors';
import { handleMessage, handleQueue } from '../../workers/jobs/consumer';
import type { JobMessage } from '../../workers/env';
import { publicId } from '../../workers/platform/crypto';
import {
  DEMO_ACCOUNTS,
  actorCtx,
  db,
  seedUk,
  testEnv,
  userByEmail,
  SETUP_TIMEOUT_MS,
} from '../support/world';

const DEAD_LETTER_REASON =
  'The job could not be completed after several attempts. Please try again or contact support.';

/**
 * Jobs here are written straight to D1 and never put on the real queue, so only the test runs them
 * (the Worker's own consumer would otherwise pick them up in the background).
 */
async function queuedJob(type = 'test.noop', createdBy: number | null = null): Promise<Job> {
  const now = new Date();
  const [job] = await db()
    .insert(jobs)
    .values({ public_id: publicId(), type, created_by: createdBy, created_at: now, updated_at: now })
    .returning();
  return job;
}

async function jobRow(id: number) {
  const [row] = await db().select().from(jobs).where(eq(jobs.id, id));
  return row;
}

function deadLetterBatch(jobId: number) {
  return createMessageBatch<JobMessage>('enrolment-jobs-dlq-uk', [
    { id: `dlq-${jobId}`, timestamp: new Date(), attempts: 1, body: { type: 'job.run', id: jobId } },
  ]);
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('job claims', () => {
  it('claimJob claims a queued job once: a second claim gets nothing', async () => {
    const job = await queuedJob();
    const first = await claimJob(db(), job.id);
    expect(first?.status).toBe('running');
    expect(await claimJob(db(), job.id)).toBeNull();
  });

  it('claimJob lets only one of two simultaneous claims through', async () => {
    const job = await queuedJob();
    const claims = await Promise.all([claimJob(db(), job.id), claimJob(db(), job.id)]);
    expect(claims.filter(Boolean)).toHaveLength(1);
  });

  it('claimJob does not claim a finished or failed job', async () => {
    const done = await queuedJob();
    await finishJob(db(), done.id, { ok: true });
    expect(await claimJob(db(), done.id)).toBeNull();
    const failed = await queuedJob();
    await failJob(db(), failed.id, 'broken');
    expect(await claimJob(db(), failed.id)).toBeNull();
  });
});

describe('running jobs from the queue', () => {
  it('runs a job through its registered runner and stores the result', async () => {
    const runner = vi.fn(async (_db, _env, job: Job) => ({ ran: job.id }));
    registerJobRunner('test.works', runner);
    const job = await queuedJob('test.works');
    await handleMessage(testEnv(), { type: 'job.run', id: job.id });
    expect(await jobRow(job.id)).toMatchObject({ status: 'done', result: { ran: job.id } });
    // A repeated delivery of the same message changes nothing.
    await handleMessage(testEnv(), { type: 'job.run', id: job.id });
    expect(runner).toHaveBeenCalledTimes(1);
  });

  it('marks a job of an unknown type failed with a reason', async () => {
    const job = await queuedJob('test.nobody-runs-this');
    await handleMessage(testEnv(), { type: 'job.run', id: job.id });
    expect(await jobRow(job.id)).toMatchObject({
      status: 'failed',
      message: 'This kind of job is not known to the server.',
    });
  });

  it('puts a job whose runner throws back to queued and asks the queue to retry it', async () => {
    registerJobRunner('test.throws', async () => {
      throw new Error('temporary trouble');
    });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const job = await queuedJob('test.throws');
    const batch = createMessageBatch<JobMessage>('enrolment-jobs-uk', [
      { id: 'run-1', timestamp: new Date(), attempts: 1, body: { type: 'job.run', id: job.id } },
    ]);
    await handleQueue(batch, testEnv());
    const result = await getQueueResult(batch, createExecutionContext());
    expect(result.retryMessages.map((m: { msgId: string }) => m.msgId)).toEqual(['run-1']);
    expect((await jobRow(job.id)).status).toBe('queued');
  });
});

describe('dead-letter queue', () => {
  it('marks the job failed with the reason the user sees', async () => {
    const job = await queuedJob();
    await claimJob(db(), job.id);
    const batch = deadLetterBatch(job.id);
    await handleQueue(batch, testEnv());
    const result = await getQueueResult(batch, createExecutionContext());
    expect(result.explicitAcks).toEqual([`dlq-${job.id}`]);
    const row = await jobRow(job.id);
    expect(row).toMatchObject({ status: 'failed', message: DEAD_LETTER_REASON });
    expect(row.finished_at).not.toBeNull();
    expect(toStatus(row).status).toBe('failed');
  });

  it('never turns a finished job into a failed one', async () => {
    const job = await queuedJob();
    await finishJob(db(), job.id, { rows: 3 }, 'Imported 3 rows');
    await handleQueue(deadLetterBatch(job.id), testEnv());
    await failJob(db(), job.id, 'late failure');
    expect(await jobRow(job.id)).toMatchObject({
      status: 'done',
      message: 'Imported 3 rows',
      result: { rows: 3 },
    });
  });
});

describe('job status', () => {
  beforeAll(async () => {
    await seedUk();
  }, SETUP_TIMEOUT_MS);

  it('shows progress as a percentage, and a job to its creator only', async () => {
    const finance = await userByEmail(DEMO_ACCOUNTS.finance);
    const job = await queuedJob('test.progress', finance.id);
    await db().update(jobs).set({ total: 8, done: 3 }).where(eq(jobs.id, job.id));
    const own = await getJobStatus(await actorCtx(DEMO_ACCOUNTS.finance), job.public_id);
    expect(own).toMatchObject({ id: job.public_id, status: 'queued', total: 8, done: 3, percent: 37 });
    await expect(getJobStatus(await actorCtx(DEMO_ACCOUNTS.admin), job.public_id)).rejects.toBeInstanceOf(
      NotFound,
    );
  });
});
