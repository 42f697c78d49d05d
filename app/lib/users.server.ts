/**
 * Loaders and actions of the users screens, one definition per family (company, school), so the
 * company and school pages of /manage-users work alike. Route files call these.
 */
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/cloudflare';
import { z } from 'zod';
import {
  companyUserListSchema,
  companyUserSchema,
  schoolUserListSchema,
  schoolUserSchema,
} from '@server/domain/users/schema';
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
  schoolUserFilters,
  suspendSchoolUser,
  unsuspendSchoolUser,
  updateCompanyUser,
  updateSchoolUser,
  USER_PERMISSIONS,
  userAbilities,
  userFormOptions,
  usersSummary,
} from '@server/domain/users/service';
import { visibleCompanies } from '@server/domain/access/scope';
import { mayEditUser, movesFor } from '@server/domain/users/moves';
import { usersExportSheet } from '@server/domain/users/export';
import type { UserFamily } from '@server/domain/users/values';
import { msg } from '@server/domain/messages';
import type { ActorCtx } from '@server/domain/context';
import { localePath } from '~/i18n/config';
import { unreachable } from './actions';
import { formAction, intentAction } from './actions.server';
import { pageLoader } from './loaders.server';
import { idSchema } from './schemas.server';
import { lenientQuery, queryOf, xlsxResponse } from './lists.server';
import { pageTitle } from './meta';

const P = USER_PERMISSIONS;

/** /manage-users: the company users list with its summary (school users open their own tab instead). */
export const companyUsersLoader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: `${P.company.read}|${P.school.read}`,
    query: companyUserListSchema,
    async load({ ctx, request, context, lang, query }) {
      const abilities = userAbilities(ctx.actor);
      if (!abilities.company.read) throw redirect(localePath(lang, '/manage-users/school-users'));
      const [list, summary] = await Promise.all([listCompanyUsers(ctx, query), usersSummary(ctx, 'company')]);
      return json({
        list,
        summary,
        abilities,
        companies: visibleCompanies(ctx.actor).map((c) => ({ id: c.public_id, name: c.name })),
        title: pageTitle(context, request, 'users.title'),
      });
    },
  })(args);

/** /manage-users/school-users, a client's and a campus's Users tabs: school users by client and campus. */
export const schoolUsersLoader = (
  args: LoaderFunctionArgs,
  fixed: { clients?: string; campuses?: string } = {},
) =>
  pageLoader({
    permission: P.school.read,
    query: schoolUserListSchema,
    async load({ ctx, request, context, query: asked }) {
      const query = { ...asked, ...fixed };
      const [list, summary, filters] = await Promise.all([
        listSchoolUsers(ctx, query),
        usersSummary(ctx, 'school', fixed.clients),
        schoolUserFilters(ctx, query.clients),
      ]);
      return json({
        list,
        summary,
        filters,
        abilities: userAbilities(ctx.actor),
        ownSchool: ctx.actor.user_type === 'school',
        title: pageTitle(context, request, 'users.title'),
      });
    },
  })(args);

/**
 * GET /manage-users/export.xlsx and /manage-users/school-users/export.xlsx?{the list's filters}: the users
 * the list shows (status, search, companies; or client and campus), every page, as an Excel file.
 */
export const usersExportLoader = (args: LoaderFunctionArgs, family: UserFamily) =>
  pageLoader({
    permission: P[family].read,
    async load({ ctx, request, lang }) {
      const raw = queryOf(request);
      const sheet =
        family === 'company'
          ? await usersExportSheet(ctx, 'company', lenientQuery(companyUserListSchema, raw), lang)
          : await usersExportSheet(ctx, 'school', lenientQuery(schoolUserListSchema, raw), lang);
      return xlsxResponse(`${family}-users.xlsx`, sheet);
    },
  })(args);

/** The invite page of a family: the form's options (a school user's client comes from `?client=`). */
export const newUserLoader = (args: LoaderFunctionArgs, family: UserFamily) =>
  pageLoader({
    permission: P[family].create,
    otherwise: '/manage-users',
    async load({ ctx, request, context }) {
      const client = new URL(request.url).searchParams.get('client');
      const options = await userFormOptions(ctx, family, client);
      return json({ family, options, title: pageTitle(context, request, `users.invite_${family}`) });
    },
  })(args);

