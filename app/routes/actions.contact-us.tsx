import { data, redirect, type ActionFunctionArgs } from '@remix-run/cloudflare';
import { sendContactMessage } from '@server/domain/auth/service';
import { safePath } from '@server/domain/auth/handover';
import { isDomainError } from '@server/domain/errors';
import { ctxOf } from '@server/web/load-context';
import { contactUsSchema, parseWithZod } from '~/lib/schemas.server';
import { splitLocale } from '~/i18n/config';

export type ContactUsResult = { ok: true } | { ok: false; message: string };

/**
 * The login-help dialog's contact-us form. The dialog posts with a fetcher (`_fetch=1`) and gets
 * `{ ok, message? }`; a plain form post (no JavaScript) goes back to the page it came from with
 * `?contact=sent` or `?contact=failed`, which the login-help button shows.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const back = returnPath(request, form.get('redirect_to'));
  const submission = parseWithZod(form, { schema: contactUsSchema });
  let result: ContactUsResult;
  let status = 200;
  if (submission.status !== 'success') {
    result = { ok: false, message: 'errors.invalid_data' };
    status = 400;
  } else {
    try {
      await sendContactMessage(ctxOf(context, splitLocale(back).lang), submission.value);
      result = { ok: true };
    } catch (e) {
      if (!isDomainError(e)) throw e;
      result = { ok: false, message: e.message };
      status = e.status;
    }
  }
  if (form.get('_fetch') === '1') return data(result, { status });
  const url = new URL(back, request.url);
  url.searchParams.delete('help');
  url.searchParams.set('contact', result.ok ? 'sent' : 'failed');
  return redirect(`${url.pathname}${url.search}`);
}

/** The page the form was on: the form says so, else the referring page of this site, else the login page. */
function returnPath(request: Request, field: FormDataEntryValue | null): string {
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
