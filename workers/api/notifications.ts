import { Hono } from 'hono';
import { z } from 'zod';
import { listNotifications, markNotificationsRead } from '../domain/notifications/service';
import { actorCtxOf, langOf, requireAuth, type ApiEnv } from './context';
import { valid } from './validate';

export const notificationsApi = new Hono<ApiEnv>()
  .use('/company/notifications/*', requireAuth)
  .get('/company/notifications/list', async (c) => {
    const { items, unread } = await listNotifications(actorCtxOf(c), { lang: langOf(c) });
    return c.json({ data: { notifications: { items, meta: { unread } } } });
  })
  // The school portal reads the same list (its users' own notifications), with an optional limit.
  .get(
    '/company/notifications/school/list',
    valid('query', z.object({ items: z.coerce.number().int().min(1).max(200).optional() })),
    async (c) => {
      const { items, unread } = await listNotifications(actorCtxOf(c), {
        lang: langOf(c),
        limit: c.req.valid('query').items ?? 30,
      });
      return c.json({ data: { notifications: { items, meta: { unread } } } });
    },
  )
  .post(
    '/company/notifications/read',
    valid('json', z.object({ ids: z.array(z.number().int().positive()).max(500).optional() }).default({})),
    async (c) => {
      await markNotificationsRead(actorCtxOf(c), c.req.valid('json').ids);
      return c.json({ data: null, message: 'Action was performed successfully.' });
    },
  );
