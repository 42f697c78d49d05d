/** A campus's logs tab: every change of the campus. */
import { json, type LoaderFunctionArgs } from '@remix-run/cloudflare';
import { useLoaderData } from '@remix-run/react';
import { campusLogs } from '@server/domain/campuses/service';
import { requireCampusTab } from '~/lib/campuses.server';
import { ActivityLog } from '~/components/activity/activity-log';
import { pageLoader } from '~/lib/loaders.server';
import { idsSchema } from '~/lib/schemas.server';

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_campus',
    params: idsSchema('campusId'),
    async load({ ctx, request, params }) {
      requireCampusTab(ctx, 'logs');
      const page = Number(new URL(request.url).searchParams.get('page')) || 1;
      return json({ logs: await campusLogs(ctx, params.campusId, page) });
    },
  })(args);

export default function CampusLogsTab() {
  const { logs } = useLoaderData<typeof loader>();
  return <ActivityLog rows={logs.items} meta={logs.meta} />;
}
