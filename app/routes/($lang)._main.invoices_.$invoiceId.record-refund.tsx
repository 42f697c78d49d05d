/**
 * /invoices/{invoiceId}/record-refund: finance records money paid back on an invoice (part or all of what
 * was paid and not yet refunded), with its date, how it went, a note and the receipt. Back to the invoice's
 * page (or the `back` address) with a toast. The page and its rules are shared with record-payment.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare';
import { recordAction, recordLoader } from '~/lib/record-transaction.server';
import { RecordTransactionPage } from '~/components/payments/record-transaction-page';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) => recordLoader('refund', args);

export const action = (args: ActionFunctionArgs) => recordAction('refund', args);

export default RecordTransactionPage;
