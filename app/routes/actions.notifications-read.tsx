import type { ActionFunctionArgs } from '@remix-run/cloudflare';
import { markNotificationsRead } from '@server/domain/notifications/service';
import { emptySchema } from '~/lib/schemas.server';
import { formAction } from '~/lib/actions';

/** Opening the notification dropdown marks the user's notifications read (any signed-in user). */
export const action = (args: ActionFunctionArgs) =>
  formAction({
    schema: emptySchema,
    permission: null,
    async handle(_input, { ctx }) {
      await markNotificationsRead(ctx);
    },
  })(args);
