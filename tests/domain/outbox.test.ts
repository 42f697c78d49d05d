import { afterEach, describe, expect, it, vi } from 'vitest';
import { createExecutionContext, createMessageBatch, getQueueResult } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { outbox } from '../../drizzle/schema';
import {
  MAX_DELIVERY_ATTEMPTS,
  deliverOutboxMessage,
  listMailbox,
  queueMessage,
} from '../../workers/domain/outbox/service';
import { handleMessage, handleQueue } from '../../workers/jobs/consumer';
import type { Env, JobMessage } from '../../workers/env';
import { runBatch } from '../../workers/platform/db';
import { db, testEnv } from '../support/world';

/**
 * The messages here are written to the outbox without being handed to the queue (no flushOutbox), so
 * only the test delivers them.
 */
let messages = 0;
async function pendingMessage() {
  messages += 1;
  const d = db();
  await runBatch(d, [
    queueMessage(d, new Date(), {
      channel: 'email',
      recipient: `Person-${messages}@Example.test`,
      template: 'test',
      subject: 'Hello',
      body_text: `Message ${messages}`,
    }),
  ]);
  const [row] = await listMailbox(d, `person-${messages}@example.test`, 1);
  return row;
}

async function rowOf(id: number) {
  const [row] = await db().select().from(outbox).where(eq(outbox.id, id));
  return row;
}

/**
 * The email provider is outside our system: it is replaced by a stub that counts the messages it
 * receives (the adapter posts to MAIL_API_URL when that is set).
 */
function withProvider(status = 200) {
  const provider = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => new Response('', { status }));
  const env = { ...testEnv(), MAIL_API_URL: 'https://mail-provider.test/send', MAIL_API_KEY: 'k' } as Env;
  return { provider, env };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('outbox delivery', () => {
  it('stores the recipient in lower case, pending, until delivered', async () => {
    const row = await pendingMessage();
    expect(row.recipient).toBe(`person-${messages}@example.test`);
    expect(row.status).toBe('pending');
    expect(row.attempts).toBe(0);
  });

  it('is idempotent: delivering the same message twice sends it once, with one attempt', async () => {
    const { provider, env } = withProvider();
    const row = await pendingMessage();
    await deliverOutboxMessage(db(), env, row.id);
    await deliverOutboxMessage(db(), env, row.id);
    expect(provider).toHaveBeenCalledTimes(1);
    const after = await rowOf(row.id);
    expect(after.status).toBe('sent');
    expect(after.attempts).toBe(1);
    expect(after.sent_at).not.toBeNull();
  });

  it('sends once when two deliveries of the same message run at the same time', async () => {
    const { provider, env } = withProvider();
    const row = await pendingMessage();
    await Promise.all([deliverOutboxMessage(db(), env, row.id), deliverOutboxMessage(db(), env, row.id)]);
    expect(provider).toHaveBeenCalledTimes(1);
    expect((await rowOf(row.id)).attempts).toBe(1);
  });

  it('records locally without a provider: the row is marked sent', async () => {
    const row = await pendingMessage();
    await deliverOutboxMessage(db(), testEnv(), row.id);
    expect((await rowOf(row.id)).status).toBe('sent');
  });

  it('keeps a message the provider refused pending with the reason, and fails it after the last attempt', async () => {
    const { env } = withProvider(500);
    const row = await pendingMessage();
    await expect(deliverOutboxMessage(db(), env, row.id)).rejects.toThrow(/500/);
    const once = await rowOf(row.id);
    expect(once).toMatchObject({ status: 'pending', attempts: 1, claimed_at: null });
    expect(once.last_error).toMatch(/500/);
    for (let i = 1; i < MAX_DELIVERY_ATTEMPTS; i++) {
      await expect(deliverOutboxMessage(db(), env, row.id)).rejects.toThrow();
    }
    expect(await rowOf(row.id)).toMatchObject({ status: 'failed', attempts: MAX_DELIVERY_ATTEMPTS });
    // A failed message is not tried again.
    await deliverOutboxMessage(db(), env, row.id);
    expect((await rowOf(row.id)).attempts).toBe(MAX_DELIVERY_ATTEMPTS);
  });
});

describe('queue consumer', () => {
  it('handleMessage delivers an outbox message', async () => {
    const row = await pendingMessage();
    await handleMessage(testEnv(), { type: 'outbox.deliver_many', ids: [row.id] });
    expect(await rowOf(row.id)).toMatchObject({ status: 'sent', attempts: 1 });
  });

  it('handleQueue delivers a queued message and acknowledges it', async () => {
    const { provider, env } = withProvider();
    const row = await pendingMessage();
    const batch = createMessageBatch<JobMessage>('enrolment-jobs-uk', [
      { id: 'm-1', timestamp: new Date(), attempts: 1, body: { type: 'outbox.deliver_many', ids: [row.id] } },
    ]);
    await handleQueue(batch, env);
    const result = await getQueueResult(batch, createExecutionContext());
    expect(result.explicitAcks).toEqual(['m-1']);
    expect(result.retryMessages).toEqual([]);
    expect(provider).toHaveBeenCalledTimes(1);
    expect(await rowOf(row.id)).toMatchObject({ status: 'sent', attempts: 1 });
  });

  it('handleQueue retries only the message whose delivery failed', async () => {
    const { env } = withProvider(503);
    const row = await pendingMessage();
    const batch = createMessageBatch<JobMessage>('enrolment-jobs-uk', [
      {
        id: 'm-fail',
        timestamp: new Date(),
        attempts: 1,
        body: { type: 'outbox.deliver_many', ids: [row.id] },
      },
      {
        id: 'm-gone',
        timestamp: new Date(),
        attempts: 1,
        body: { type: 'outbox.deliver_many', ids: [999_999] },
      },
    ]);
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await handleQueue(batch, env);
    const result = await getQueueResult(batch, createExecutionContext());
    expect(result.retryMessages.map((m: { msgId: string }) => m.msgId)).toEqual(['m-fail']);
    expect(result.explicitAcks).toEqual(['m-gone']);
  });
});
