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
import { z } from 'zod';
import { pinSchema } from '@server/domain/auth/schema';
import { sendInviteEmailPin, verifyInviteEmail } from '@server/domain/auth/service';
import { localePath } from '~/i18n/config';
import { withFormErrors } from '~/lib/guards.server';
import { dueStep, invitePath, requireInvitation } from '~/lib/invite.server';
import { pageTitle } from '~/lib/meta';
import { AppForm, Field, FormErrors } from '~/components/forms';
import { Button } from '~/components/ui/button';
import { Alert } from '~/components/ui/card';
import { AuthActions } from '~/components/auth/auth-actions';
import { AuthHeading } from '~/components/auth/auth-layout';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { invitation } = await requireInvitation(request, context, 'pin-otp');
  // A verified address has nothing left to do here.
  if (invitation.email_verified) throw redirect(invitePath(request, dueStep(invitation)));
  return { email: invitation.email, title: pageTitle(context, request, 'invite.email_pin_title') };
}

const verifySchema = pinSchema.extend({ intent: z.literal('verify') });
const schema = z.discriminatedUnion('intent', [verifySchema, z.object({ intent: z.literal('resend') })]);

/** Step 3: the pin sent to the invited email address proves the address. */
export async function action({ request, context }: ActionFunctionArgs) {
  const { ctx, token, invitation } = await requireInvitation(request, context, 'pin-otp');
  const submission = parseWithZod(await request.formData(), { schema });
  if (submission.status !== 'success') return { result: submission.reply(), resent: false };
  switch (submission.value.intent) {
    case 'resend': {
      const r = await withFormErrors(submission, () => sendInviteEmailPin(ctx, token));
      return { result: r.ok ? submission.reply({ resetForm: true }) : r.reply, resent: r.ok };
    }
    case 'verify': {
      const pin = submission.value.pin;
      const r = await withFormErrors(submission, () => verifyInviteEmail(ctx, token, pin));
      if (!r.ok) return { result: r.reply, resent: false };
      throw redirect(invitePath(request, dueStep({ ...invitation, email_verified: true })));
    }
  }
}

export default function InviteEmailPin() {
  const { t, i18n } = useTranslation();
  const { email } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const [form, fields] = useForm<z.input<typeof verifySchema>>({
    lastResult: data?.result,
    constraint: getZodConstraint(pinSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: verifySchema }),
    shouldValidate: 'onBlur',
  });
  return (
    <>
      <AuthHeading title={t('invite.email_pin_title')} subtitle={t('invite.email_pin_subtitle', { email })} />
      <AppForm method="post" {...getFormProps(form)} className="space-y-5">
        {data?.resent ? <Alert tone="success">{t('invite.email_pin_resent')}</Alert> : null}
        <FormErrors errors={form.errors} />
        <Field
          label={t('auth.pin')}
          field={fields.pin}
          inputProps={{ inputMode: 'numeric', autoComplete: 'one-time-code', maxLength: 6, autoFocus: true }}
        />
        <Button type="submit" name="intent" value="verify" className="w-full">
          {t('auth.verify')}
        </Button>
      </AppForm>
      <AuthActions>
        <AppForm method="post">
          <button
            type="submit"
            name="intent"
            value="resend"
            className="font-medium text-primary-700 hover:underline"
          >
            {t('auth.resend_pin')}
          </button>
        </AppForm>
        <Link
          to={localePath(i18n.language, '/invite/sign-up-pwd')}
          className="font-medium text-primary-700 hover:underline"
        >
          {t('common.back')}
        </Link>
      </AuthActions>
    </>
  );
}
