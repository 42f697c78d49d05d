/** A client's invoices tab (one of the money tabs). */
import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { requireClientTab } from '~/lib/clients.server';
import { MoneyTab } from '~/components/clients/client-tabs';

export function loader({ request, context }: LoaderFunctionArgs) {
  requireClientTab(request, context, 'invoices');
  return null;
}

export default function ClientInvoicesTab() {
  return <MoneyTab tab="invoices" />;
}
