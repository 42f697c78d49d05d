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
import { requestPasswordReset, verifyResetPin } from '@server/domain/auth/service';
import { localePath } from '~/i18n/config';
import { langOf, requireGuest, withFormErrors } from '~/lib/guards.server';
import { pageTitle } from '~/lib/meta';
import { describeTarget, requireResetState, resetCookie, resetTarget } from '~/lib/password-reset.server';
import { AppForm, Field, FormErrors } from '~/components/forms';
import { Button } from '~/components/ui/button';
import { Alert } from '~/components/ui/card';
import { AuthActions } from '~/components/auth/auth-actions';
import { AuthHeading } from '~/components/auth/auth-layout';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  requireGuest(request, context);
  const state = requireResetState(request, context);
  return {
    target: describeTarget(state),
    title: pageTitle(context, request, 'password_reset.reset_title'),
  };
}

const verifySchema = pinSchema.extend({ intent: z.literal('verify') });
const schema = z.discriminatedUnion('intent', [verifySchema, z.object({ intent: z.literal('resend') })]);

/**
 * The reset pin. It is only checked here (the new-password step spends it); once right, it joins the
 * target in the 'reset' cookie. "Send a new pin" answers as neutrally as the first request.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const ctx = requireGuest(request, context);
  const state = requireResetState(request, context);
  const submission = parseWithZod(await request.formData(), { schema });
  if (submission.status !== 'success') return { result: submission.reply(), resent: false };
  switch (submission.value.intent) {
    case 'resend': {
      const r = await withFormErrors(submission, () => requestPasswordReset(ctx, state));
      return { result: r.ok ? submission.reply({ resetForm: true }) : r.reply, resent: r.ok };
    }
    case 'verify': {
      const pin = submission.value.pin;
      const r = await withFormErrors(submission, () => verifyResetPin(ctx, { ...resetTarget(state), pin }));
      if (!r.ok) return { result: r.reply, resent: false };
      throw redirect(localePath(langOf(request), '/auth/set-new-password'), {
        headers: { 'set-cookie': resetCookie(context, { ...state, pin }) },
      });
    }
  }
}

export default function ResetPassword() {
  const { t, i18n } = useTranslation();
  const { target } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const [form, fields] = useForm<z.input<typeof verifySchema>>({
    lastResult: data?.result,
    constraint: getZodConstraint(pinSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: verifySchema }),
    shouldValidate: 'onBlur',
  });
  return (
    <>
      <AuthHeading title={t('password_reset.reset_title')} subtitle={t('password_reset.sent', { target })} />
      <AppForm method="post" {...getFormProps(form)} className="space-y-5">
        {data?.resent ? <Alert tone="success">{t('password_reset.resent', { target })}</Alert> : null}
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
          to={localePath(i18n.language, '/auth/forgot-password')}
          className="font-medium text-primary-700 hover:underline"
        >
          {t('password_reset.use_another')}
        </Link>
      </AuthActions>
    </>
  );
}
