import {
  json,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/cloudflare';
import { useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { getFormProps, getSelectProps, useForm } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { changePasswordSchema, profileSchema } from '@server/domain/auth/schema';
import { getOwnProfile, updateOwnProfile } from '@server/domain/account/service';
import { changePassword } from '@server/domain/auth/service';
import { LANDING_PAGE_OPTIONS, checkPasswordConfirmation } from '@server/domain/validation';
import { requireUser, withFormErrors } from '~/lib/guards.server';
import { pageTitle } from '~/lib/meta';
import { formatDateTime } from '~/lib/dates';
import { AppForm, ErrorList, Field, FormErrors, Label, inputClass } from '~/components/forms';
import { Button } from '~/components/ui/button';
import { Card, PageHeader } from '~/components/ui/card';
import { useActionSnack } from '~/components/ui/snackbar';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const ctx = requireUser(request, context);
  return { profile: await getOwnProfile(ctx), title: pageTitle(context, request, 'account.title') };
}

const profileIntent = profileSchema.extend({ intent: z.literal('profile') });
const passwordIntent = changePasswordSchema.innerType().extend({ intent: z.literal('password') });
const schema = z
  .discriminatedUnion('intent', [profileIntent, passwordIntent])
  .superRefine((d, ctx) => (d.intent === 'password' ? checkPasswordConfirmation(d, ctx) : undefined));

/** Two forms on one page behind an `intent`: the profile (with the landing page) and the password. */
export async function action({ request, context }: ActionFunctionArgs) {
  const ctx = requireUser(request, context);
  const formData = await request.formData();
  const intent = formData.get('intent');
  const submission = parseWithZod(formData, { schema });
  if (submission.status !== 'success')
    return json(
      {
        intent,
        result: submission.reply({ hideFields: ['current_password', 'password', 'password_confirmation'] }),
        saved: false,
      },
      { status: 400 },
    );
  const value = submission.value;
  switch (value.intent) {
    case 'profile': {
      const { intent: _intent, ...input } = value;
      const r = await withFormErrors(submission, () => updateOwnProfile(ctx, input));
      return json(
        { intent, result: r.ok ? submission.reply() : r.reply, saved: r.ok },
        { status: r.ok ? 200 : r.status },
      );
    }
    case 'password': {
      const r = await withFormErrors(submission, () => changePassword(ctx, value));
      return json(
        { intent, result: r.ok ? submission.reply({ resetForm: true }) : r.reply, saved: r.ok },
        { status: r.ok ? 200 : r.status },
      );
    }
  }
}

export default function AccountDetails() {
  const { t } = useTranslation();
  const { profile } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting';
  useActionSnack(
    data?.saved ? data : null,
    'success',
    data?.intent === 'password' ? t('account.password_saved') : t('account.profile_saved'),
  );
  const [profileForm, profileFields] = useForm({
    id: 'profile',
    lastResult: data?.intent === 'profile' ? data.result : undefined,
    defaultValue: {
      first_name: profile.first_name,
      last_name: profile.last_name,
      landing_page: profile.landing_page,
    },
    constraint: getZodConstraint(profileSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: profileIntent }),
    shouldValidate: 'onBlur',
  });
  const [passwordForm, passwordFields] = useForm({
    id: 'password',
    lastResult: data?.intent === 'password' ? data.result : undefined,
    constraint: getZodConstraint(passwordIntent),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: changePasswordSchema }),
    shouldValidate: 'onBlur',
  });
  return (
    <div className="mx-auto max-w-4xl">
      <PageHeader title={t('account.title')} description={profile.email} />
      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <h2 className="mb-4 text-base font-semibold">{t('account.profile')}</h2>
          <AppForm method="post" {...getFormProps(profileForm)} className="space-y-4">
            <FormErrors errors={profileForm.errors} />
            <Field
              label={t('account.first_name')}
              field={profileFields.first_name}
              inputProps={{ autoComplete: 'given-name' }}
            />
            <Field
              label={t('account.last_name')}
              field={profileFields.last_name}
              inputProps={{ autoComplete: 'family-name' }}
            />
            <div>
              <Label htmlFor={profileFields.landing_page.id}>{t('account.landing_page')}</Label>
              <select {...getSelectProps(profileFields.landing_page)} className={inputClass}>
                {LANDING_PAGE_OPTIONS.map((p) => (
                  <option key={p} value={p}>
                    {t(`account.landing.${p}`)}
                  </option>
                ))}
              </select>
              <p className="mt-1 text-xs text-slate-500">{t('account.landing_hint')}</p>
              <ErrorList id={profileFields.landing_page.errorId} errors={profileFields.landing_page.errors} />
            </div>
            <Button type="submit" name="intent" value="profile" disabled={busy}>
              {t('common.save')}
            </Button>
          </AppForm>
        </Card>
        <Card>
          <h2 className="mb-4 text-base font-semibold">{t('account.change_password')}</h2>
          <AppForm method="post" {...getFormProps(passwordForm)} className="space-y-4">
            <FormErrors errors={passwordForm.errors} />
            <input
              type="text"
              name="username"
              value={profile.email}
              autoComplete="username"
              readOnly
              hidden
            />
            <Field
              label={t('account.current_password')}
              field={passwordFields.current_password}
              type="password"
              inputProps={{ autoComplete: 'current-password' }}
            />
            <Field
              label={t('account.new_password')}
              field={passwordFields.password}
              type="password"
              hint={t('account.password_rules')}
              inputProps={{ autoComplete: 'new-password' }}
            />
            <Field
              label={t('account.confirm_password')}
              field={passwordFields.password_confirmation}
              type="password"
              inputProps={{ autoComplete: 'new-password' }}
            />
            <Button type="submit" name="intent" value="password" disabled={busy}>
              {t('account.update_password')}
            </Button>
          </AppForm>
        </Card>
        <Card className="lg:col-span-2">
          <h2 className="mb-4 text-base font-semibold">{t('account.access')}</h2>
          <dl className="grid gap-4 text-sm sm:grid-cols-3">
            <div>
              <dt className="text-slate-500">{t('account.role')}</dt>
              <dd className="font-medium">{profile.roles.map((r) => r.name).join(', ')}</dd>
            </div>
            <div>
              <dt className="text-slate-500">{t('account.companies')}</dt>
              <dd className="font-medium">{profile.companies.map((c) => c.name).join(', ')}</dd>
            </div>
            <div>
              <dt className="text-slate-500">{t('account.last_login')}</dt>
              <dd className="font-medium">{formatDateTime(profile.last_login_at)}</dd>
            </div>
          </dl>
        </Card>
      </div>
    </div>
  );
}
