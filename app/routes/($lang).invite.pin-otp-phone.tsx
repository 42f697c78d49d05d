import { type LoaderFunctionArgs, type MetaFunction, type ActionFunctionArgs } from '@remix-run/cloudflare';
import { useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { completeInvitation, setInvitePhone } from '@server/domain/auth/service';
import { clearCookie, serializeCookie } from '@server/web/cookies';
import { localePath } from '~/i18n/config';
import { intentAction, unreachable } from '~/lib/actions';
import { inviteStepLoader, requireInvitation } from '~/lib/invite.server';
import { pinStepIntents, resent } from '~/lib/pin-step.server';
import { PinStep } from '~/components/auth/pin-step';
import { constraintsOf, pinSchema } from '~/lib/schemas.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  inviteStepLoader(args, 'pin-otp-phone', 'invite.phone_pin_title', (invitation) => ({
    phone: `${invitation.phone_country} ${invitation.phone_number}`,
    constraint: constraintsOf(pinSchema),
  }));

/**
 * Step 5: the pin sent by text message. It completes the invitation: the account becomes active and the
 * person is signed in.
 */
export const action = (args: ActionFunctionArgs) =>
  intentAction({
    access: 'guest',
    intents: pinStepIntents,
    async handle(input, kit) {
      const { request, context, redirect } = kit;
      const { ctx, token, invitation } = await requireInvitation(kit, 'pin-otp-phone');
      switch (input.intent) {
        case 'resend':
          await setInvitePhone(ctx, token, {
            phone_country: invitation.phone_country ?? '',
            phone_number: invitation.phone_number ?? '',
          });
          return resent;
        case 'verify': {
          const userAgent = request.headers.get('user-agent');
          const session = await completeInvitation({ ...ctx, userAgent }, token, input.pin);
          const headers = new Headers();
          headers.append('set-cookie', serializeCookie(context.env, 'sid', session.token));
          headers.append('set-cookie', clearCookie(context.env, 'invite'));
          return redirect('/home', undefined, { headers });
        }
        default:
          return unreachable(input);
      }
    },
  })(args);

export default function InvitePhonePin() {
  const { t, i18n } = useTranslation();
  const { phone, constraint } = useLoaderData<typeof loader>();
  return (
    <PinStep
      constraint={constraint}
      title={t('invite.phone_pin_title')}
      subtitle={t('invite.phone_pin_subtitle', { phone })}
      resentNotice={t('invite.phone_pin_resent')}
      submitLabel={t('invite.finish')}
      back={{ to: localePath(i18n.language, '/invite/add-phone'), label: t('invite.change_phone') }}
    />
  );
}
