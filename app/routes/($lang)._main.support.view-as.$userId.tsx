/**
 * The support view's start page: a senior admin confirms viewing the portal as a school user (the users
 * pages link here). The view runs in this browser until stopped from its banner (workers/domain/auth/support.ts).
 */
import {
  json,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/cloudflare';
import { useActionData, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { mayOpenSupportView } from '@server/domain/access/support';
import { getSupportTarget, startSupportView } from '@server/domain/auth/support';
import { serializeCookie } from '@server/web/cookies';
import { localePath } from '~/i18n/config';
import { formAction } from '~/lib/actions.server';
import { supportViewFormSchema, idsSchema } from '~/lib/schemas.server';
import { answerOf } from '~/lib/actions';
import { pageTitle } from '~/lib/meta';
import { useMessage } from '~/lib/messages';
import { AppForm } from '~/components/forms';
import { Button } from '~/components/ui/button';
import { Alert, Card, PageHeader } from '~/components/ui/card';
import { Facts } from '~/components/ui/facts';
import { useAnswerError } from '~/components/ui/snackbar';
import { pageLoader } from '~/lib/loaders.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: null,
    params: idsSchema('userId'),
    async load({ ctx, request, context, params, lang }) {
      if (!mayOpenSupportView(ctx.actor)) throw redirect(localePath(lang, '/home'));
      const target = await getSupportTarget(ctx, params.userId);
      return json({ target, title: pageTitle(context, request, 'support.title') });
    },
  })(args);

export const action = (args: ActionFunctionArgs) =>
  formAction({
    params: idsSchema('userId'),
    schema: supportViewFormSchema,
    permission: null,
    async handle(_input, { ctx, params, context, redirect }) {
      const { token } = await startSupportView(
        { ...ctx, userAgent: args.request.headers.get('user-agent') },
        params.userId,
        'web',
      );
      return redirect('/home', 'support.started', {
        headers: { 'set-cookie': serializeCookie(context.env, 'view_as', token) },
      });
    },
  })(args);

export default function SupportViewStart() {
  const { t } = useTranslation();
  const m = useMessage();
  const { target } = useLoaderData<typeof loader>();
  useAnswerError(answerOf(useActionData<typeof action>()));
  const name = `${target.first_name} ${target.last_name}`;
  return (
    <div className="mx-auto max-w-2xl">
      <PageHeader title={t('support.title')} description={t('support.intro', { name })} />
      <Card>
        <Facts
          items={[
            { label: t('support.user'), value: name },
            { label: t('support.email'), value: target.email },
            { label: t('support.client'), value: target.client },
          ]}
        />
        <div className="mt-6 space-y-3">
          {target.refusal ? (
            <Alert tone="error">{m(target.refusal)}</Alert>
          ) : (
            <>
              <Alert tone="info">{t('support.logged')}</Alert>
              <p className="text-sm text-slate-600">{t('support.not_allowed')}</p>
              <AppForm method="post">
                <Button type="submit" data-testid="start-support-view">
                  {t('support.start')}
                </Button>
              </AppForm>
            </>
          )}
        </div>
      </Card>
    </div>
  );
}
