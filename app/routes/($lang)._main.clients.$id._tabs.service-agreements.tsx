/** A client's service agreements tab: its agreements, each linking to its edit page. */
import { json, type LoaderFunctionArgs } from '@remix-run/cloudflare';
import { useLoaderData } from '@remix-run/react';
import { can } from '@server/domain/access/actor';
import { listClientAgreements } from '@server/domain/clients/tab-lists';
import { requireClientTab } from '~/lib/clients.server';
import { queryOf } from '~/lib/lists.server';
import { AgreementsTab } from '~/components/clients/client-tabs';
import { useClient } from '~/components/clients/client-page';
import { pageLoader } from '~/lib/loaders.server';
import { idSchema } from '~/lib/schemas.server';

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_client',
    params: idSchema,
    async load({ ctx, request, params }) {
      requireClientTab(ctx, 'service_agreements');
      return json({
        agreements: await listClientAgreements(ctx, params.id, queryOf(request)),
        canCreate: can(ctx.actor, 'create_service_agreement'),
        canUpdate: can(ctx.actor, 'update_service_agreement'),
      });
    },
  })(args);

export default function ClientAgreementsTab() {
  const { client } = useClient();
  const { agreements, canCreate, canUpdate } = useLoaderData<typeof loader>();
  return (
    <AgreementsTab clientId={client.id} agreements={agreements} canCreate={canCreate} canUpdate={canUpdate} />
  );
}
