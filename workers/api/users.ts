import { Hono } from 'hono';
import { z } from 'zod';
import {
  companyUserListSchema,
  companyUserSchema,
  schoolUserListSchema,
  schoolUserSchema,
  userStatusSchema,
} from '../domain/users/schema';
import {
  activateUser,
  approveSchoolUser,
  archiveUser,
  cancelSchoolUser,
  declineUser,
  deleteUser,
  getUser,
  inviteCompanyUser,
  invitedMessageKey,
  inviteSchoolUser,
  listCompanyUsers,
  listSchoolUsers,
  resendInvitation,
  revokeInvitation,
  setUserStatus,
  suspendSchoolUser,
  unsuspendSchoolUser,
  updateCompanyUser,
  updateSchoolUser,
  usersSummary,
} from '../domain/users/service';
import type { UserFamily } from '../domain/users/values';
import { NotFound } from '../domain/errors';
import { formatMessage } from '../platform/i18n';
import { actorCtxOf, langOf, requireAuth, type ApiEnv } from './context';
import { valid } from './validate';

const idParam = z.object({ id: z.string().min(1).max(40) });
const familyParam = z.object({ family: z.enum(['company', 'school']), id: z.string().min(1).max(40) });
const done = (key: string, lang: string) => ({ data: null, message: formatMessage(key, lang) });

/**
 * Company users and school users (catalogue: "Company users", "School users"). Static paths come before
 * `:id`. The school portal's own calls (`school-users*`) act on the same service: a school master user
 * reaches only their own school's users.
 */
