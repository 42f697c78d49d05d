/** A client's transactions tab (one of the money tabs). */
import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { requireClientTab } from '~/lib/clients.server';
import { MoneyTab } from '~/components/clients/client-tabs';

export function loader({ request, context }: LoaderFunctionArgs) {
  requireClientTab(request, context, 'transactions');
  return null;
}

export default function ClientTransactionsTab() {
  return <MoneyTab tab="transactions" />;
}
