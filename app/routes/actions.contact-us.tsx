import type { ActionFunctionArgs } from '@remix-run/cloudflare';
import { sendContactMessage } from '@server/domain/auth/service';
import { safePath } from '@server/domain/auth/handover';
import { contactUsSchema } from '~/lib/schemas.server';
import { formAction } from '~/lib/actions';
import { splitLocale } from '~/i18n/config';

/**
 * The login-help dialog's contact-us form. The dialog posts with a fetcher and reads the answer (`ok`,
 * and the refusal's `error`); posted without JavaScript, the form goes back to the page it came from
 * with the outcome as a toast.
 */
export const action = (args: ActionFunctionArgs) =>
  formAction({
    access: 'guest',
    schema: contactUsSchema,
    permission: null,
    returnTo: returnPath,
    async handle(input, { ctx, request, formData }) {
      // Answered in the language of the page the form was on (this route has no language prefix).
      await sendContactMessage({ ...ctx, lang: splitLocale(returnPath(request, formData)).lang }, input);
      return { toast: 'login_help.sent' };
    },
  })(args);

/** The page the form was on: the form says so, else the referring page of this site, else the login page. */
function returnPath(request: Request, form: FormData): string {
  const field = form.get('redirect_to');
  if (typeof field === 'string' && field) return safePath(field);
  const referer = request.headers.get('referer');
  if (referer) {
    try {
      const from = new URL(referer);
      if (from.origin === new URL(request.url).origin) return safePath(from.pathname + from.search);
    } catch {
      // not a URL: fall through
    }
  }
  return '/auth/login';
}
