/** A campus's logs tab: every change of the campus. */
import { json, type LoaderFunctionArgs } from '@remix-run/cloudflare';
import { useLoaderData } from '@remix-run/react';
import { campusLogs } from '@server/domain/campuses/service';
import { requireCampusTab } from '~/lib/campuses.server';
import { ActivityLog } from '~/components/activity/activity-log';

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const ctx = requireCampusTab(request, context, 'logs');
  const page = Number(new URL(request.url).searchParams.get('page')) || 1;
  return json({ logs: await campusLogs(ctx, params.campusId ?? '', page) });
}

export default function CampusLogsTab() {
  const { logs } = useLoaderData<typeof loader>();
  return <ActivityLog rows={logs.items} meta={logs.meta} />;
}
