import { json, type ActionFunctionArgs } from '@remix-run/cloudflare';
import { markNotificationsRead } from '@server/domain/notifications/service';
import { requireUser } from '~/lib/guards.server';

/** Opening the notification dropdown marks the user's notifications read. */
export async function action({ request, context }: ActionFunctionArgs) {
  await markNotificationsRead(requireUser(request, context));
  return json({ ok: true });
}
