import { redirect, type ActionFunctionArgs } from '@remix-run/cloudflare';
import { setPreferredLanguage } from '@server/domain/account/service';
import { safePath } from '@server/domain/auth/handover';
import { serializeCookie } from '@server/web/cookies';
import { ctxOf } from '@server/web/load-context';
import { isLanguage, localePath } from '~/i18n/config';

/** Switches language: remembers it (cookie, and the profile when signed in) and reloads the page in it. */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const lang = String(form.get('lang') ?? '');
  if (!isLanguage(lang)) throw new Response('Unknown language', { status: 400 });
  const target = safePath(String(form.get('redirect_to') ?? ''));
  if (context.actor) await setPreferredLanguage({ ...ctxOf(context), actor: context.actor }, lang);
  return redirect(target === '/home' ? localePath(lang, '/home') : target, {
    headers: { 'set-cookie': serializeCookie(context.env, 'i18n_redirected', lang) },
  });
}
