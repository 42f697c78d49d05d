/**
 * The server side of the checkout, payment and confirmation pages: the domain functions their loaders
 * and actions call, kept out of the browser bundle (.server).
 */
export { cartClearTime } from '@server/domain/checkout/clear';
export {
  CHECKOUT_PERMISSION,
  checkoutInvoice,
  confirmOpenBatches,
  newCheckoutKey,
  planCheckout,
} from '@server/domain/checkout/service';
export { sendWelcomeEmails, WELCOME_PERMISSION } from '@server/domain/checkout/welcome';
export { INVOICE_ACCESS } from '@server/domain/invoices/queries';
export {
  getInvoice,
  invoiceBatches,
  invoiceSummaryWorkbook,
  siblingInvoices,
} from '@server/domain/invoices/service';
export {
  APPROVE_PERMISSION,
  approveBankTransfer,
  bankTransferView,
  invoiceTransactions,
  recordCardResult,
  startBankTransfer,
  startCardPayment,
} from '@server/domain/payments/service';

/**
 * The fields of a card provider's answer, from the query string and, when posted, the form (ePDQ sends
 * either, depending on its back-office settings).
 */
export async function cardAnswerParams(request: Request): Promise<Record<string, string>> {
  const params: Record<string, string> = {};
  for (const [k, v] of new URL(request.url).searchParams) params[k] = v;
  if (request.method === 'POST') {
    const form = await request.formData();
    for (const [k, v] of form) if (typeof v === 'string') params[k] = v;
  }
  return params;
}
