import { Hono } from 'hono';
import { z } from 'zod';
import {
  downloadAttachment,
  getConversation,
  listConversations,
  listMessages,
  unreadCount,
} from '../domain/conversations/inbox';
import {
  addMessageSchema,
  archiveSchema,
  bulkStartSchema,
  flagSchema,
  inboxQuerySchema,
  startConversationSchema,
  statusSchema,
} from '../domain/conversations/schema';
import {
  addMessage,
  setOwnState,
  setStatus,
  startConversation,
  startForClients,
} from '../domain/conversations/service';
import { itemsParam, pageParam } from '../domain/list-query';
import { formatMessage, translate } from '../platform/i18n';
import { actorCtxOf, langOf, requireAuth, type ApiEnv } from './context';
import { valid } from './validate';

const idParam = z.object({ id: z.string().min(1).max(64) });
const messageParam = z.object({ id: z.string().min(1).max(64), messageId: z.string().min(1).max(64) });

/**
 * The message centre (spec 002 s.7 "Conversations and company updates", "Notifications and
 * conversations count"): start (multipart, with attachments), the inbox, a thread and its messages,
 * reply (multipart), download an attachment, status, mark unread; flag and archive are the reader's
 * own states of spec 001 s.4, and `conversations/start-bulk` is the clients list's "send message".
 */
export const conversationsApi = new Hono<ApiEnv>()
  .use('/company/conversations/*', requireAuth)
  .use('/company/conversations', requireAuth)
  .get('/company/conversations/unread', async (c) =>
    c.json({ data: { count: await unreadCount(actorCtxOf(c)) } }),
  )
  .get('/company/conversations', valid('query', inboxQuerySchema), async (c) =>
    c.json({ data: { conversations: await listConversations(actorCtxOf(c), c.req.valid('query')) } }),
  )
  .post('/company/conversations/start', valid('form', startConversationSchema), async (c) => {
    const started = await startConversation(actorCtxOf(c), c.req.valid('form'));
    const conversation = await getConversation(actorCtxOf(c), started.id, { markRead: false });
    return c.json(
      { data: { conversation }, message: formatMessage('conversations.api.started', langOf(c)) },
      201,
    );
  })
  .post('/company/conversations/start-bulk', valid('json', bulkStartSchema), async (c) => {
    const { ids } = await startForClients(actorCtxOf(c), c.req.valid('json'));
    return c.json(
      {
        data: { conversations: ids },
        message: translate(langOf(c), 'conversations.api.bulk_started', { count: ids.length }),
      },
      201,
    );
  })
  .get('/company/conversations/:id', valid('param', idParam), async (c) =>
    c.json({ data: { conversation: await getConversation(actorCtxOf(c), c.req.valid('param').id) } }),
  )
  .get(
    '/company/conversations/:id/messages',
    valid('param', idParam),
    valid('query', z.object({ page: pageParam, items: itemsParam(50, 200) })),
    async (c) =>
      c.json({
        data: { messages: await listMessages(actorCtxOf(c), c.req.valid('param').id, c.req.valid('query')) },
      }),
  )
  .post(
    '/company/conversations/:id/messages/add',
    valid('param', idParam),
    valid('form', addMessageSchema),
    async (c) => {
      const message = await addMessage(actorCtxOf(c), c.req.valid('param').id, c.req.valid('form'));
      return c.json({ data: { message }, message: formatMessage('conversations.api.sent', langOf(c)) }, 201);
    },
  )
  .post(
    '/company/conversations/:id/messages/:messageId/download',
    valid('param', messageParam),
    valid('json', z.object({ attachment_id: z.string().min(1).max(64).optional() }).default({})),
    async (c) => {
      const { id, messageId } = c.req.valid('param');
      return downloadAttachment(actorCtxOf(c), id, messageId, c.req.valid('json').attachment_id);
    },
  )
  .patch(
    '/company/conversations/:id/status',
    valid('param', idParam),
    valid('json', statusSchema),
    async (c) => {
      await setStatus(actorCtxOf(c), c.req.valid('param').id, c.req.valid('json').status);
      return c.json({ data: null, message: formatMessage('conversations.api.updated', langOf(c)) });
    },
  )
  .patch('/company/conversations/:id/unread', valid('param', idParam), async (c) => {
    await setOwnState(actorCtxOf(c), c.req.valid('param').id, { unread: true });
    return c.json({ data: null, message: formatMessage('conversations.api.updated', langOf(c)) });
  })
  .patch('/company/conversations/:id/flag', valid('param', idParam), valid('json', flagSchema), async (c) => {
    await setOwnState(actorCtxOf(c), c.req.valid('param').id, { flagged: c.req.valid('json').flagged });
    return c.json({ data: null, message: formatMessage('conversations.api.updated', langOf(c)) });
  })
  .patch(
    '/company/conversations/:id/archive',
    valid('param', idParam),
    valid('json', archiveSchema),
    async (c) => {
      await setOwnState(actorCtxOf(c), c.req.valid('param').id, { archived: c.req.valid('json').archived });
      return c.json({ data: null, message: formatMessage('conversations.api.updated', langOf(c)) });
    },
  );
