/** The invoice list's value lists, free of zod so the pages' browser code can read them. Pure. */
import { INVOICE_STATUSES } from '../../../drizzle/schema/ordering-enums';

/** The status filter: the payment statuses kept on the invoice and the due states derived from the due date. */
export const INVOICE_LIST_STATUSES = [...INVOICE_STATUSES, 'open', 'due', 'overdue'] as const;
export type InvoiceListStatus = (typeof INVOICE_LIST_STATUSES)[number];
