/**
 * /message-centre/new: start a conversation. Staff choose a client or one of its campuses; a school user
 * writes to their insurer about the whole school or one campus (a campus employee names one of theirs).
 * A subject, the first message and attachments; a multipart post that works without JavaScript. A page
 * that links here may name what the thread is about (`?policy_batch_id=`, `?invoice_id=`, `?policy_id=`).
 */
import {
  json,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/cloudflare';
import { useActionData, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { conversationTargets } from '@server/domain/conversations/options';
import { startConversation } from '@server/domain/conversations/service';
import { MAX_ATTACHMENTS } from '@server/domain/conversations/values';
import { DEFAULT_MAX_FILE_MB } from '@server/platform/storage';
import { constraintsOf, newConversationQuerySchema, startConversationSchema } from '~/lib/schemas.server';
import { formAction } from '~/lib/actions';
import { pageTitle } from '~/lib/meta';
import { Card, PageHeader } from '~/components/ui/card';
import { NewConversationForm } from '~/components/messages/new-conversation-form';
import { pageLoader } from '~/lib/loaders.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'create_message',
    query: newConversationQuerySchema,
    async load({ ctx, request, context, query }) {
      return json({
        targets: await conversationTargets(ctx, 'create_message'),
        about: query,
        limits: { files: MAX_ATTACHMENTS, mb: DEFAULT_MAX_FILE_MB },
        constraint: constraintsOf(startConversationSchema),
        title: pageTitle(context, request, 'conversations.new_title'),
      });
    },
  })(args);

export const action = (args: ActionFunctionArgs) =>
  formAction({
    schema: startConversationSchema,
    permission: 'create_message',
    async handle(input, { ctx, redirect }) {
      const { id } = await startConversation(ctx, input);
      return redirect(`/message-centre/${id}`, 'conversations.started');
    },
  })(args);

export default function NewConversation() {
  const { t } = useTranslation();
  const data = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>()?.submission;
  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader
        title={t('conversations.new_title')}
        description={
          data.targets.side === 'company'
            ? t('conversations.new_intro_staff')
            : t('conversations.new_intro_school')
        }
      />
      <Card>
        <NewConversationForm
          targets={data.targets}
          about={data.about}
          limits={data.limits}
          constraint={data.constraint}
          lastResult={lastResult}
        />
      </Card>
    </div>
  );
}
