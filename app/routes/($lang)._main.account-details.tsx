/** The signed-in user's account: profile, password, where they are signed in, and their access. */
import {
  json,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/cloudflare';
import { useActionData, useLoaderData, useLocation, useNavigation } from '@remix-run/react';
import { getFormProps } from '@conform-to/react';
import { useTranslation } from 'react-i18next';
import { getOwnProfile, updateOwnProfile } from '@server/domain/account/service';
import { endOtherSessions, endOwnSession, listOwnSessions } from '@server/domain/account/sessions';
import { inSupportView } from '@server/domain/access/support';
import { changePassword } from '@server/domain/auth/service';
import { msg } from '@server/domain/messages';
import { LANDING_PAGES as LANDING_PAGE_OPTIONS } from '@db/enums';
import { intentAction } from '~/lib/actions.server';
import { accountPageSchemas, constraintsOf } from '~/lib/schemas.server';
import { useSchemaForm } from '~/lib/schema-form';
import { answerOf, unreachable } from '~/lib/actions';
import { pageTitle } from '~/lib/meta';
import { formatDateTime } from '~/lib/dates';
import { AppForm, CheckboxField, Field, FormErrors, SelectField } from '~/components/forms';
import { Button } from '~/components/ui/button';
import { Alert, Card, PageHeader } from '~/components/ui/card';
import { useAnswerError } from '~/components/ui/snackbar';
import { SessionsCard } from '~/components/account/sessions-card';
import { pageLoader } from '~/lib/loaders.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: null,
    async load({ ctx, request, context }) {
      const [profile, sessions] = await Promise.all([getOwnProfile(ctx), listOwnSessions(ctx)]);
      return json({
        profile,
        sessions,
        supportView: inSupportView(ctx.actor),
        constraints: {
          profile: constraintsOf(accountPageSchemas.profile),
          password: constraintsOf(accountPageSchemas.password.innerType()),
        },
        title: pageTitle(context, request, 'account.title'),
      });
    },
  })(args);

/** Four operations, each on the user's own account (no permission beyond being signed in). */
export const action = (args: ActionFunctionArgs) =>
  intentAction({
    intents: {
      profile: { schema: accountPageSchemas.profile, permission: null },
      password: { schema: accountPageSchemas.password, permission: null },
      end_session: { schema: accountPageSchemas.end_session, permission: null },
      end_other_sessions: { schema: accountPageSchemas.end_other_sessions, permission: null },
    },
    async handle(input, { ctx, redirect }) {
      switch (input.intent) {
        case 'profile': {
          const { intent: _intent, ...profile } = input;
          await updateOwnProfile(ctx, profile);
          return redirect('/account-details', 'account.profile_saved');
        }
        case 'password':
          await changePassword(ctx, input);
          return redirect(
            '/account-details',
            input.sign_out_other_sessions ? 'account.password_saved' : 'account.password_saved_kept',
          );
        case 'end_session':
          await endOwnSession(ctx, input.session_id);
          return redirect('/account-details', 'account.sessions.ended');
        case 'end_other_sessions': {
          const { ended } = await endOtherSessions(ctx);
          return redirect('/account-details', msg('account.sessions.others_ended', { count: ended }));
        }
        default:
          return unreachable(input);
      }
    },
  })(args);

export default function AccountDetails() {
  const { t } = useTranslation();
  const { profile, sessions, supportView } = useLoaderData<typeof loader>();
  const data = answerOf(useActionData<typeof action>());
  useAnswerError(data);
  const { key } = useLocation();
  const busy = useNavigation().state === 'submitting';
  return (
    <div className="mx-auto max-w-4xl">
      <PageHeader title={t('account.title')} description={profile.email} />
      {supportView ? (
        <div className="mb-6">
          <Alert tone="info">{t('account.support_view_notice')}</Alert>
        </div>
      ) : null}
      <div className="grid gap-6 lg:grid-cols-2">
        {supportView ? null : <ProfileForms key={key} data={data} busy={busy} />}
        <SessionsCard sessions={sessions} readOnly={supportView} />
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

/**
 * The profile and password forms. Keyed by the location by the page, so they start again from the saved
 * values after each submission; their Conform ids stay the same (a changing id leaves Conform watching
 * another form, and its submit check refuses the one on the page).
 */
function ProfileForms({ data, busy }: { data: ReturnType<typeof answerOf>; busy: boolean }) {
  const { t } = useTranslation();
  const { profile, constraints } = useLoaderData<typeof loader>();
  const [profileForm, profileFields] = useSchemaForm({
    id: 'profile',
    schema: () => import('@server/domain/auth/schema').then((m) => m.profileFormSchema),
    lastResult: data?.intent === 'profile' ? data.submission : undefined,
    defaultValue: {
      first_name: profile.first_name,
      last_name: profile.last_name,
      landing_page: profile.landing_page,
      message_emails: profile.message_emails ? 'on' : '',
    },
    constraint: constraints.profile,
    shouldValidate: 'onBlur',
  });
  const [passwordForm, passwordFields] = useSchemaForm({
    id: 'password',
    schema: () => import('@server/domain/auth/schema').then((m) => m.changePasswordFormSchema),
    lastResult: data?.intent === 'password' ? data.submission : undefined,
    // Signing the other sessions out is offered ticked: a password is usually changed after a doubt.
    defaultValue: {
      current_password: '',
      password: '',
      password_confirmation: '',
      sign_out_other_sessions: 'on',
    },
    constraint: constraints.password,
    shouldValidate: 'onBlur',
  });
  return (
    <>
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
          <SelectField
            label={t('account.landing_page')}
            field={profileFields.landing_page}
            hint={t('account.landing_hint')}
            options={LANDING_PAGE_OPTIONS.map((p) => ({ value: p, label: t(`account.landing.${p}`) }))}
          />
          <CheckboxField
            label={t('account.message_emails')}
            hint={t('account.message_emails_hint')}
            field={profileFields.message_emails}
          />
          <Button type="submit" name="intent" value="profile" disabled={busy}>
            {t('common.save')}
          </Button>
        </AppForm>
      </Card>
      <Card>
        <h2 className="mb-4 text-base font-semibold">{t('account.change_password')}</h2>
        <AppForm method="post" {...getFormProps(passwordForm)} className="space-y-4">
          <FormErrors errors={passwordForm.errors} />
          <input type="text" name="username" value={profile.email} autoComplete="username" readOnly hidden />
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
          <CheckboxField
            label={t('account.sign_out_others')}
            hint={t('account.sign_out_others_hint')}
            field={passwordFields.sign_out_other_sessions}
          />
          <Button type="submit" name="intent" value="password" disabled={busy}>
            {t('account.update_password')}
          </Button>
        </AppForm>
      </Card>
    </>
  );
}
