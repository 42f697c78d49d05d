/** Stops the support view (the banner's button): back to the admin, on the page the view started from. */
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/cloudflare';
import { stopSupportView } from '@server/domain/auth/support';
import { clearCookie } from '@server/web/cookies';
import { localePath } from '~/i18n/config';
import { formAction } from '~/lib/actions.server';
import { supportViewFormSchema } from '~/lib/schemas.server';
import { pageLoader } from '~/lib/loaders.server';

/** Nothing to show: a visit goes home. */
export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: null,
    load({ lang }) {
      return redirect(localePath(lang, '/home'));
    },
  })(args);

export const action = (args: ActionFunctionArgs) =>
  formAction({
    schema: supportViewFormSchema,
    permission: null,
    async handle(_input, { ctx, context, redirect }) {
      const { user_id } = await stopSupportView(ctx);
      return redirect(`/support/view-as/${user_id}`, 'support.stopped', {
        headers: { 'set-cookie': clearCookie(context.env, 'view_as') },
      });
    },
  })(args);
