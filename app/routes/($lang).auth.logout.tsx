import {
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/cloudflare';
import { useTranslation } from 'react-i18next';
import { signOut } from '@server/domain/auth/service';
import { clearCookie } from '@server/web/cookies';
import { ctxOf } from '@server/web/load-context';
import { localePath } from '~/i18n/config';
import { langOf } from '~/lib/guards.server';
import { pageLoader } from '~/lib/loaders.server';
import { pageTitle } from '~/lib/meta';
import { AppForm } from '~/components/fields';
import { Button } from '~/components/ui/button';
import { AuthHeading } from '~/components/auth/auth-layout';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: null,
    load: ({ request, context }) => ({ title: pageTitle(context, request, 'auth.logout_title') }),
  })(args);

/** Ends the session on the server and clears the cookie. */
export async function action({ request, context }: ActionFunctionArgs) {
  await signOut(ctxOf(context), context.sessionToken);
  throw redirect(localePath(langOf(request), '/auth/login'), {
    headers: { 'set-cookie': clearCookie(context.env, 'sid') },
  });
}

export default function Logout() {
  const { t } = useTranslation();
  return (
    <>
      <AuthHeading title={t('auth.logout_title')} subtitle={t('auth.logout_subtitle')} />
      <AppForm method="post">
        <Button type="submit" className="w-full">
          {t('shell.logout')}
        </Button>
      </AppForm>
    </>
  );
}
