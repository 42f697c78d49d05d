import {
  redirect,
  type LoaderFunctionArgs,
  type MetaFunction,
  type ActionFunctionArgs,
} from '@remix-run/cloudflare';
import { useActionData, useLoaderData } from '@remix-run/react';
import { getFormProps } from '@conform-to/react';
import { useTranslation } from 'react-i18next';
import { setInvitePhone } from '@server/domain/auth/service';
import { constraintsOf, phoneSchema } from '~/lib/schemas.server';
import { useSchemaForm } from '~/lib/schema-form';
import { formAction } from '~/lib/actions';
import { invitePath, inviteStepLoader, requireInvitation } from '~/lib/invite.server';
import { AppForm, FormErrors } from '~/components/fields';
import { Button } from '~/components/ui/button';
import { AuthHeading } from '~/components/auth/auth-layout';
import { PhoneFields } from '~/components/auth/phone-fields';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  inviteStepLoader(args, 'add-phone', 'invite.phone_title', (invitation) => ({
    constraint: constraintsOf(phoneSchema),
    phone: { phone_country: invitation.phone_country ?? '', phone_number: invitation.phone_number ?? '' },
  }));

/** Step 4: the mobile number; a pin goes to it by text message. */
export const action = (args: ActionFunctionArgs) =>
  formAction({
    access: 'guest',
    schema: phoneSchema,
    permission: null,
    async handle(input, kit) {
      const { request } = kit;
      const { ctx, token } = await requireInvitation(kit, 'add-phone');
      await setInvitePhone(ctx, token, input);
      throw redirect(invitePath(request, 'pin-otp-phone'));
    },
  })(args);

export default function InviteAddPhone() {
  const { t } = useTranslation();
  const { phone, constraint } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>()?.submission;
  const [form, fields] = useSchemaForm({
    id: 'invite-add-phone-form',
    schema: () => import('@server/domain/auth/schema').then((m) => m.phoneSchema),
    lastResult,
    constraint,
    defaultValue: phone,
    shouldValidate: 'onBlur',
  });
  return (
    <>
      <AuthHeading title={t('invite.phone_title')} subtitle={t('invite.phone_subtitle')} />
      <AppForm method="post" {...getFormProps(form)} className="space-y-5">
        <FormErrors errors={form.errors} />
        <PhoneFields
          country={fields.phone_country}
          number={fields.phone_number}
          autoFocus
          labels={{
            country: t('invite.phone_country'),
            countryHint: t('invite.phone_country_hint'),
            number: t('invite.phone_number'),
          }}
        />
        <Button type="submit" className="w-full">
          {t('invite.send_pin')}
        </Button>
      </AppForm>
    </>
  );
}
