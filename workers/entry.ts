import * as build from '@remix-run/dev/server-build';
import type { ServerBuild } from '@remix-run/cloudflare';
import { createApp } from './http';
import type { Env, JobMessage } from './env';
import { handleQueue, handleScheduled } from './jobs/consumer';

const app = createApp(build as unknown as ServerBuild);

/** The Worker of a region: pages and API (fetch), background jobs (queue) and cron tasks (scheduled). */
export default {
  fetch: app.fetch,
  queue: (batch: MessageBatch<JobMessage>, env: Env) => handleQueue(batch, env),
  scheduled: (controller: ScheduledController, env: Env, ctx: ExecutionContext) =>
    ctx.waitUntil(handleScheduled(controller, env)),
} satisfies ExportedHandler<Env, JobMessage>;
