/** A client's service agreements tab: its agreements, each linking to its edit page. */
import { json, type LoaderFunctionArgs } from '@remix-run/cloudflare';
import { useLoaderData } from '@remix-run/react';
import { can } from '@server/domain/access/actor';
import { listClientAgreements } from '@server/domain/clients/tab-lists';
import { requireClientTab } from '~/lib/clients.server';
import { queryOf } from '~/lib/lists.server';
import { AgreementsTab } from '~/components/clients/client-tabs';
import { useClient } from '~/components/clients/client-page';

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const ctx = requireClientTab(request, context, 'service_agreements');
  return json({
    agreements: await listClientAgreements(ctx, params.id ?? '', queryOf(request)),
    canCreate: can(ctx.actor, 'create_service_agreement'),
    canUpdate: can(ctx.actor, 'update_service_agreement'),
  });
}

export default function ClientAgreementsTab() {
  const { client } = useClient();
  const { agreements, canCreate, canUpdate } = useLoaderData<typeof loader>();
  return (
    <AgreementsTab clientId={client.id} agreements={agreements} canCreate={canCreate} canUpdate={canUpdate} />
  );
}
