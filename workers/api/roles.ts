import { Hono } from 'hono';
import { roleFamilySchema, createRoleSchema, updateRolesSchema } from '../domain/roles/schema';
import { createRole, deleteRole, familyRoles, listRoles, updateRoles } from '../domain/roles/service';
import { NotFound } from '../domain/errors';
import { formatMessage } from '../platform/i18n';
import { actorCtxOf, langOf, requireAuth, type ApiEnv } from './context';
import { valid } from './validate';

const FAMILY = ':family{company|school|student}';

function familyOf(value: string) {
  const parsed = roleFamilySchema.safeParse(value);
  if (!parsed.success) throw new NotFound();
  return parsed.data;
}

/**
 * Roles (catalogue: Roles): the roles of each family with their permissions, create (or copy from a
 * reference role), update (rename, permissions) and delete (ours: the catalogue names none; a role no user
 * holds). Nobody grants a permission they do not hold. A role is named by its id, its slug, as the users
 * calls name it (`roles`); the family is in the path.
 */
export const rolesApi = new Hono<ApiEnv>()
  .use('/company/roles', requireAuth)
  .use('/company/roles/*', requireAuth)
  .get('/company/roles', async (c) => c.json({ data: { roles: await listRoles(actorCtxOf(c)) } }))
  .get(`/company/roles/${FAMILY}/list`, async (c) =>
    c.json({ data: await familyRoles(actorCtxOf(c), familyOf(c.req.param('family'))) }),
  )
  .post(`/company/roles/${FAMILY}/role`, valid('json', createRoleSchema), async (c) => {
    const role = await createRole(actorCtxOf(c), familyOf(c.req.param('family')), c.req.valid('json'));
    return c.json({ data: { role }, message: formatMessage('roles.messages.created', langOf(c)) }, 201);
  })
  .patch(`/company/roles/${FAMILY}`, valid('json', updateRolesSchema), async (c) => {
    const roles = await updateRoles(actorCtxOf(c), familyOf(c.req.param('family')), c.req.valid('json'));
    return c.json({ data: { roles }, message: formatMessage('roles.messages.saved', langOf(c)) });
  })
  .delete(`/company/roles/${FAMILY}/role/:id`, async (c) => {
    await deleteRole(actorCtxOf(c), familyOf(c.req.param('family')), c.req.param('id'));
    return c.json({ data: null, message: formatMessage('roles.messages.deleted', langOf(c)) });
  });
