/** A client's campuses tab: its campuses, each linking to its page. */
import { json, type LoaderFunctionArgs } from '@remix-run/cloudflare';
import { useLoaderData } from '@remix-run/react';
import { can } from '@server/domain/access/actor';
import { listClientCampuses } from '@server/domain/clients/tab-lists';
import { requireClientTab } from '~/lib/clients.server';
import { queryOf } from '~/lib/lists.server';
import { CampusesTab } from '~/components/clients/client-tabs';
import { useClient } from '~/components/clients/client-page';

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const ctx = requireClientTab(request, context, 'campuses');
  return json({
    campuses: await listClientCampuses(ctx, params.id ?? '', queryOf(request)),
    canCreate: can(ctx.actor, 'create_campus'),
  });
}

export default function ClientCampusesTab() {
  const { client } = useClient();
  const { campuses, canCreate } = useLoaderData<typeof loader>();
  return <CampusesTab clientId={client.id} campuses={campuses} canCreate={canCreate} />;
}
