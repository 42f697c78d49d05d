/** A client's campuses tab: its campuses, each linking to its page. */
import { json, type LoaderFunctionArgs } from '@remix-run/cloudflare';
import { useLoaderData } from '@remix-run/react';
import { can } from '@server/domain/access/actor';
import { listClientCampuses } from '@server/domain/clients/tab-lists';
import { requireClientTab } from '~/lib/clients.server';
import { queryOf } from '~/lib/lists.server';
import { CampusesTab } from '~/components/clients/client-tabs';
import { useClient } from '~/components/clients/client-page';
import { pageLoader } from '~/lib/loaders.server';
import { idSchema } from '~/lib/schemas.server';

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_client',
    params: idSchema,
    async load({ ctx, request, params }) {
      requireClientTab(ctx, 'campuses');
      return json({
        campuses: await listClientCampuses(ctx, params.id, queryOf(request)),
        canCreate: can(ctx.actor, 'create_campus'),
      });
    },
  })(args);

export default function ClientCampusesTab() {
  const { client } = useClient();
  const { campuses, canCreate } = useLoaderData<typeof loader>();
  return <CampusesTab clientId={client.id} campuses={campuses} canCreate={canCreate} />;
}
