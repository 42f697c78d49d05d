/**
 * /campuses/{id}/generate-invoices (spec 000 s.2): the client's generate-invoices page for one campus,
 * taking only that campus's policies on account (campuses/{id}/generate-invoices); the same preview,
 * filters and Confirm (app/components/invoices/generate-invoices-page.tsx).
 */
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare';
import { useLoaderData } from '@remix-run/react';
import { generateInvoicesAction, generateInvoicesLoader } from '~/lib/generate-invoices.server';
import { GenerateInvoicesPage } from '~/components/invoices/generate-invoices-page';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) => generateInvoicesLoader(args, 'campus');

export const action = (args: ActionFunctionArgs) => generateInvoicesAction(args, 'campus');

export default function CampusGenerateInvoices() {
  const { preview, meta, invalid } = useLoaderData<typeof loader>();
  return <GenerateInvoicesPage preview={preview} meta={meta} invalid={invalid} />;
}
