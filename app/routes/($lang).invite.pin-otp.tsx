import {
  redirect,
  type LoaderFunctionArgs,
  type MetaFunction,
  type ActionFunctionArgs,
} from '@remix-run/cloudflare';
import { useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { sendInviteEmailPin, verifyInviteEmail } from '@server/domain/auth/service';
import { localePath } from '~/i18n/config';
import { intentAction, unreachable } from '~/lib/actions';
import { dueStep, invitePath, inviteStepLoader, requireInvitation } from '~/lib/invite.server';
import { pinStepIntents, resent } from '~/lib/pin-step.server';
import { PinStep } from '~/components/auth/pin-step';
import { constraintsOf, pinSchema } from '~/lib/schemas.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  inviteStepLoader(args, 'pin-otp', 'invite.email_pin_title', (invitation, request) => {
    // A verified address has nothing left to do here.
    if (invitation.email_verified) throw redirect(invitePath(request, dueStep(invitation)));
    return { email: invitation.email, constraint: constraintsOf(pinSchema) };
  });

/** Step 3: the pin sent to the invited email address proves the address. */
export const action = (args: ActionFunctionArgs) =>
  intentAction({
    access: 'guest',
    intents: pinStepIntents,
    async handle(input, kit) {
      const { request } = kit;
      const { ctx, token, invitation } = await requireInvitation(kit, 'pin-otp');
      switch (input.intent) {
        case 'resend':
          await sendInviteEmailPin(ctx, token);
          return resent;
        case 'verify':
          await verifyInviteEmail(ctx, token, input.pin);
          throw redirect(invitePath(request, dueStep({ ...invitation, email_verified: true })));
        default:
          return unreachable(input);
      }
    },
  })(args);

export default function InviteEmailPin() {
  const { t, i18n } = useTranslation();
  const { email, constraint } = useLoaderData<typeof loader>();
  return (
    <PinStep
      constraint={constraint}
      title={t('invite.email_pin_title')}
      subtitle={t('invite.email_pin_subtitle', { email })}
      resentNotice={t('invite.email_pin_resent')}
      back={{ to: localePath(i18n.language, '/invite/sign-up-pwd'), label: t('common.back') }}
    />
  );
}