export const newUserAction = (args: ActionFunctionArgs, family: UserFamily) =>
  family === 'company'
    ? formAction({
        schema: companyUserSchema,
        permission: P.company.create,
        async handle(input, { ctx, redirect }) {
          const { id } = await inviteCompanyUser(ctx, input);
          return redirect(`/manage-users/company/${id}`, 'users.invited');
        },
      })(args)
    : formAction({
        schema: schoolUserSchema,
        permission: P.school.create,
        async handle(input, { ctx, redirect }) {
          const added = await inviteSchoolUser(ctx, input);
          return redirect(`/manage-users/school/${added.id}`, invitedMessageKey(added));
        },
      })(args);

/** One user's page: the user, the moves the actor may make now, and the edit form's options. */
export const userLoader = (args: LoaderFunctionArgs, family: UserFamily) =>
  pageLoader({
    permission: P[family].read,
    otherwise: '/manage-users',
    params: idSchema,
    async load({ ctx, request, context, params }) {
      const user = await getUser(ctx, family, params.id);
      const moves = movesFor(ctx.actor, user, family);
      const canEdit = mayEditUser(ctx.actor, user, family);
      return json({
        family,
        user,
        moves,
        canEdit,
        options: canEdit ? await userFormOptions(ctx, family, user.client?.id) : null,
        title: pageTitle(context, request, 'users.title'),
      });
    },
  })(args);

const noFields = z.object({});

/** A move that cannot simply be undone asks first, naming the user (the page's UserMoves asks alike). */
const asks = (
  family: UserFamily,
  move: 'archive' | 'suspend' | 'decline' | 'delete' | 'revoke' | 'cancel',
) => ({
  question: async (_input: unknown, { ctx, params }: { ctx: ActorCtx; params: unknown }) =>
    msg(`users.confirm.${move}`, {
      name: (await getUser(ctx, family, (params as { id?: string }).id ?? '')).full_name,
    }),
  button: `users.moves.${move}`,
});

export const userAction = (args: ActionFunctionArgs, family: UserFamily) =>
  intentAction({
    intents: {
      save: {
        schema: family === 'company' ? companyUserSchema : schoolUserSchema,
        permission: P[family].update,
      },
      archive: { schema: noFields, permission: P[family].archive, confirm: asks(family, 'archive') },
      activate: { schema: noFields, permission: P[family].archive },
      suspend: { schema: noFields, permission: P.school.suspend, confirm: asks(family, 'suspend') },
      unsuspend: { schema: noFields, permission: P.school.suspend },
      approve: { schema: noFields, permission: P.school.approve },
      decline: {
        schema: noFields,
        permission: family === 'company' ? P.company.delete : P.school.approve,
        confirm: asks(family, 'decline'),
      },
      delete: { schema: noFields, permission: P[family].delete, confirm: asks(family, 'delete') },
      resend: { schema: noFields, permission: P[family].create },
      revoke: { schema: noFields, permission: P[family].create, confirm: asks(family, 'revoke') },
      cancel: { schema: noFields, permission: P.school.create, confirm: asks(family, 'cancel') },
    },
    async handle(input, { ctx, params, redirect }) {
      const id = params.id ?? '';
      switch (input.intent) {
        case 'save':
          if (family === 'company') await updateCompanyUser(ctx, id, companyUserSchema.parse(input));
          else await updateSchoolUser(ctx, id, schoolUserSchema.parse(input));
          return redirect(`/manage-users/${family}/${id}`, 'users.saved');
        case 'archive':
          await archiveUser(ctx, family, id);
          return { toast: 'users.archived' };
        case 'activate':
          await activateUser(ctx, family, id);
          return { toast: 'users.activated' };
        case 'suspend':
          await suspendSchoolUser(ctx, family === 'school' ? id : '');
          return { toast: 'users.suspended' };
        case 'unsuspend':
          await unsuspendSchoolUser(ctx, family === 'school' ? id : '');
          return { toast: 'users.unsuspended' };
        case 'approve':
          await approveSchoolUser(ctx, family === 'school' ? id : '');
          return { toast: 'users.approved' };
        case 'decline':
          await declineUser(ctx, family, id);
          return family === 'company'
            ? redirect('/manage-users', 'users.deleted')
            : { toast: 'users.declined' };
        case 'delete':
          await deleteUser(ctx, family, id);
          return redirect(
            family === 'company' ? '/manage-users' : '/manage-users/school-users',
            'users.deleted',
          );
        case 'resend':
          await resendInvitation(ctx, family, id);
          return { toast: 'users.invitation_resent' };
        case 'revoke':
          await revokeInvitation(ctx, family, id);
          return { toast: 'users.invitation_revoked' };
        case 'cancel':
          await cancelSchoolUser(ctx, family === 'school' ? id : '');
          return redirect('/manage-users/school-users', 'users.cancelled');
        default:
          return unreachable(input);
      }
    },
  })(args);
