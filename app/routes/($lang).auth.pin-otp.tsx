import {
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/cloudflare';
import { Link, useActionData } from '@remix-run/react';
import { getFormProps, useForm } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { pinSchema } from '@server/domain/auth/schema';
import { completeSignIn, resendLoginPin } from '@server/domain/auth/service';
import { findSession } from '@server/domain/auth/sessions';
import { clearCookie, readCookie, serializeCookie } from '@server/web/cookies';
import { localePath } from '~/i18n/config';
import { langOf, requireGuest, withFormErrors } from '~/lib/guards.server';
import { pageTitle } from '~/lib/meta';
import { AppForm, Field, FormErrors } from '~/components/forms';
import { Button } from '~/components/ui/button';
import { Alert } from '~/components/ui/card';
import { AuthHeading } from '~/components/auth/auth-layout';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  requireGuest(request, context);
  const pending = await findSession(context.db, readCookie(request, context.env, 'pin'), context.now, 'pin');
  if (!pending) throw redirect(localePath(langOf(request), '/auth/login'));
  return { title: pageTitle(context, request, 'auth.pin_title') };
}

const verifySchema = pinSchema.extend({ intent: z.literal('verify') });
const schema = z.discriminatedUnion('intent', [verifySchema, z.object({ intent: z.literal('resend') })]);

/** Step 3: the PIN from the email. Success rotates the session and signs the user in. */
export async function action({ request, context }: ActionFunctionArgs) {
  const ctx = requireGuest(request, context);
  const pendingToken = readCookie(request, context.env, 'pin');
  const submission = parseWithZod(await request.formData(), { schema });
  if (submission.status !== 'success') return { result: submission.reply(), resent: false };
  switch (submission.value.intent) {
    case 'resend': {
      const r = await withFormErrors(submission, () => resendLoginPin(ctx, pendingToken));
      return { result: r.ok ? submission.reply({ resetForm: true }) : r.reply, resent: r.ok };
    }
    case 'verify': {
      const pin = submission.value.pin;
      const r = await withFormErrors(submission, () =>
        completeSignIn({ ...ctx, userAgent: request.headers.get('user-agent') }, { pendingToken, pin }),
      );
      if (!r.ok) return { result: r.reply, resent: false };
      const headers = new Headers();
      headers.append('set-cookie', serializeCookie(context.env, 'sid', r.value.token));
      headers.append('set-cookie', clearCookie(context.env, 'pin'));
      throw redirect(localePath(langOf(request), '/home'), { headers });
    }
  }
}

export default function PinOtp() {
  const { t, i18n } = useTranslation();
  const data = useActionData<typeof action>();
  const [form, fields] = useForm<z.input<typeof verifySchema>>({
    lastResult: data?.result,
    constraint: getZodConstraint(pinSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: verifySchema }),
    // Validate on submit, then as the user types: an error appearing on blur would move the links
    // under the field away from a click in progress.
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
  });
  return (
    <>
      <AuthHeading title={t('auth.pin_title')} subtitle={t('auth.pin_subtitle')} />
      <AppForm method="post" {...getFormProps(form)} className="space-y-5">
        {data?.resent ? <Alert tone="success">{t('auth.pin_resent')}</Alert> : null}
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
      <div className="mt-4 flex justify-between text-sm">
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
          to={localePath(i18n.language, '/auth/login')}
          className="font-medium text-primary-700 hover:underline"
        >
          {t('auth.start_again')}
        </Link>
      </div>
    </>
  );
}
