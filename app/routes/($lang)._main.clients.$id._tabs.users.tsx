/** A client's users tab: the school users of the client, by status. */
import { json, type LoaderFunctionArgs } from '@remix-run/cloudflare';
import { useLoaderData } from '@remix-run/react';
import { listClientSchoolUsers } from '@server/domain/clients/tab-lists';
import { requireClientTab } from '~/lib/clients.server';
import { queryOf } from '~/lib/lists.server';
import { UsersTab } from '~/components/clients/client-tabs';

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const ctx = requireClientTab(request, context, 'users');
  return json({
    users: await listClientSchoolUsers(ctx, params.id ?? '', { ...queryOf(request), items: 25 }),
  });
}

export default function ClientUsersTab() {
  return <UsersTab users={useLoaderData<typeof loader>().users} />;
}
