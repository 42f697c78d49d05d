import { type LoaderFunctionArgs, type MetaFunction, type ActionFunctionArgs } from '@remix-run/cloudflare';
import { useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { requestPasswordReset, verifyResetPin } from '@server/domain/auth/service';
import { localePath } from '~/i18n/config';
import { intentAction, unreachable } from '~/lib/actions';
import { pinStepIntents, resent } from '~/lib/pin-step.server';
import { pageTitle } from '~/lib/meta';
import { describeTarget, requireResetState, resetCookie, resetTarget } from '~/lib/password-reset.server';
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
      const state = requireResetState(request, context);
      return {
        target: describeTarget(state),
        constraint: constraintsOf(pinSchema),
        title: pageTitle(context, request, 'password_reset.reset_title'),
      };
    },
  })(args);

/**
 * The reset pin. It is only checked here (the new-password step spends it); once right, it joins the
 * target in the 'reset' cookie. "Send a new pin" answers as neutrally as the first request.
 */
export const action = (args: ActionFunctionArgs) =>
  intentAction({
    access: 'guest',
    intents: pinStepIntents,
    async handle(input, { ctx, request, context, redirect }) {
      const state = requireResetState(request, context);
      switch (input.intent) {
        case 'resend':
          await requestPasswordReset(ctx, state);
          return resent;
        case 'verify':
          await verifyResetPin(ctx, { ...resetTarget(state), pin: input.pin });
          return redirect('/auth/set-new-password', undefined, {
            headers: { 'set-cookie': resetCookie(context, { ...state, pin: input.pin }) },
          });
        default:
          return unreachable(input);
      }
    },
  })(args);

export default function ResetPassword() {
  const { t, i18n } = useTranslation();
  const { target, constraint } = useLoaderData<typeof loader>();
  return (
    <PinStep
      constraint={constraint}
      title={t('password_reset.reset_title')}
      subtitle={t('password_reset.sent', { target })}
      resentNotice={t('password_reset.resent', { target })}
      back={{
        to: localePath(i18n.language, '/auth/forgot-password'),
        label: t('password_reset.use_another'),
      }}
    />
  );
}
