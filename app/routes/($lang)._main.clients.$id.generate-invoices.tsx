/**
 * /clients/{id}/generate-invoices: finance invoices a client's policies on account (periodic terms) on
 * demand. The filters (from, to, group; by default the current period of the client's terms) preview
 * what will be invoiced, one row per invoice the client's invoice rule makes; Confirm issues them
 * (clients/{id}/generate-invoices), once: what is invoiced leaves the preview. The daily task does the
 * same for every period that has ended. The campus's page is the same (campuses.$id.generate-invoices).
 */
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare';
import { useLoaderData } from '@remix-run/react';
import { generateInvoicesAction, generateInvoicesLoader } from '~/lib/generate-invoices.server';
import { GenerateInvoicesPage } from '~/components/invoices/generate-invoices-page';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) => generateInvoicesLoader(args, 'client');

export const action = (args: ActionFunctionArgs) => generateInvoicesAction(args, 'client');

export default function ClientGenerateInvoices() {
  const { preview, meta, invalid } = useLoaderData<typeof loader>();
  return <GenerateInvoicesPage preview={preview} meta={meta} invalid={invalid} />;
}
