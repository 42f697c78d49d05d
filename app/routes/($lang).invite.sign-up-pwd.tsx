import {
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/cloudflare';
import { Link, useActionData, useLoaderData } from '@remix-run/react';
import { getFormProps, useForm } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { newPasswordSchema } from '@server/domain/auth/schema';
import { sendInviteEmailPin, setInvitedPassword } from '@server/domain/auth/service';
import { localePath } from '~/i18n/config';
import { withFormErrors } from '~/lib/guards.server';
import { dueStep, invitePath, requireInvitation } from '~/lib/invite.server';
import { pageTitle } from '~/lib/meta';
import { AppForm, Field, FormErrors } from '~/components/forms';
import { Button } from '~/components/ui/button';
import { AuthActions } from '~/components/auth/auth-actions';
import { AuthHeading } from '~/components/auth/auth-layout';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { invitation } = await requireInvitation(request, context, 'sign-up-pwd');
  return { email: invitation.email, title: pageTitle(context, request, 'invite.password_title') };
}

/** Step 2: the password (the spec's rules); then the email verification pin goes out. */
export async function action({ request, context }: ActionFunctionArgs) {
  const { ctx, token, invitation } = await requireInvitation(request, context, 'sign-up-pwd');
  const submission = parseWithZod(await request.formData(), { schema: newPasswordSchema });
  const hideFields = ['password', 'password_confirmation'];
  if (submission.status !== 'success') return submission.reply({ hideFields });
  const r = await withFormErrors(submission, async () => {
    await setInvitedPassword(ctx, token, submission.value.password);
    if (!invitation.email_verified) await sendInviteEmailPin(ctx, token);
  });
  if (!r.ok) return r.reply;
  throw redirect(invitePath(request, dueStep({ ...invitation, password_set: true })));
}

export default function InvitePassword() {
  const { t, i18n } = useTranslation();
  const { email } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm<z.input<typeof newPasswordSchema>>({
    lastResult,
    constraint: getZodConstraint(newPasswordSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: newPasswordSchema }),
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
