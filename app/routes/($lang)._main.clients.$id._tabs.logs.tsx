/** A client's logs tab: every change of the client, who made it and what changed. */
import { json, type LoaderFunctionArgs } from '@remix-run/cloudflare';
import { useLoaderData } from '@remix-run/react';
import { clientActivities } from '@server/domain/clients/notes';
import { requireClientTab } from '~/lib/clients.server';
import { ActivityLog } from '~/components/activity/activity-log';
import { pageLoader } from '~/lib/loaders.server';
import { idSchema } from '~/lib/schemas.server';

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_client',
    params: idSchema,
    async load({ ctx, request, params }) {
      requireClientTab(ctx, 'logs');
      const page = Number(new URL(request.url).searchParams.get('page')) || 1;
      return json({ logs: await clientActivities(ctx, params.id, page) });
    },
  })(args);

export default function ClientLogsTab() {
  const { logs } = useLoaderData<typeof loader>();
  return <ActivityLog rows={logs.items} meta={logs.meta} />;
}
