import { Hono } from 'hono';
import { getJobStatus } from '../domain/jobs/service';
import { actorCtxOf, requireAuth, type ApiEnv } from './context';

/** What a page or API client polls for long work. */
export const jobsApi = new Hono<ApiEnv>().get('/company/jobs/:id', requireAuth, async (c) => {
  return c.json({ data: { job: await getJobStatus(actorCtxOf(c), c.req.param('id')) } });
});
