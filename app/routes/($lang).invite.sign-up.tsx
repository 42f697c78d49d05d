import {
  json,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/cloudflare';
import { Link, useActionData, useLoaderData } from '@remix-run/react';
import { getFormProps } from '@conform-to/react';
import { useTranslation } from 'react-i18next';
import { lookUpInvitation, updateInvitedName } from '@server/domain/auth/service';
import { clearCookie, readCookie, serializeCookie } from '@server/web/cookies';
import { localePath } from '~/i18n/config';
import { formAction } from '~/lib/actions';
import { invitePath, requireInvitation } from '~/lib/invite.server';
import { pageLoader } from '~/lib/loaders.server';
import { pageTitle } from '~/lib/meta';
import { useSchemaForm } from '~/lib/schema-form';
import { constraintsOf, inviteNameSchema } from '~/lib/schemas.server';
import { AppForm, Field, FormErrors } from '~/components/forms';
import { Button } from '~/components/ui/button';
import { Alert } from '~/components/ui/card';
import { AuthHeading } from '~/components/auth/auth-layout';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

/**
 * The invitation link lands here with `?token=`. A valid token moves into the 'invite' cookie and the
 * address bar is cleaned, so the token does not linger in history; an invalid one says so plainly.
 */
export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    access: 'guest',
    permission: null,
    async load({ ctx, request, context }) {
      const fromLink = new URL(request.url).searchParams.get('token');
      const { invitation, refused } = await lookUpInvitation(
        ctx,
        fromLink ?? readCookie(request, context.env, 'invite'),
      );
      if (invitation && fromLink) {
        throw redirect(invitePath(request, 'sign-up'), {
          headers: { 'set-cookie': serializeCookie(context.env, 'invite', fromLink) },
        });
      }
      if (invitation) {
        return {
          invalid: false as const,
          invitation: {
            email: invitation.email,
            first_name: invitation.first_name,
            last_name: invitation.last_name,
          },
          constraint: constraintsOf(inviteNameSchema),
          title: pageTitle(context, request, 'invite.sign_up_title'),
        };
      }
      return json(
        {
          invalid: true as const,
          invitation: null,
          constraint: null,
          // Why the link does not work: used, revoked or expired (or simply unknown).
          reason: refused === 'auth.invitation_invalid' ? undefined : refused,
          title: pageTitle(context, request, 'invite.invalid_title'),
        },
        { headers: { 'set-cookie': clearCookie(context.env, 'invite') } },
      );
    },
  })(args);

/** Step 1: the person confirms (or corrects) their first and last name. */
export const action = (args: ActionFunctionArgs) =>
  formAction({
    access: 'guest',
    schema: inviteNameSchema,
    permission: null,
    async handle(input, kit) {
      const { request } = kit;
      const { ctx, token } = await requireInvitation(kit, 'sign-up');
      await updateInvitedName(ctx, token, input);
      return redirect(invitePath(request, 'sign-up-pwd'));
    },
  })(args);

export default function InviteSignUp() {
  const loaderData = useLoaderData<typeof loader>();
  return loaderData.invalid ? (
    <InvalidInvitation reason={loaderData.reason} />
  ) : (
    <NameForm invitation={loaderData.invitation} constraint={loaderData.constraint} />
  );
}

function InvalidInvitation({ reason }: { reason?: string }) {
  const { t, i18n } = useTranslation();
  return (
    <>
      <AuthHeading title={t('invite.invalid_title')} />
      {reason ? <Alert>{t(reason)}</Alert> : null}
      <Alert>{t('invite.invalid_body')}</Alert>
      <Link
        to={localePath(i18n.language, '/auth/login')}
        className="mt-6 inline-block text-sm font-medium text-primary-700 hover:underline"
      >
        {t('auth.go_to_login')}
      </Link>
    </>
  );
}

function NameForm({
  invitation,
  constraint,
}: {
  invitation: { email: string; first_name: string; last_name: string };
  constraint: ReturnType<typeof constraintsOf>;
}) {
  const { t } = useTranslation();
  const lastResult = useActionData<typeof action>()?.submission;
  const [form, fields] = useSchemaForm({
    id: 'invite-name',
    schema: () => import('@server/domain/auth/schema').then((m) => m.inviteNameSchema),
    lastResult,
    constraint,
    defaultValue: { first_name: invitation.first_name, last_name: invitation.last_name },
    shouldValidate: 'onBlur',
  });
  return (
    <>
      <AuthHeading title={t('invite.sign_up_title')} subtitle={t('invite.sign_up_subtitle')} />
      <AppForm method="post" {...getFormProps(form)} className="space-y-5">
        <FormErrors errors={form.errors} />
        <div>
          <p className="mb-1.5 block text-sm font-medium text-slate-700">{t('auth.email')}</p>
          <p className="rounded-lg bg-slate-50 px-3 py-2.5 text-sm text-slate-700 ring-1 ring-inset ring-slate-200">
            {invitation.email}
          </p>
        </div>
        <div className="grid gap-5 sm:grid-cols-2">
          <Field
            label={t('invite.first_name')}
            field={fields.first_name}
            inputProps={{ autoComplete: 'given-name', autoFocus: true }}
          />
          <Field
            label={t('invite.last_name')}
            field={fields.last_name}
            inputProps={{ autoComplete: 'family-name' }}
          />
        </div>
        <Button type="submit" className="w-full">
          {t('common.continue')}
        </Button>
      </AppForm>
    </>
  );
}
