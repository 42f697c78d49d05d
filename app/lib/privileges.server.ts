/**
 * The privileges page (/user-privileges, one tab per role family): its loader and its action, shared by
 * the tab routes. The page's forms: create (or copy) a role, save the matrix, rename, delete.
 */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/cloudflare';
import { can } from '@server/domain/access/actor';
import { canGrantPermissions } from '@server/domain/access/grants';
import { PERMISSION_GROUPS } from '@server/domain/access/permissions';
import type { RoleFamily } from '@server/domain/roles/families';
import {
  createRoleFormSchema,
  deleteRoleFormSchema,
  renameRoleFormSchema,
  saveMatrixFormSchema,
} from '@server/domain/roles/schema';
import {
  createRole,
  deleteRole,
  familyRoles,
  roleCompanies,
  updateRoles,
} from '@server/domain/roles/service';
import { intentAction } from './actions.server';
import { unreachable } from './actions';
import { pageLoader } from './loaders.server';
import { roleFamilyParamsSchema, roleShownQuerySchema } from './schemas.server';
import { pageTitle } from './meta';

export const PRIVILEGE_FAMILIES: readonly RoleFamily[] = ['company', 'school', 'student'];

/** The page's family: the company roles at /user-privileges, the school's or students' at /user-privileges/{family}. */
const familyOf = (params: { family?: 'school' | 'student' }): RoleFamily => params.family ?? 'company';

export const privilegesLoader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_user_privilege',
    params: roleFamilyParamsSchema,
    query: roleShownQuerySchema,
    async load({ ctx, request, context, params, query }) {
      const family = familyOf(params);
      const { roles, permissions } = await familyRoles(ctx, family);
      const available = new Set<string>(permissions.map((p) => p.name));
      const groups = Object.entries(PERMISSION_GROUPS)
        .map(([group, names]) => ({
          group,
          permissions: (names as readonly string[]).filter((n) => available.has(n)),
        }))
        .filter((g) => g.permissions.length);
      const shown = query.role ?? null;
      return json({
        family,
        roles,
        groups,
        // What this user may tick: the one granting rule (access/grants.ts), asked per permission.
        grantable: [...available].filter((p) => canGrantPermissions(ctx.actor, [p])),
        companies: roleCompanies(ctx),
        canCreate: can(ctx.actor, 'create_user_privilege'),
        canUpdate: can(ctx.actor, 'update_user_privilege'),
        shownRole: roles.some((r) => r.id === shown) ? shown : (roles[0]?.id ?? null),
        title: pageTitle(context, request, 'roles.title'),
      });
    },
  })(args);

const pathOf = (family: RoleFamily) =>
  family === 'company' ? '/user-privileges' : `/user-privileges/${family}`;

export const privilegesAction = (args: ActionFunctionArgs) =>
  intentAction({
    params: roleFamilyParamsSchema,
    intents: {
      create: { schema: createRoleFormSchema, permission: 'create_user_privilege' },
      save: { schema: saveMatrixFormSchema, permission: 'update_user_privilege' },
      rename: { schema: renameRoleFormSchema, permission: 'update_user_privilege' },
      delete: { schema: deleteRoleFormSchema, permission: 'update_user_privilege' },
    },
    async handle(input, { ctx, params, redirect }) {
      const family = familyOf(params);
      switch (input.intent) {
        case 'create': {
          const role = await createRole(ctx, input.family, input);
          return redirect(`${pathOf(input.family)}?role=${role.id}`, 'roles.messages.created');
        }
        case 'save': {
          const grants = input.grants.map((g) => g.split(':') as [string, string]);
          await updateRoles(ctx, family, {
            roles: input.roles.map((id) => ({
              id,
              permissions: grants.filter(([roleId]) => roleId === id).map(([, name]) => name),
            })),
          });
          return { toast: 'roles.messages.saved' };
        }
        case 'rename':
          await updateRoles(ctx, family, { roles: [{ id: input.id, name: input.title }] });
          return { toast: 'roles.messages.renamed' };
        case 'delete':
          await deleteRole(ctx, family, input.id);
          return redirect(pathOf(family), 'roles.messages.deleted');
        default:
          return unreachable(input);
      }
    },
  })(args);
