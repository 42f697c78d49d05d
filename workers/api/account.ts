import { Hono } from 'hono';
import { sessionIdParam, userIdParam } from '../domain/auth/schema';
import { endOtherSessions, endOwnSession, listOwnSessions } from '../domain/account/sessions';
import { startSupportView, stopSupportView } from '../domain/auth/support';
import { actorCtxOf, requireAuth, type ApiEnv } from './context';
import { valid } from './validate';

/**
 * The signed-in user's sessions (account details) and the support view (the spec's other-user token):
 * see docs/decisions/sign-in.md, "Account details: sessions and password".
 */
export const accountApi = new Hono<ApiEnv>()
  .use('/company/user/sessions', requireAuth)
  .use('/company/user/sessions/*', requireAuth)
  .use('/company/support/*', requireAuth)
  .get('/company/user/sessions', async (c) => {
    return c.json({ data: { sessions: await listOwnSessions(actorCtxOf(c)) } });
  })
  .post('/company/user/sessions/end-others', async (c) => {
    const { ended } = await endOtherSessions(actorCtxOf(c));
    return c.json({ data: { ended }, message: 'Your other sessions have been signed out.' });
  })
  .delete('/company/user/sessions/:id', valid('param', sessionIdParam), async (c) => {
    await endOwnSession(actorCtxOf(c), c.req.valid('param').id);
    return c.json({ data: null, message: 'The session has been signed out.' });
  })
  // A senior admin's bearer token opens a view as a school user; its token is then the bearer.
  .post('/company/support/view-as/:id', valid('param', userIdParam), async (c) => {
    const view = await startSupportView(actorCtxOf(c), c.req.valid('param').id, 'api');
    return c.json({
      data: { token: view.token, token_type: 'Bearer', expires_at: view.expires_at, user: view.user },
    });
  })
  .post('/company/support/stop', async (c) => {
    const { user_id } = await stopSupportView(actorCtxOf(c));
    return c.json({ data: { user_id }, message: 'The support view has ended.' });
  });
