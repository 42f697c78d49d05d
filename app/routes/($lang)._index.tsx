import { redirect, type LoaderFunctionArgs } from '@remix-run/cloudflare';
import { isLanguage, localePath } from '~/i18n/config';
import { langOf } from '~/lib/guards.server';
import { readCookie } from '@server/web/cookies';
import { notFound } from '~/lib/loaders.server';

/**
 * The landing address. The i18n_redirected cookie only acts here: a visitor who chose another language
 * before is sent to its prefix. Then signed-in users go home, others to the login page.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  if (params.lang !== undefined && (!isLanguage(params.lang) || params.lang === 'en')) {
    throw notFound();
  }
  let lang: string = langOf(request);
  if (!params.lang) {
    const remembered = readCookie(request, context.env, 'i18n_redirected');
    if (remembered && isLanguage(remembered) && remembered !== 'en') lang = remembered;
  }
  return redirect(localePath(lang, context.actor ? '/home' : '/auth/login'));
}

/**
 * Never shown: the loader always redirects. Having a component makes this a page rather than a resource
 * route, so an unknown one-segment address (`/xyz`) gets the root's error page instead of plain text.
 */
export default function Landing() {
  return null;
}
