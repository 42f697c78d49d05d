import { Hono } from 'hono';
import { eq } from 'drizzle-orm';
import { jobs } from '../../drizzle/schema';
import type { Env, JobMessage } from '../env';
import { handleQueue } from '../jobs/consumer';
import { createDb } from '../platform/db';
import { devOnly } from './dev';

/**
 * Development-only (devOnly: absent in production, needs the local SESSION_SECRET): what Cloudflare Queues
 * does to a job whose deliveries keep failing, on demand, so a person or a browser test can see a failed
 * job's page without breaking anything.
 * - POST /__dev/jobs/give-up { job } (the job's public id): its message goes to the dead-letter queue's
 *   consumer, as after the last retry; answers the job's status then (a job already done stays done).
 */
export const devJobs = new Hono<{ Bindings: Env }>().use('*', devOnly).post('/give-up', async (c) => {
  const input = (await c.req.json()) as { job?: string };
  const db = createDb(c.env.DB);
  const [job] = await db
    .select({ id: jobs.id })
    .from(jobs)
    .where(eq(jobs.public_id, String(input.job ?? '')));
  if (!job) return c.json({ message: 'No such job' }, 404);
  const body: JobMessage = { type: 'job.run', id: job.id };
  const message = {
    id: `dev-give-up-${job.id}`,
    timestamp: new Date(),
    attempts: 4,
    body,
    ack() {},
    retry() {},
  };
  const batch = {
    queue: `enrolment-jobs-dlq-${c.env.REGION}`,
    messages: [message],
    ackAll() {},
    retryAll() {},
  } as unknown as MessageBatch<JobMessage>;
  await handleQueue(batch, c.env);
  const [after] = await db.select({ status: jobs.status }).from(jobs).where(eq(jobs.id, job.id));
  return c.json({ status: after.status });
});
