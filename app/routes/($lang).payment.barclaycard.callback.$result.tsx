/**
 * /payment/barclaycard/callback/success|fail: where the card provider sends the browser back (spec 000
 * s.2 "Payment callbacks"). The answer's parameters (query string, or a posted form) go through the same
 * domain function as the server-to-server notification: verified by their SHA-OUT signature (no session
 * needed; this path is exempt from the CSRF check), checked against the invoice, recorded once. Then the
 * user sees the order's confirmation with the outcome. A wrong answer records nothing and says so.
 */
import {
  json,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/cloudflare';
import { useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { ValidationFailed } from '@server/domain/errors';
import { cardAnswerParams, recordCardResult } from '~/lib/checkout.server';
import { langOf } from '~/lib/guards.server';
import { localePath } from '~/i18n/config';
import { pageTitle } from '~/lib/meta';
import { useMessage } from '~/lib/messages';
import { buttonClass } from '~/components/ui/button';
import { notFound } from '~/lib/loaders.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

async function record(request: Request, context: LoaderFunctionArgs['context'], result: string | undefined) {
  if (result !== 'success' && result !== 'fail') throw notFound();
  const lang = langOf(request);
  try {
    const params = await cardAnswerParams(request);
    const answer = await recordCardResult(context.db, context.env, params, { source: 'browser' });
    return redirect(
      localePath(lang, `/insureds/${answer.invoice.id}/confirmation?payment=${answer.outcome}`),
    );
  } catch (e) {
    if (!(e instanceof ValidationFailed)) throw e;
    return json(
      { message: e.message, title: pageTitle(context, request, 'checkout.callback.title') },
      { status: 400 },
    );
  }
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return record(request, context, params.result);
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  return record(request, context, params.result);
}

export default function PaymentCallback() {
  const { t, i18n } = useTranslation();
  const m = useMessage();
  // The loader redirects unless the answer was refused: only the refusal's data renders.
  const data = useLoaderData<typeof loader>() as unknown as { message: string };
  return (
    <main className="flex min-h-full items-center justify-center bg-slate-100 px-4 py-16">
      <div className="w-full max-w-lg rounded-2xl bg-white px-8 py-10 text-center shadow-sm ring-1 ring-slate-200">
        <h1 className="text-2xl font-bold text-slate-900">{t('checkout.callback.title')}</h1>
        <p role="alert" className="mt-3 text-slate-700">
          {m(data.message)}
        </p>
        <p className="mt-2 text-sm text-slate-500">{t('checkout.callback.nothing_recorded')}</p>
        <a href={localePath(i18n.language, '/home')} className={buttonClass('primary', 'mt-8')}>
          {t('error.go_home')}
        </a>
      </div>
    </main>
  );
}
