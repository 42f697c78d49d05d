import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { downloadAttachment } from '@server/domain/conversations/inbox';
import { idsSchema } from '~/lib/schemas.server';
import { pageLoader } from '~/lib/loaders.server';

/** GET /message-centre/{id}/files/{messageId}/{attachmentId}: a message's attachment (a resource route). */
export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_message',
    params: idsSchema('id', 'messageId', 'attachmentId'),
    load({ ctx, params }) {
      return downloadAttachment(ctx, params.id, params.messageId, params.attachmentId);
    },
  })(args);
