import { redirect, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare';
import { Link, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { acceptHandoverLink, safePath } from '@server/domain/auth/handover';
import { serializeCookie } from '@server/web/cookies';
import { localePath } from '~/i18n/config';
import { pageLoader } from '~/lib/loaders.server';
import { pageTitle } from '~/lib/meta';
import { AuthHeading } from '~/components/auth/auth-layout';
import { Alert } from '~/components/ui/card';
import { useMessage } from '~/lib/messages';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

/**
 * Hand-over from the other region: `otherUserToken` carries the signed token, `{token}` its single-use
 * id, `path` where to continue. A valid token signs the user in here and goes on to the path.
 */
export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    access: 'public',
    permission: null,
    async load({ ctx, request, context, lang, allParams }) {
      const url = new URL(request.url);
      const { session, error } = await acceptHandoverLink(ctx, {
        token: url.searchParams.get('otherUserToken'),
        jti: allParams.token ?? null,
      });
      if (error !== null) return { error, title: pageTitle(context, request, 'auth.handover_title') };
      throw redirect(localePath(lang, safePath(url.searchParams.get('path'))), {
        headers: { 'set-cookie': serializeCookie(context.env, 'sid', session) },
      });
    },
  })(args);

export default function TokenHandover() {
  const { t, i18n } = useTranslation();
  const m = useMessage();
  const { error } = useLoaderData<typeof loader>();
  return (
    <>
      <AuthHeading title={t('auth.handover_title')} />
      <Alert>{m(error)}</Alert>
      <Link
        to={localePath(i18n.language, '/auth/login')}
        className="mt-6 inline-block font-medium text-primary-700 hover:underline"
      >
        {t('auth.go_to_login')}
      </Link>
    </>
  );
}
