/**
 * /message-centre/{id}: one conversation. Its messages oldest first (who wrote and when, attachments as
 * download links), the reply form with attachments, its status, and the reader's own flag, archive and
 * "mark unread" (which goes back to the inbox). Opening the page reads the thread. Message text is shown
 * as text: line breaks kept, nothing in it is markup or a link.
 */
import {
  json,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/cloudflare';
import { useActionData, useLoaderData } from '@remix-run/react';
import { can } from '@server/domain/access/actor';
import { getConversation, listMessages } from '@server/domain/conversations/inbox';
import { addMessage, setOwnState, setStatus } from '@server/domain/conversations/service';
import { MAX_ATTACHMENTS } from '@server/domain/conversations/values';
import { DEFAULT_MAX_FILE_MB } from '@server/platform/storage';
import {
  addMessageSchema,
  constraintsOf,
  emptySchema,
  idSchema,
  pageQuerySchema,
  statusSchema,
} from '~/lib/schemas.server';
import { answerOf, intentAction, unreachable } from '~/lib/actions';
import { pageTitle } from '~/lib/meta';
import { ThreadView } from '~/components/messages/thread-view';
import { pageLoader } from '~/lib/loaders.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

const MESSAGES_PER_PAGE = 50;

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_message',
    params: idSchema,
    query: pageQuerySchema,
    async load({ ctx, request, context, params, query }) {
      const thread = await getConversation(ctx, params.id);
      const messages = await listMessages(ctx, params.id, { page: query.page, items: MESSAGES_PER_PAGE });
      return json({
        thread,
        messages,
        staff: ctx.actor.user_type === 'company',
        canReply: can(ctx.actor, 'reply_message'),
        limits: { files: MAX_ATTACHMENTS, mb: DEFAULT_MAX_FILE_MB },
        constraint: constraintsOf(addMessageSchema),
        title: `${thread.subject} · ${pageTitle(context, request, 'conversations.title')}`,
      });
    },
  })(args);

export const action = (args: ActionFunctionArgs) =>
  intentAction({
    params: idSchema,
    intents: {
      reply: { schema: addMessageSchema, permission: 'reply_message' },
      status: { schema: statusSchema, permission: 'reply_message' },
      flag: { schema: emptySchema, permission: 'read_message' },
      unflag: { schema: emptySchema, permission: 'read_message' },
      archive: { schema: emptySchema, permission: 'read_message' },
      inbox: { schema: emptySchema, permission: 'read_message' },
      unread: { schema: emptySchema, permission: 'read_message' },
    },
    async handle(input, { ctx, params, redirect }) {
      switch (input.intent) {
        case 'reply':
          await addMessage(ctx, params.id, input);
          return { toast: 'conversations.sent' };
        case 'status':
          await setStatus(ctx, params.id, input.status);
          return { toast: 'conversations.status_changed' };
        case 'flag':
        case 'unflag':
          await setOwnState(ctx, params.id, { flagged: input.intent === 'flag' });
          return { toast: input.intent === 'flag' ? 'conversations.flag_set' : 'conversations.flag_cleared' };
        case 'archive':
          await setOwnState(ctx, params.id, { archived: true });
          return redirect('/message-centre', 'conversations.archived_toast');
        case 'inbox':
          await setOwnState(ctx, params.id, { archived: false });
          return { toast: 'conversations.moved_to_inbox' };
        case 'unread':
          await setOwnState(ctx, params.id, { unread: true });
          return redirect('/message-centre', 'conversations.marked_unread');
        default:
          return unreachable(input);
      }
    },
  })(args);

export default function Conversation() {
  const data = useLoaderData<typeof loader>();
  const answer = answerOf(useActionData<typeof action>());
  return (
    <ThreadView
      thread={data.thread}
      messages={data.messages}
      staff={data.staff}
      canReply={data.canReply}
      limits={data.limits}
      constraint={data.constraint}
      replyResult={answer?.intent === 'reply' ? answer.submission : null}
    />
  );
}
