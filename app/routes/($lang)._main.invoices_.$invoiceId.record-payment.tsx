/**
 * /invoices/{invoiceId}/record-payment: finance records money that came in for an invoice (a part
 * payment or the balance), with its date, how it came, a note and the receipt. Back to the invoice's page
 * (or the `back` address) with a toast. The page and its rules are shared with record-refund.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare';
import { recordAction, recordLoader } from '~/lib/record-transaction.server';
import { RecordTransactionPage } from '~/components/payments/record-transaction-page';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) => recordLoader('payment', args);

export const action = (args: ActionFunctionArgs) => recordAction('payment', args);

export default RecordTransactionPage;
