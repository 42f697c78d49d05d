/**
 * /insureds/welcome-email: the bulk action "send welcome email" (spec 001 s.2, s.7-8). The insureds list
 * posts its selection here (ids or "all matching"), the insured page its one id. Sent: back to the list
 * with the counts. Refused ('Insurer does not have an Email.', no initial contact): this page says why.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare';
import { useActionData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { policyIdsOf, sendPolicyWelcomeEmails, WELCOME_PERMISSION } from '~/lib/policy-documents.server';
import { msg } from '@server/domain/messages';
import { formAction } from '~/lib/actions.server';
import { answerOf } from '~/lib/actions';
import { pageTitle } from '~/lib/meta';
import { bulkSchema } from '~/lib/lists.server';
import { localePath } from '~/i18n/config';
import { useMessage } from '~/lib/messages';
import { ButtonLink } from '~/components/ui/button';
import { Alert, Card, PageHeader } from '~/components/ui/card';
import { pageLoader } from '~/lib/loaders.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

/**
 * The page itself only says why a sending was refused (or, reached without a selection, where to make
 * one). It must not redirect: after a refused post the page's loader runs again, and a redirect would
 * hide the refusal.
 */
export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: null,
    load({ request, context }) {
      return { title: pageTitle(context, request, 'policy_documents.welcome.send') };
    },
  })(args);

export const action = (args: ActionFunctionArgs) =>
  formAction({
    schema: bulkSchema,
    permission: WELCOME_PERMISSION,
    async handle(input, { ctx, redirect }) {
      const ids = await policyIdsOf(ctx, input.selection, input.filters);
      const sent = await sendPolicyWelcomeEmails(ctx, ids);
      const left = sent.without_email + sent.cancelled;
      return redirect(
        '/insureds',
        left
          ? msg('policy_documents.welcome.sent_some', { sent: sent.sent, without: left })
          : msg('policy_documents.welcome.sent', { sent: sent.sent }),
      );
    },
  })(args);

export default function WelcomeEmail() {
  const { t, i18n } = useTranslation();
  const m = useMessage();
  const answer = answerOf(useActionData<typeof action>());
  const reasons = [
    ...Object.values(answer?.submission?.error ?? {}).flatMap((e) => e ?? []),
    ...(answer?.error && !answer.submission?.error ? [answer.error] : []),
  ];
  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader title={t('policy_documents.welcome.send')} />
      <Card>
        <div className="space-y-5">
          {reasons.length ? (
            [...new Set(reasons)].map((r) => <Alert key={r}>{m(r)}</Alert>)
          ) : (
            <Alert>{t('policy_documents.bulk.nothing')}</Alert>
          )}
          <ButtonLink to={localePath(i18n.language, '/insureds')} variant="secondary">
            {t('policy_documents.bulk.back')}
          </ButtonLink>
        </div>
      </Card>
    </div>
  );
}
