import {
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/cloudflare';
import { useActionData, useSearchParams } from '@remix-run/react';
import { getFormProps, useForm } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod';
import { useTranslation } from 'react-i18next';
import { loginEmailSchema } from '@server/domain/auth/schema';
import { localePath } from '~/i18n/config';
import { langOf, requireGuest } from '~/lib/guards.server';
import { pageTitle } from '~/lib/meta';
import { AppForm, Field } from '~/components/forms';
import { Button } from '~/components/ui/button';
import { AuthHeading } from '~/components/auth/auth-layout';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  requireGuest(request, context);
  return { title: pageTitle(context, request, 'auth.login_title') };
}

/** Step 1: the email. Whether an account exists is not revealed here. */
export async function action({ request, context }: ActionFunctionArgs) {
  requireGuest(request, context);
  const submission = parseWithZod(await request.formData(), { schema: loginEmailSchema });
  if (submission.status !== 'success') return submission.reply();
  const next = new URLSearchParams({ email: submission.value.email });
  throw redirect(`${localePath(langOf(request), '/auth/login-pwd')}?${next}`);
}

export default function Login() {
  const { t } = useTranslation();
  const lastResult = useActionData<typeof action>();
  const [params] = useSearchParams();
  const [form, fields] = useForm({
    lastResult,
    constraint: getZodConstraint(loginEmailSchema),
    defaultValue: { email: params.get('email') ?? '' },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: loginEmailSchema }),
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
          inputProps={{ autoComplete: 'username', autoFocus: true }}
        />
        <Button type="submit" className="w-full">
          {t('common.continue')}
        </Button>
      </AppForm>
    </>
  );
}
