import {
  redirect,
  type LoaderFunctionArgs,
  type MetaFunction,
  type ActionFunctionArgs,
} from '@remix-run/cloudflare';
import { useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { completeSignIn, resendLoginPin } from '@server/domain/auth/service';
import { findSession } from '@server/domain/auth/sessions';
import { clearCookie, readCookie, serializeCookie } from '@server/web/cookies';
import { localePath } from '~/i18n/config';
import { langOf } from '~/lib/guards.server';
import { intentAction, unreachable } from '~/lib/actions';
import { pinStepIntents, resent } from '~/lib/pin-step.server';
import { pageTitle } from '~/lib/meta';
import { PinStep } from '~/components/auth/pin-step';
import { constraintsOf, pinSchema } from '~/lib/schemas.server';
import { withoutScripts } from '~/lib/hydrate';
import { pageLoader } from '~/lib/loaders.server';

/** Served without JavaScript: plain forms that post and redirect (docs/decisions/sign-in.md, "Sign-in without scripts"). */
export const handle = withoutScripts;

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    access: 'guest',
    permission: null,
    async load({ request, context }) {
      const pending = await findSession(
        context.db,
        readCookie(request, context.env, 'pin'),
        context.now,
        'pin',
      );
      if (!pending) throw redirect(localePath(langOf(request), '/auth/login'));
      return { constraint: constraintsOf(pinSchema), title: pageTitle(context, request, 'auth.pin_title') };
    },
  })(args);

/** Step 3: the PIN from the email. Success rotates the session and signs the user in. */
export const action = (args: ActionFunctionArgs) =>
  intentAction({
    access: 'guest',
    intents: pinStepIntents,
    async handle(input, { ctx, request, context, redirect }) {
      const pendingToken = readCookie(request, context.env, 'pin');
      switch (input.intent) {
        case 'resend':
          await resendLoginPin(ctx, pendingToken);
          return resent;
        case 'verify': {
          const userAgent = request.headers.get('user-agent');
          const session = await completeSignIn({ ...ctx, userAgent }, { pendingToken, pin: input.pin });
          const headers = new Headers();
          headers.append('set-cookie', serializeCookie(context.env, 'sid', session.token));
          headers.append('set-cookie', clearCookie(context.env, 'pin'));
          return redirect('/home', undefined, { headers });
        }
        default:
          return unreachable(input);
      }
    },
  })(args);

export default function PinOtp() {
  const { t, i18n } = useTranslation();
  const { constraint } = useLoaderData<typeof loader>();
  return (
    <PinStep
      constraint={constraint}
      title={t('auth.pin_title')}
      subtitle={t('auth.pin_subtitle')}
      resentNotice={t('auth.pin_resent')}
      back={{ to: localePath(i18n.language, '/auth/login'), label: t('auth.start_again') }}
    />
  );
}
