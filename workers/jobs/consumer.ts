import { runPeriodicInvoicing } from '../domain/invoices/periodic';
import type { Env, JobMessage } from '../env';
import { createDb } from '../platform/db';
import { purgeExpiredIdempotencyKeys } from '../platform/idempotency';
import { loadAllLanguages, readTranslationsFrom } from '../platform/i18n';
import { deliverOutboxMessage, redeliverStale } from '../domain/outbox/service';
import {
  claimJob,
  ContinueJob,
  failJob,
  finishJob,
  registerJobRunner,
  releaseJob,
  runnerFor,
} from '../domain/jobs/service';
import { STAGE_IMPORT_JOB } from '../domain/imports/service';
import { runStaging } from '../domain/imports/staging';
import { STAGE_CANCELLATION_JOB } from '../domain/cancellations/service';
import { runCancellationStaging } from '../domain/cancellations/staging';
import { purgeExpiredSessions } from '../domain/auth/sessions';
import { clearExpiredCarts } from '../domain/checkout/clear';
import { CONFIRM_AMENDMENT_JOB, runConfirmJob } from '../domain/policies/amendments';
import { sendExpiryReminders } from '../domain/reminders/expiry';
import { sendScheduledOverdueReminders } from '../domain/reminders/overdue';
import { deliverWebhook, queueDueDeliveries } from '../domain/webhooks/delivery';
import { DOCUMENTS_ZIP_JOB, runDocumentsZip } from '../domain/policy-documents/bulk';
import { INVOICES_ZIP_JOB, runInvoicesZip } from '../domain/invoices/zip-job';

registerJobRunner(STAGE_IMPORT_JOB, runStaging);
registerJobRunner(CONFIRM_AMENDMENT_JOB, runConfirmJob);
registerJobRunner(STAGE_CANCELLATION_JOB, runCancellationStaging);
registerJobRunner(DOCUMENTS_ZIP_JOB, runDocumentsZip);
registerJobRunner(INVOICES_ZIP_JOB, runInvoicesZip);

/**
 * The queue consumer. Messages are acknowledged one by one so a failure retries only itself; after the
 * last retry a message goes to the dead-letter queue, whose consumer marks its job failed. Webhook
 * attempts run side by side: each waits on a partner's address (up to its timeout), and one slow or
 * unreachable address must not hold back the other deliveries of the batch, nor keep the batch past the
 * consumer's time limit (the queue would then deliver the whole batch again). `now` is the clock the
 * webhook schedule reads (tests move it).
 */
export async function handleQueue(
  batch: MessageBatch<JobMessage>,
  env: Env,
  now: () => Date = () => new Date(),
): Promise<void> {
  // Jobs write for many recipients, each in their own language: all of them, once per isolate.
  readTranslationsFrom(env.ASSETS);
  await loadAllLanguages();
  const deadLetter = batch.queue.includes('-dlq');
  const settle = async (message: Message<JobMessage>) => {
    try {
      if (deadLetter) await handleDeadLetter(env, message.body);
      else await handleMessage(env, message.body, now);
      message.ack();
    } catch (e) {
      console.error('Job message failed', message.body, e);
      message.retry({ delaySeconds: Math.min(60, 2 ** message.attempts) });
    }
  };
  const isWebhook = (m: Message<JobMessage>) => m.body.type === 'webhook.deliver';
  await Promise.all([
    ...batch.messages.filter(isWebhook).map(settle),
    (async () => {
      for (const message of batch.messages.filter((m) => !isWebhook(m))) await settle(message);
    })(),
  ]);
}

export async function handleMessage(
  env: Env,
  body: JobMessage,
  now: () => Date = () => new Date(),
): Promise<void> {
  readTranslationsFrom(env.ASSETS);
  await loadAllLanguages();
  const db = createDb(env.DB);
  switch (body.type) {
    case 'outbox.deliver_many': {
      // Each is tried even when one fails; then the message is retried for the failed ones (delivery
      // claims each row, so a retry skips those already sent).
      let failure: unknown = null;
      for (const id of body.ids) {
        try {
          await deliverOutboxMessage(db, env, id);
        } catch (e) {
          failure ??= e;
        }
      }
      if (failure) throw failure;
      return;
    }
    case 'webhook.deliver':
      await deliverWebhook(db, env, body.id, now(), body.due);
      return;
    case 'job.run': {
      const job = await claimJob(db, body.id);
      if (!job) return; // already running or finished: a repeated delivery changes nothing
      const runner = runnerFor(job.type);
      if (!runner) {
        await failJob(db, job.id, 'This kind of job is not known to the server.');
        return;
      }
      try {
        const result = await runner(db, env, job);
        await finishJob(db, job.id, result);
      } catch (e) {
        // Put it back so the retry (or, for a runner going on, the next delivery) can claim it again.
        await releaseJob(db, job.id);
        if (e instanceof ContinueJob) {
          await env.JOBS.send({ type: 'job.run', id: job.id });
          return;
        }
        throw e;
      }
      return;
    }
  }
}

async function handleDeadLetter(env: Env, body: JobMessage): Promise<void> {
  const db = createDb(env.DB);
  if (body.type === 'job.run') {
    await failJob(
      db,
      body.id,
      'The job could not be completed after several attempts. Please try again or contact support.',
    );
  }
  // outbox messages that keep failing are marked failed by deliverOutboxMessage itself.
}

/** The daily cron trigger (wrangler.toml): the expiry reminders, at 06:00 UTC. */
export const DAILY_CRON = '0 6 * * *';

/**
 * Cron: redeliver stale outbox messages, purge expired sessions and idempotency keys, clear the carts past their time; once a
 * day, the expiry reminders.
 */
export async function handleScheduled(
  controller: Pick<ScheduledController, 'cron'>,
  env: Env,
): Promise<void> {
  readTranslationsFrom(env.ASSETS);
  await loadAllLanguages();
  const db = createDb(env.DB);
  const now = new Date();
  await redeliverStale(db, env, now);
  await queueDueDeliveries(db, env, now);
  await purgeExpiredSessions(db, now);
  await purgeExpiredIdempotencyKeys(db, now);
  await clearExpiredCarts(db, now);
  if (controller.cron === DAILY_CRON) await sendExpiryReminders(db, env, now);
  if (controller.cron === DAILY_CRON) await sendScheduledOverdueReminders(db, env, now);
  if (controller.cron === DAILY_CRON) await runPeriodicInvoicing({ db, env, now, actor: null });
}
