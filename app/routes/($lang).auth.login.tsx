import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare';
import { useActionData, useLoaderData, useSearchParams } from '@remix-run/react';
import { getFormProps } from '@conform-to/react';
import { useTranslation } from 'react-i18next';
import { formAction } from '~/lib/actions.server';
import { constraintsOf, loginEmailSchema } from '~/lib/schemas.server';
import { useSchemaForm } from '~/lib/schema-form';
import { pageTitle } from '~/lib/meta';
import { AppForm, Field } from '~/components/forms';
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
      return {
        constraint: constraintsOf(loginEmailSchema),
        title: pageTitle(context, request, 'auth.login_title'),
      };
    },
  })(args);

/** Step 1: the email. Whether an account exists is not revealed here. */
export const action = (args: ActionFunctionArgs) =>
  formAction({
    access: 'guest',
    schema: loginEmailSchema,
    permission: null,
    async handle(input, { redirect }) {
      return redirect(`/auth/login-pwd?${new URLSearchParams({ email: input.email })}`);
    },
  })(args);

export default function Login() {
  const { t } = useTranslation();
  const helpInPlace = useHelpInPlace();
  const lastResult = useActionData<typeof action>()?.submission;
  const { constraint } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const [form, fields] = useSchemaForm({
    // No scripts on this page: the browser's own checks (required, type=email) apply before posting.
    defaultNoValidate: false,
    id: 'login-email',
    schema: () => import('@server/domain/auth/schema').then((m) => m.loginEmailSchema),
    lastResult,
    constraint,
    defaultValue: { email: params.get('email') ?? '' },
    // Validate on submit, then as the user types: an error appearing on blur would move the links
    // under the field away from a click in progress.
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
  });
  return (
    <>
      <AuthHeading title={t('auth.login_title')} subtitle={t('auth.login_subtitle')} />
      <AppForm method="post" {...getFormProps(form)} className="space-y-5">
        <Field
          label={t('auth.email')}
          field={fields.email}
          type="email"
          inputProps={{ autoComplete: 'username', autoFocus: !helpInPlace }}
        />
        <Button type="submit" className="w-full">
          {t('common.continue')}
        </Button>
      </AppForm>
    </>
  );
}
