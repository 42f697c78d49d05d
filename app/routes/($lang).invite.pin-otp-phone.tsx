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
import { completeInvitation, setInvitePhone } from '@server/domain/auth/service';
import { clearCookie, serializeCookie } from '@server/web/cookies';
import { localePath } from '~/i18n/config';
import { langOf, withFormErrors } from '~/lib/guards.server';
import { requireInvitation } from '~/lib/invite.server';
import { pageTitle } from '~/lib/meta';
import { AppForm, Field, FormErrors } from '~/components/forms';
import { Button } from '~/components/ui/button';
import { Alert } from '~/components/ui/card';
import { AuthActions } from '~/components/auth/auth-actions';
import { AuthHeading } from '~/components/auth/auth-layout';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { invitation } = await requireInvitation(request, context, 'pin-otp-phone');
  return {
    phone: `${invitation.phone_country} ${invitation.phone_number}`,
    title: pageTitle(context, request, 'invite.phone_pin_title'),
  };
}

const verifySchema = pinSchema.extend({ intent: z.literal('verify') });
const schema = z.discriminatedUnion('intent', [verifySchema, z.object({ intent: z.literal('resend') })]);

/**
 * Step 5: the pin sent by text message. It completes the invitation: the account becomes active and the
 * person is signed in.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const { ctx, token, invitation } = await requireInvitation(request, context, 'pin-otp-phone');
  const submission = parseWithZod(await request.formData(), { schema });
  if (submission.status !== 'success') return { result: submission.reply(), resent: false };
  switch (submission.value.intent) {
    case 'resend': {
      const phone = {
        phone_country: invitation.phone_country ?? '',
        phone_number: invitation.phone_number ?? '',
      };
      const r = await withFormErrors(submission, () => setInvitePhone(ctx, token, phone));
      return { result: r.ok ? submission.reply({ resetForm: true }) : r.reply, resent: r.ok };
    }
    case 'verify': {
      const pin = submission.value.pin;
      const r = await withFormErrors(submission, () =>
        completeInvitation({ ...ctx, userAgent: request.headers.get('user-agent') }, token, pin),
      );
      if (!r.ok) return { result: r.reply, resent: false };
      const headers = new Headers();
      headers.append('set-cookie', serializeCookie(context.env, 'sid', r.value.token));
      headers.append('set-cookie', clearCookie(context.env, 'invite'));
      throw redirect(localePath(langOf(request), '/home'), { headers });
    }
  }
}

export default function InvitePhonePin() {
  const { t, i18n } = useTranslation();
  const { phone } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const [form, fields] = useForm<z.input<typeof verifySchema>>({
    lastResult: data?.result,
    constraint: getZodConstraint(pinSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: verifySchema }),
    shouldValidate: 'onBlur',
  });
  return (
    <>
      <AuthHeading title={t('invite.phone_pin_title')} subtitle={t('invite.phone_pin_subtitle', { phone })} />
      <AppForm method="post" {...getFormProps(form)} className="space-y-5">
        {data?.resent ? <Alert tone="success">{t('invite.phone_pin_resent')}</Alert> : null}
        <FormErrors errors={form.errors} />
        <Field
          label={t('auth.pin')}
          field={fields.pin}
          inputProps={{ inputMode: 'numeric', autoComplete: 'one-time-code', maxLength: 6, autoFocus: true }}
        />
        <Button type="submit" name="intent" value="verify" className="w-full">
          {t('invite.finish')}
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
          to={localePath(i18n.language, '/invite/add-phone')}
          className="font-medium text-primary-700 hover:underline"
        >
          {t('invite.change_phone')}
        </Link>
      </AuthActions>
    </>
  );
}
