import { Hono } from 'hono';
import {
  noticeListSchema,
  noticeRecipientsQuerySchema,
  noticeSchema,
  noticeStatusSchema,
} from '../domain/notices/schema';
import { acknowledgeNotice, myNotices } from '../domain/notices/recipients';
import {
  createNotice,
  getNotice,
  listNoticeRecipients,
  listNotices,
  remindNotice,
  updateNotice,
  updateNoticeStatus,
} from '../domain/notices/service';
import { formatMessage, translate } from '../platform/i18n';
import { actorCtxOf, langOf, requireAuth, type ApiEnv } from './context';
import { valid } from './validate';

/**
 * Notices (spec 001 s.3, 002 s.7 "status-update calls"): staff manage them per company (the top-bar
 * company scopes every call); a school user reads the notices addressed to them and acknowledges them.
 */
export const noticesApi = new Hono<ApiEnv>()
  .use('/company/notices/*', requireAuth)
  .use('/school/notices/*', requireAuth)
  .get('/company/notices/list', valid('query', noticeListSchema), async (c) =>
    c.json({ data: { notices: await listNotices(actorCtxOf(c), c.req.valid('query')) } }),
  )
  .post('/company/notices/add', valid('json', noticeSchema), async (c) => {
    const notice = await createNotice(actorCtxOf(c), c.req.valid('json'));
    return c.json({ data: { notice }, message: formatMessage('notices.created', langOf(c)) }, 201);
  })
  .get('/company/notices/:id', async (c) =>
    c.json({ data: { notice: await getNotice(actorCtxOf(c), c.req.param('id')) } }),
  )
  .put('/company/notices/:id/update', valid('json', noticeSchema), async (c) => {
    const notice = await updateNotice(actorCtxOf(c), c.req.param('id'), c.req.valid('json'));
    return c.json({ data: { notice }, message: formatMessage('notices.updated', langOf(c)) });
  })
  .patch('/company/notices/:id/status/update', valid('json', noticeStatusSchema), async (c) => {
    const { status } = c.req.valid('json');
    const notice = await updateNoticeStatus(actorCtxOf(c), c.req.param('id'), status);
    return c.json({
      data: { notice },
      message: formatMessage(status === 'active' ? 'notices.reactivated' : 'notices.archived', langOf(c)),
    });
  })
  .get('/company/notices/:id/recipients', valid('query', noticeRecipientsQuerySchema), async (c) =>
    c.json({
      data: {
        recipients: await listNoticeRecipients(actorCtxOf(c), c.req.param('id'), c.req.valid('query')),
      },
    }),
  )
  .post('/company/notices/:id/remind', async (c) => {
    const { reminded } = await remindNotice(actorCtxOf(c), c.req.param('id'));
    return c.json({
      data: { reminded },
      message: translate(langOf(c), 'notices.reminded', { count: reminded }),
    });
  })
  .get('/school/notices/list', async (c) => c.json({ data: { notices: await myNotices(actorCtxOf(c)) } }))
  .post('/school/notices/:id/acknowledge', async (c) => {
    await acknowledgeNotice(actorCtxOf(c), c.req.param('id'));
    return c.json({ data: null, message: formatMessage('notices.acknowledged', langOf(c)) });
  });