export const usersApi = new Hono<ApiEnv>()
  .use('/company/users/company/*', requireAuth)
  .use('/company/users/school/*', requireAuth)
  .use('/company/clients/:id/school-users/summary', requireAuth)
  .use('/school/school-users/*', requireAuth)
  .use('/school/school-users', requireAuth)
  // ---------------------------------------------------------------- company users
  .get('/company/users/company/list', valid('query', companyUserListSchema), async (c) =>
    c.json({ data: { users: await listCompanyUsers(actorCtxOf(c), c.req.valid('query')) } }),
  )
  .get('/company/users/company/summary', async (c) =>
    c.json({ data: { summary: await usersSummary(actorCtxOf(c), 'company') } }),
  )
  .post('/company/users/company/add', valid('json', companyUserSchema), async (c) => {
    const ctx = actorCtxOf(c);
    const { id } = await inviteCompanyUser(ctx, c.req.valid('json'));
    return c.json(
      {
        data: { user: await getUser(ctx, 'company', id) },
        message: formatMessage('users.invited', langOf(c)),
      },
      201,
    );
  })
  .get('/company/users/company/:id', valid('param', idParam), async (c) =>
    c.json({ data: { user: await getUser(actorCtxOf(c), 'company', c.req.valid('param').id) } }),
  )
  .put('/company/users/company/:id', valid('param', idParam), valid('json', companyUserSchema), async (c) => {
    const user = await updateCompanyUser(actorCtxOf(c), c.req.valid('param').id, c.req.valid('json'));
    return c.json({ data: { user }, message: formatMessage('users.saved', langOf(c)) });
  })
  .patch(
    '/company/users/company/:id/status',
    valid('param', idParam),
    valid('json', userStatusSchema),
    async (c) => {
      await setUserStatus(actorCtxOf(c), 'company', c.req.valid('param').id, c.req.valid('json').status);
      return c.json(done('users.status_changed', langOf(c)));
    },
  )
  .delete('/company/users/company/:id', valid('param', idParam), async (c) => {
    await deleteUser(actorCtxOf(c), 'company', c.req.valid('param').id);
    return c.json(done('users.deleted', langOf(c)));
  })
  // ---------------------------------------------------------------- school users (company staff)
  .get('/company/users/school/list', valid('query', schoolUserListSchema), async (c) =>
    c.json({ data: { users: await listSchoolUsers(actorCtxOf(c), c.req.valid('query')) } }),
  )
  .get('/company/users/school/declined/list', valid('query', schoolUserListSchema), async (c) =>
    c.json({
      data: { users: await listSchoolUsers(actorCtxOf(c), { ...c.req.valid('query'), status: 'declined' }) },
    }),
  )
  .get('/company/clients/:id/school-users/summary', valid('param', idParam), async (c) =>
    c.json({ data: { summary: await usersSummary(actorCtxOf(c), 'school', c.req.valid('param').id) } }),
  )
  .post('/company/users/school/add', valid('json', schoolUserSchema), async (c) => {
    const ctx = actorCtxOf(c);
    const added = await inviteSchoolUser(ctx, c.req.valid('json'));
    return c.json(
      {
        data: { user: await getUser(ctx, 'school', added.id) },
        message: formatMessage(invitedMessageKey(added), langOf(c)),
      },
      201,
    );
  })
  .get('/company/users/school/:id', valid('param', idParam), async (c) =>
    c.json({ data: { user: await getUser(actorCtxOf(c), 'school', c.req.valid('param').id) } }),
  )
  .put('/company/users/school/:id', valid('param', idParam), valid('json', schoolUserSchema), async (c) => {
    const user = await updateSchoolUser(actorCtxOf(c), c.req.valid('param').id, c.req.valid('json'));
    return c.json({ data: { user }, message: formatMessage('users.saved', langOf(c)) });
  })
  .patch(
    '/company/users/school/:id/status',
    valid('param', idParam),
    valid('json', userStatusSchema),
    async (c) => {
      await setUserStatus(actorCtxOf(c), 'school', c.req.valid('param').id, c.req.valid('json').status);
      return c.json(done('users.status_changed', langOf(c)));
    },
  )
  .post('/company/users/school/:id/approve', valid('param', idParam), async (c) => {
    await approveSchoolUser(actorCtxOf(c), c.req.valid('param').id);
    return c.json(done('users.approved', langOf(c)));
  })
  .post('/company/users/school/:id/decline', valid('param', idParam), async (c) => {
    await declineUser(actorCtxOf(c), 'school', c.req.valid('param').id);
    return c.json(done('users.declined', langOf(c)));
  })
  .delete('/company/users/school/:id', valid('param', idParam), async (c) => {
    await deleteUser(actorCtxOf(c), 'school', c.req.valid('param').id);
    return c.json(done('users.deleted', langOf(c)));
  })
  // ---------------------------------------------------------------- both families
  .patch('/company/users/:family/:id/archive', valid('param', familyParam), async (c) => {
    const { family, id } = c.req.valid('param');
    await archiveUser(actorCtxOf(c), family as UserFamily, id);
    return c.json(done('users.archived', langOf(c)));
  })
  .patch('/company/users/:family/:id/activate', valid('param', familyParam), async (c) => {
    const { family, id } = c.req.valid('param');
    await activateUser(actorCtxOf(c), family as UserFamily, id);
    return c.json(done('users.activated', langOf(c)));
  })
  .post('/company/users/:family/:id/suspend', valid('param', familyParam), async (c) => {
    await suspendSchoolUser(actorCtxOf(c), schoolOnly(c.req.valid('param')));
    return c.json(done('users.suspended', langOf(c)));
  })
  .post('/company/users/:family/:id/unsuspend', valid('param', familyParam), async (c) => {
    await unsuspendSchoolUser(actorCtxOf(c), schoolOnly(c.req.valid('param')));
    return c.json(done('users.unsuspended', langOf(c)));
  })
  .post('/company/users/:family/:id/invitation/resend', valid('param', familyParam), async (c) => {
    const { family, id } = c.req.valid('param');
    await resendInvitation(actorCtxOf(c), family as UserFamily, id);
    return c.json(done('users.invitation_resent', langOf(c)));
  })
  .post('/company/users/:family/:id/invitation/revoke', valid('param', familyParam), async (c) => {
    const { family, id } = c.req.valid('param');
    await revokeInvitation(actorCtxOf(c), family as UserFamily, id);
    return c.json(done('users.invitation_revoked', langOf(c)));
  })
  // ---------------------------------------------------------------- the school portal's own calls
  .get('/school/school-users', valid('query', schoolUserListSchema), async (c) =>
    c.json({ data: { school_users: await listSchoolUsers(actorCtxOf(c), c.req.valid('query')) } }),
  )
  .post('/school/school-users/add', valid('json', schoolUserSchema), async (c) => {
    const ctx = actorCtxOf(c);
    const added = await inviteSchoolUser(ctx, c.req.valid('json'));
    return c.json(
      {
        data: { school_user: await getUser(ctx, 'school', added.id) },
        message: formatMessage(invitedMessageKey(added), langOf(c)),
      },
      201,
    );
  })
  .get('/school/school-users/:id', valid('param', idParam), async (c) =>
    c.json({ data: { school_user: await getUser(actorCtxOf(c), 'school', c.req.valid('param').id) } }),
  )
  .post(
    '/school/school-users/:id/update',
    valid('param', idParam),
    valid('json', schoolUserSchema),
    async (c) => {
      const user = await updateSchoolUser(actorCtxOf(c), c.req.valid('param').id, c.req.valid('json'));
      return c.json({ data: { school_user: user }, message: formatMessage('users.saved', langOf(c)) });
    },
  )
  .post('/school/school-users/:id/suspend', valid('param', idParam), async (c) => {
    await suspendSchoolUser(actorCtxOf(c), c.req.valid('param').id);
    return c.json(done('users.suspended', langOf(c)));
  })
  .post('/school/school-users/:id/unsuspend', valid('param', idParam), async (c) => {
    await unsuspendSchoolUser(actorCtxOf(c), c.req.valid('param').id);
    return c.json(done('users.unsuspended', langOf(c)));
  })
  .post('/school/school-users/:id/cancel', valid('param', idParam), async (c) => {
    await cancelSchoolUser(actorCtxOf(c), c.req.valid('param').id);
    return c.json(done('users.cancelled', langOf(c)));
  });

/** Suspending is a school-user move; a company user's path answers "not found". */
function schoolOnly(p: { family: string; id: string }): string {
  if (p.family !== 'school') throw new NotFound();
  return p.id;
}
