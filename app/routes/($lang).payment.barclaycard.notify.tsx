/**
 * /payment/barclaycard/notify: ePDQ's server-to-server notification (configured in the ePDQ back office;
 * see docs/deploy.md). No session and no CSRF token: the answer is verified by its SHA-OUT signature and
 * recorded through the same domain function as the browser's return, once per PAYID and STATUS. Answers
 * 200 when recorded (or already recorded), 400 with the reason when refused.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare';
import { ValidationFailed } from '@server/domain/errors';
import { cardAnswerParams, recordCardResult } from '~/lib/checkout.server';
import { formatMessage } from '@server/platform/i18n';

async function notify(request: Request, context: LoaderFunctionArgs['context']) {
  try {
    const params = await cardAnswerParams(request);
    const answer = await recordCardResult(context.db, context.env, params, { source: 'notification' });
    return new Response(`OK ${answer.outcome}${answer.duplicate ? ' (already recorded)' : ''}`, {
      headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
    });
  } catch (e) {
    if (!(e instanceof ValidationFailed)) throw e;
    return new Response(formatMessage(e.message), {
      status: 400,
      headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
    });
  }
}

export const loader = ({ request, context }: LoaderFunctionArgs) => notify(request, context);
export const action = ({ request, context }: ActionFunctionArgs) => notify(request, context);
