import { redirect, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare';
import { Link, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { acceptHandover, safePath } from '@server/domain/auth/handover';
import { Unauthenticated } from '@server/domain/errors';
import { serializeCookie } from '@server/web/cookies';
import { ctxOf } from '@server/web/load-context';
import { localePath } from '~/i18n/config';
import { langOf } from '~/lib/guards.server';
import { pageTitle } from '~/lib/meta';
import { AuthHeading } from '~/components/auth/auth-layout';
import { Alert } from '~/components/ui/card';
import { useMessage } from '~/lib/messages';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

/**
 * Hand-over from the other region: `otherUserToken` carries the signed token, `{token}` its single-use
 * id, `path` where to continue. A valid token signs the user in here and goes on to the path.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const token = url.searchParams.get('otherUserToken');
  const lang = langOf(request);
  try {
    if (!token) throw new Unauthenticated('auth.handover_invalid');
    const { token: session } = await acceptHandover(ctxOf(context, lang), {
      token,
      jti: params.token ?? null,
    });
    throw redirect(localePath(lang, safePath(url.searchParams.get('path'))), {
      headers: { 'set-cookie': serializeCookie(context.env, 'sid', session) },
    });
  } catch (e) {
    if (e instanceof Unauthenticated)
      return { error: e.message, title: pageTitle(context, request, 'auth.handover_title') };
    throw e;
  }
}

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
