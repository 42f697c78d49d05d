import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare';
import { Link, useActionData, useLoaderData } from '@remix-run/react';
import { getFormProps } from '@conform-to/react';
import { useTranslation } from 'react-i18next';
import { resetPassword } from '@server/domain/auth/service';
import { constraintsOf, newPasswordSchema } from '~/lib/schemas.server';
import { localePath } from '~/i18n/config';
import { Conflict, ValidationFailed } from '@server/domain/errors';
import { useSchemaForm } from '~/lib/schema-form';
import { formAction } from '~/lib/actions.server';
import { pageTitle } from '~/lib/meta';
import {
  clearResetCookie,
  describeTarget,
  requireResetState,
  resetTarget,
} from '~/lib/password-reset.server';
import { AppForm, Field, FormErrors } from '~/components/forms';
import { Button } from '~/components/ui/button';
import { AuthHeading } from '~/components/auth/auth-layout';
import { pageLoader } from '~/lib/loaders.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    access: 'guest',
    permission: null,
    async load({ request, context }) {
      const state = requireResetState(request, context, { withPin: true });
      return {
        constraint: constraintsOf(newPasswordSchema),
        username: describeTarget(state),
        title: pageTitle(context, request, 'password_reset.new_password_title'),
      };
    },
  })(args);

/**
 * Sets the new password with the checked pin; the pin is spent, the cookie cleared, every session ends,
 * and the sign-in page says so. A pin that expired meanwhile is said above the form (it has no pin field).
 */
export const action = (args: ActionFunctionArgs) =>
  formAction({
    access: 'guest',
    schema: newPasswordSchema,
    permission: null,
    async handle(input, { ctx, request, context, redirect }) {
      const state = requireResetState(request, context, { withPin: true });
      await resetPassword(ctx, { ...resetTarget(state), pin: state.pin!, password: input.password }).catch(
        (e: unknown) => {
          if (e instanceof ValidationFailed) throw new Conflict(e.errors[0]?.message ?? e.message);
          throw e;
        },
      );
      return redirect('/auth/login', 'password_reset.done', {
        headers: { 'set-cookie': clearResetCookie(context) },
      });
    },
  })(args);

export default function SetNewPassword() {
  const { t, i18n } = useTranslation();
  const { username, constraint } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>()?.submission;
  const [form, fields] = useSchemaForm({
    id: 'auth-set-new-password-form',
    schema: () => import('@server/domain/auth/schema').then((m) => m.newPasswordSchema),
    lastResult,
    constraint,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  return (
    <>
      <AuthHeading
        title={t('password_reset.new_password_title')}
        subtitle={t('password_reset.new_password_subtitle')}
      />
      <AppForm method="post" {...getFormProps(form)} className="space-y-5">
        <FormErrors errors={form.errors} />
        {form.errors?.length ? (
          <p className="-mt-2 text-sm">
            <Link
              to={localePath(i18n.language, '/auth/reset-password')}
              className="font-medium text-primary-700 hover:underline"
            >
              {t('password_reset.request_new_pin')}
            </Link>
          </p>
        ) : null}
        <input type="text" name="username" value={username} autoComplete="username" readOnly hidden />
        <Field
          label={t('password_reset.new_password')}
          field={fields.password}
          type="password"
          hint={t('password_reset.password_rules')}
          inputProps={{ autoComplete: 'new-password', autoFocus: true }}
        />
        <Field
          label={t('password_reset.confirm_password')}
          field={fields.password_confirmation}
          type="password"
          inputProps={{ autoComplete: 'new-password' }}
        />
        <Button type="submit" className="w-full">
          {t('password_reset.save_password')}
        </Button>
      </AppForm>
    </>
  );
}
