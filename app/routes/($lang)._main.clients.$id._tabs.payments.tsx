/** A client's payments tab: the payments that came in for its invoices, newest first. */
import { json, type LoaderFunctionArgs } from '@remix-run/cloudflare';
import { useLoaderData } from '@remix-run/react';
import { can } from '@server/domain/access/actor';
import { clientTransactions } from '@server/domain/payments/client-lists';
import { RECORD_PERMISSION } from '@server/domain/payments/record';
import { requireClientTab } from '~/lib/clients.server';
import { queryOf } from '~/lib/lists.server';
import { useClient } from '~/components/clients/client-page';
import { TransactionsTable } from '~/components/payments/transactions-table';
import { pageLoader } from '~/lib/loaders.server';
import { idSchema } from '~/lib/schemas.server';

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_client',
    params: idSchema,
    async load({ ctx, request, params }) {
      requireClientTab(ctx, 'payments');
      return json({
        list: await clientTransactions(ctx, params.id, queryOf(request), 'payments'),
        canEdit: can(ctx.actor, RECORD_PERMISSION),
      });
    },
  })(args);

export default function ClientPaymentsTab() {
  const { client } = useClient();
  const { list, canEdit } = useLoaderData<typeof loader>();
  return <TransactionsTable clientId={client.id} list={list} mode="payments" canEdit={canEdit} />;
}
