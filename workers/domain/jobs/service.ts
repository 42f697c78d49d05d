import { and, eq, ne, sql } from 'drizzle-orm';
import { jobs } from '../../../drizzle/schema';
import type { Env } from '../../env';
import { publicId } from '../../platform/crypto';
import type { DB } from '../../platform/db';
import type { ActorCtx } from '../context';
import { NotFound } from '../errors';

export type Job = typeof jobs.$inferSelect;

/** What a page polls: a job's state and progress, without its payload. */
export interface JobStatus {
  id: string;
  type: string;
  status: Job['status'];
  total: number;
  done: number;
  error_count: number;
  percent: number;
  message: string | null;
  result: Record<string, unknown> | null;
  /** When the job ended (done or failed), ISO 8601; null while it is queued or running. */
  finished_at: string | null;
}

export function toStatus(job: Job): JobStatus {
  return {
    id: job.public_id,
    type: job.type,
    status: job.status,
    total: job.total,
    done: job.done,
    error_count: job.error_count,
    percent:
      job.total > 0
        ? Math.min(100, Math.floor((job.done / job.total) * 100))
        : job.status === 'done'
          ? 100
          : 0,
    message: job.message,
    result: job.result,
    finished_at: job.finished_at ? job.finished_at.toISOString() : null,
  };
}

/** Creates a job row and puts it on the queue. Long work always goes through here. */
export async function startJob(
  ctx: ActorCtx,
  input: { type: string; payload?: Record<string, unknown>; total?: number },
): Promise<JobStatus> {
  const [job] = await ctx.db
    .insert(jobs)
    .values({
      public_id: publicId(),
      type: input.type,
      payload: input.payload ?? null,
      total: input.total ?? 0,
      created_by: ctx.actor.user_id,
      company_id: ctx.actor.selected_company_id,
      client_id: ctx.actor.client_id,
      created_at: ctx.now,
      updated_at: ctx.now,
    })
    .returning();
  await ctx.env.JOBS.send({ type: 'job.run', id: job.id });
  return toStatus(job);
}

/** A job the caller started: what its progress bar polls. Anyone else's job answers not found. */
export async function getJobStatus(ctx: ActorCtx, id: string): Promise<JobStatus> {
  const [job] = await ctx.db.select().from(jobs).where(eq(jobs.public_id, id)).limit(1);
  if (!job || job.created_by !== ctx.actor.user_id) throw new NotFound();
  return toStatus(job);
}

/** Progress reporting for consumers. */
export async function reportProgress(
  db: DB,
  id: number,
  progress: { done?: number; total?: number; errors?: number },
) {
  await db
    .update(jobs)
    .set({
      ...(progress.done !== undefined ? { done: progress.done } : {}),
      ...(progress.total !== undefined ? { total: progress.total } : {}),
      ...(progress.errors !== undefined ? { error_count: progress.errors } : {}),
      updated_at: new Date(),
    })
    .where(eq(jobs.id, id));
}

/** Claims a queued job for running; false when another delivery already runs or finished it. */
export async function claimJob(db: DB, id: number): Promise<Job | null> {
  const [job] = await db
    .update(jobs)
    .set({ status: 'running', updated_at: new Date() })
    .where(and(eq(jobs.id, id), eq(jobs.status, 'queued')))
    .returning();
  return job ?? null;
}

/** Puts a job that failed while running back to queued, so the retried message can claim it. */
export async function releaseJob(db: DB, id: number) {
  await db
    .update(jobs)
    .set({ status: 'queued', updated_at: new Date() })
    .where(and(eq(jobs.id, id), eq(jobs.status, 'running')));
}

export async function finishJob(
  db: DB,
  id: number,
  result: Record<string, unknown> | null,
  message?: string,
) {
  await db
    .update(jobs)
    .set({
      status: 'done',
      result,
      message: message ?? null,
      finished_at: new Date(),
      updated_at: new Date(),
    })
    // A runner that failed its job itself (a failure no retry can cure) keeps it failed.
    .where(and(eq(jobs.id, id), ne(jobs.status, 'failed')));
}

/** Marks a job failed with a reason the user understands (the dead-letter consumer calls this). */
export async function failJob(db: DB, id: number, reason: string) {
  await db
    .update(jobs)
    .set({ status: 'failed', message: reason, finished_at: new Date(), updated_at: new Date() })
    .where(and(eq(jobs.id, id), sql`${jobs.status} != 'done'`));
}

/**
 * Thrown by a runner that did part of its work and goes on in a new delivery: the consumer puts the job
 * back to queued and sends it again, so a long job (thousands of PDFs) stays under the CPU limit of one
 * queue invocation. The runner must pick up where it stopped (its work so far is stored).
 */
export class ContinueJob extends Error {
  constructor() {
    super('The job goes on in a new delivery');
  }
}

/**
 * How long one delivery of a long job works before it goes on in the next (ContinueJob). The files a job
 * makes vary from 20 ms (a one-line invoice) to 2 s (hundreds of lines), so a count alone can hold one
 * delivery for minutes: past the CPU limit of a queue invocation deployed, and, in the local runtime
 * (one isolate for pages and queue alike), long enough to make pages wait. Time spent is read after
 * each file is stored (a Worker's clock moves on I/O), so a delivery ends within one file of its budget.
 */
export const DELIVERY_BUDGET_MS = 5_000;

/** A delivery's budget: at most `maxFiles` files (tests set it low) and DELIVERY_BUDGET_MS. */
export function deliveryBudget(maxFiles = Infinity, ms = DELIVERY_BUDGET_MS) {
  const until = Date.now() + ms;
  let made = 0;
  return {
    /** One more file made. */
    made() {
      made += 1;
    },
    /**
     * Whether the delivery has done its share (at least one file, so every delivery moves on). Asked
     * between files, it first lets the runtime take in what arrived meanwhile: D1 and R2 calls in the
     * local runtime never leave its event loop, so without a timer turn a delivery would hold every
     * page request (and its connection, which the runtime then drops) until it ends.
     */
    async spent() {
      await new Promise((resolve) => setTimeout(resolve, 0));
      return made > 0 && (made >= maxFiles || Date.now() >= until);
    },
  };
}

/** Job runners by type; areas register theirs (imports, bulk cancellation, reports). */
export type JobRunner = (db: DB, env: Env, job: Job) => Promise<Record<string, unknown> | null>;
const runners = new Map<string, JobRunner>();

export function registerJobRunner(type: string, runner: JobRunner) {
  runners.set(type, runner);
}

export function runnerFor(type: string): JobRunner | undefined {
  return runners.get(type);
}
