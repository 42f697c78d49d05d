import {
  redirect,
  type LoaderFunctionArgs,
  type MetaFunction,
  type ActionFunctionArgs,
} from '@remix-run/cloudflare';
import { Link, useActionData, useLoaderData } from '@remix-run/react';
import { getFormProps } from '@conform-to/react';
import { useTranslation } from 'react-i18next';
import { constraintsOf, loginPasswordSchema } from '~/lib/schemas.server';
import { useSchemaForm } from '~/lib/schema-form';
import { startSignIn } from '@server/domain/auth/service';
import { serializeCookie } from '@server/web/cookies';
import { localePath } from '~/i18n/config';
import { langOf } from '~/lib/guards.server';
import { formAction } from '~/lib/actions';
import { pageTitle } from '~/lib/meta';
import { AppForm, Field, FormErrors } from '~/components/forms';
import { Button } from '~/components/ui/button';
import { useHelpInPlace } from '~/components/auth/login-help';
import { AuthHeading } from '~/components/auth/auth-layout';
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
      const email = new URL(request.url).searchParams.get('email');
      if (!email) throw redirect(localePath(langOf(request), '/auth/login'));
      return {
        email,
        constraint: constraintsOf(loginPasswordSchema),
        title: pageTitle(context, request, 'auth.password_title'),
      };
    },
  })(args);

/** Step 2: the password. On success the PIN is emailed and the browser holds the "waiting for PIN" token. */
export const action = (args: ActionFunctionArgs) =>
  formAction({
    access: 'guest',
    schema: loginPasswordSchema,
    permission: null,
    async handle(input, { ctx, request, context, redirect }) {
      const userAgent = request.headers.get('user-agent');
      const { pendingToken } = await startSignIn({ ...ctx, userAgent }, input);
      return redirect('/auth/pin-otp', undefined, {
        headers: { 'set-cookie': serializeCookie(context.env, 'pin', pendingToken) },
      });
    },
  })(args);

export default function LoginPassword() {
  const { t, i18n } = useTranslation();
  const helpInPlace = useHelpInPlace();
  const { email, constraint } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>()?.submission;
  const [form, fields] = useSchemaForm({
    // No scripts on this page: the browser's own checks (required, type=email) apply before posting.
    defaultNoValidate: false,
    id: 'login-password',
    schema: () => import('@server/domain/auth/schema').then((m) => m.loginPasswordSchema),
    lastResult,
    constraint,
    defaultValue: { email },
    // Validate on submit, then as the user types: an error appearing on blur would move the links
    // under the field away from a click in progress.
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
  });
  return (
    <>
      <AuthHeading title={t('auth.password_title')} subtitle={email} />
      <AppForm method="post" {...getFormProps(form)} className="space-y-5">
        <FormErrors errors={form.errors} />
        <input type="hidden" name={fields.email.name} value={email} />
        <input type="text" name="username" value={email} autoComplete="username" readOnly hidden />
        <Field
          label={t('auth.password')}
          field={fields.password}
          type="password"
          inputProps={{ autoComplete: 'current-password', autoFocus: !helpInPlace }}
        />
        <Button type="submit" className="w-full">
          {t('auth.sign_in')}
        </Button>
        <div className="flex justify-between text-sm">
          <Link
            to={`${localePath(i18n.language, '/auth/login')}?email=${encodeURIComponent(email)}`}
            className="font-medium text-primary-700 hover:underline"
          >
            {t('auth.change_email')}
          </Link>
          <Link
            to={localePath(i18n.language, '/auth/forgot-password')}
            className="font-medium text-primary-700 hover:underline"
          >
            {t('auth.forgot_password')}
          </Link>
        </div>
      </AppForm>
    </>
  );
}
