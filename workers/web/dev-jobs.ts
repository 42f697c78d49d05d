import { Hono } from 'hono';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { jobs } from '../../drizzle/schema';
import type { Env, JobMessage } from '../env';
import { handleQueue } from '../jobs/consumer';
import { createDb } from '../platform/db';
import { handleApiError } from '../api/errors';
import { valid } from '../api/validate';
import { devOnly } from './dev';

const giveUpSchema = z.object({ job: z.string().trim().min(1).max(64) });

/**
 * Development-only (devOnly: absent in production, needs the local SESSION_SECRET): what Cloudflare Queues
 * does to a job whose deliveries keep failing, on demand, so a person or a browser test can see a failed
 * job's page without breaking anything.
 * - POST /__dev/jobs/give-up { job } (the job's public id): its message goes to the dead-letter queue's
 *   consumer, as after the last retry; answers the job's status then (a job already done stays done).
 *   Its body is read as the API reads one (workers/api/body.ts): not JSON 415, unreadable 400, no job 422.
 */
export const devJobs = new Hono<{ Bindings: Env }>()
  .use('*', devOnly)
  .post('/give-up', valid('json', giveUpSchema), async (c) => {
    const input = c.req.valid('json');
    const db = createDb(c.env.DB);
    const [job] = await db.select({ id: jobs.id }).from(jobs).where(eq(jobs.public_id, input.job));
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
  })
  .onError(handleApiError);
