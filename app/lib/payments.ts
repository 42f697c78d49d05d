/**
 * Where the payment pages go back to: a local `back` address, else the invoice's page under its client.
 * Pure (no zod): the pages' form schemas, with their `back` field, are in workers/domain/payments/schema.ts.
 */
import { isLocalPath } from '@server/domain/paths';

export function invoicePagePath(invoice: { id: string; client: { id: string } }): string {
  return `/clients/${invoice.client.id}/invoices/${invoice.id}`;
}

/** The `back` query parameter of a page's address, when it is a local path. */
export function backOf(request: Request): string | null {
  const back = new URL(request.url).searchParams.get('back');
  return back && isLocalPath(back) && back.length <= 500 ? back : null;
}
