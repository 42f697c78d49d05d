/** A client's receivables tab (one of the money tabs). */
import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { requireClientTab } from '~/lib/clients.server';
import { MoneyTab } from '~/components/clients/client-tabs';

export function loader({ request, context }: LoaderFunctionArgs) {
  requireClientTab(request, context, 'receivables');
  return null;
}

export default function ClientReceivablesTab() {
  return <MoneyTab tab="receivables" />;
}
