import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare';
import { Link, useActionData, useLoaderData } from '@remix-run/react';
import { getFormProps, getInputProps } from '@conform-to/react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { requestPasswordReset } from '@server/domain/auth/service';
import { constraintsOf, forgotPasswordSchema } from '~/lib/schemas.server';
import { localePath } from '~/i18n/config';
import { useSchemaForm } from '~/lib/schema-form';
import { formAction } from '~/lib/actions';
import { pageTitle } from '~/lib/meta';
import { readResetState, resetCookie } from '~/lib/password-reset.server';
import { AppForm, ErrorList, Field, FormErrors } from '~/components/forms';
import { Button } from '~/components/ui/button';
import { AuthActions } from '~/components/auth/auth-actions';
import { AuthHeading } from '~/components/auth/auth-layout';
import { PhoneFields } from '~/components/auth/phone-fields';
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
      // Coming back with "use another email or phone" shows what was typed before.
      const previous = readResetState(request, context);
      const defaults: z.input<typeof forgotPasswordSchema> =
        previous?.method === 'phone'
          ? { method: 'phone', phone_country: previous.phone_country, phone_number: previous.phone_number }
          : { method: 'email', email: previous?.email ?? '' };
      return {
        constraint: constraintsOf(forgotPasswordSchema),
        defaults,
        title: pageTitle(context, request, 'password_reset.forgot_title'),
      };
    },
  })(args);

/**
 * Sends a reset pin by email or text message. The next page says the same thing whether or not an account
 * matched; the target is remembered in the 'reset' cookie, never in the URL.
 */
export const action = (args: ActionFunctionArgs) =>
  formAction({
    access: 'guest',
    schema: forgotPasswordSchema,
    permission: null,
    async handle(input, { ctx, context, redirect }) {
      await requestPasswordReset(ctx, input);
      return redirect('/auth/reset-password', undefined, {
        headers: { 'set-cookie': resetCookie(context, input) },
      });
    },
  })(args);

const choice =
  'flex cursor-pointer items-center justify-center gap-2 rounded-lg px-3 py-2 text-sm font-medium text-slate-700 ring-1 ring-inset ring-slate-300 has-[:checked]:bg-primary-50 has-[:checked]:text-primary-900 has-[:checked]:ring-2 has-[:checked]:ring-primary-600 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-primary-600';

export default function ForgotPassword() {
  const { t, i18n } = useTranslation();
  const { defaults, constraint } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>()?.submission;
  const [form, fields] = useSchemaForm({
    // No scripts on this page: the browser's own checks (required, type=email) apply before posting.
    defaultNoValidate: false,
    id: 'auth-forgot-password-form',
    schema: () => import('@server/domain/auth/schema').then((m) => m.forgotPasswordSchema),
    lastResult,
    // Fields of only one method come out not required: the other method's fields are hidden, not absent.
    constraint,
    defaultValue: defaults,
    shouldValidate: 'onBlur',
  });
  return (
    <>
      <AuthHeading title={t('password_reset.forgot_title')} subtitle={t('password_reset.forgot_subtitle')} />
      {/* The fields of the chosen method show through CSS (:has), so the choice works without JavaScript. */}
      <AppForm method="post" {...getFormProps(form)} className="group space-y-5">
        <FormErrors errors={form.errors} />
        <fieldset>
          <legend className="mb-1.5 block text-sm font-medium text-slate-700">
            {t('password_reset.method')}
          </legend>
          <div className="grid grid-cols-2 gap-3">
            <label className={choice}>
              <input
                {...getInputProps(fields.method, { type: 'radio', value: 'email' })}
                className="sr-only"
              />
              {t('password_reset.method_email')}
            </label>
            <label className={choice}>
              <input
                {...getInputProps(fields.method, { type: 'radio', value: 'phone' })}
                className="sr-only"
              />
              {t('password_reset.method_phone')}
            </label>
          </div>
          <ErrorList id={fields.method.errorId} errors={fields.method.errors} />
        </fieldset>
        <div className="group-has-[input[type=radio][value=phone]:checked]:hidden">
          <Field
            label={t('auth.email')}
            field={fields.email}
            type="email"
            inputProps={{ autoComplete: 'username' }}
          />
        </div>
        <div className="hidden group-has-[input[type=radio][value=phone]:checked]:block">
          <PhoneFields
            country={fields.phone_country}
            number={fields.phone_number}
            labels={{
              country: t('password_reset.phone_country'),
              countryHint: t('password_reset.phone_country_hint'),
              number: t('password_reset.phone_number'),
            }}
          />
        </div>
        <Button type="submit" className="w-full">
          {t('password_reset.send_pin')}
        </Button>
      </AppForm>
      <AuthActions className="justify-center">
        <Link
          to={localePath(i18n.language, '/auth/login')}
          className="font-medium text-primary-700 hover:underline"
        >
          {t('password_reset.back_to_login')}
        </Link>
      </AuthActions>
    </>
  );
}
