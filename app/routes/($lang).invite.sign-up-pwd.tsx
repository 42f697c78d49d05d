import {
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/cloudflare';
import { Link, useActionData, useLoaderData } from '@remix-run/react';
import { getFormProps } from '@conform-to/react';
import { useTranslation } from 'react-i18next';
import { sendInviteEmailPin, setInvitedPassword } from '@server/domain/auth/service';
import { localePath } from '~/i18n/config';
import { formAction } from '~/lib/actions';
import { dueStep, invitePath, inviteStepLoader, requireInvitation } from '~/lib/invite.server';
import { useSchemaForm } from '~/lib/schema-form';
import { constraintsOf, newPasswordSchema } from '~/lib/schemas.server';
import { AppForm, Field, FormErrors } from '~/components/forms';
import { Button } from '~/components/ui/button';
import { AuthActions } from '~/components/auth/auth-actions';
import { AuthHeading } from '~/components/auth/auth-layout';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  inviteStepLoader(args, 'sign-up-pwd', 'invite.password_title', (invitation) => ({
    email: invitation.email,
    constraint: constraintsOf(newPasswordSchema),
  }));

/** Step 2: the password (the spec's rules); then the email verification pin goes out. */
export const action = (args: ActionFunctionArgs) =>
  formAction({
    access: 'guest',
    schema: newPasswordSchema,
    permission: null,
    async handle(input, kit) {
      const { request } = kit;
      const { ctx, token, invitation } = await requireInvitation(kit, 'sign-up-pwd');
      await setInvitedPassword(ctx, token, input.password);
      if (!invitation.email_verified) await sendInviteEmailPin(ctx, token);
      return redirect(invitePath(request, dueStep({ ...invitation, password_set: true })));
    },
  })(args);

export default function InvitePassword() {
  const { t, i18n } = useTranslation();
  const { email, constraint } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>()?.submission;
  const [form, fields] = useSchemaForm({
    id: 'invite-password',
    schema: () => import('@server/domain/auth/schema').then((m) => m.newPasswordSchema),
    lastResult,
    constraint,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  return (
    <>
      <AuthHeading title={t('invite.password_title')} subtitle={t('invite.password_subtitle', { email })} />
      <AppForm method="post" {...getFormProps(form)} className="space-y-5">
        <FormErrors errors={form.errors} />
        <input type="text" name="username" value={email} autoComplete="username" readOnly hidden />
        <Field
          label={t('invite.password')}
          field={fields.password}
          type="password"
          hint={t('invite.password_rules')}
          inputProps={{ autoComplete: 'new-password', autoFocus: true }}
        />
        <Field
          label={t('invite.confirm_password')}
          field={fields.password_confirmation}
          type="password"
          inputProps={{ autoComplete: 'new-password' }}
        />
        <Button type="submit" className="w-full">
          {t('common.continue')}
        </Button>
      </AppForm>
      <AuthActions className="justify-center">
        <Link
          to={localePath(i18n.language, '/invite/sign-up')}
          className="font-medium text-primary-700 hover:underline"
        >
          {t('common.back')}
        </Link>
      </AuthActions>
    </>
  );
}
