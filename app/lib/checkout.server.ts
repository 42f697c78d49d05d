/**
 * The server side of the checkout, payment and confirmation pages: the domain functions their loaders
 * and actions call, kept out of the browser bundle (.server).
 */
import { ValidationFailed } from '@server/domain/errors';
import { msg } from '@server/domain/messages';

export { cartClearTime } from '@server/domain/checkout/clear';
export {
  CHECKOUT_PERMISSION,
  checkoutInvoice,
  checkoutResult,
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
 * either, depending on its back-office settings). A posted body that is not a form, or a form that cannot
 * be read, is refused (ValidationFailed: the callback and notification routes answer 400), never read as
 * no fields.
 */
export async function cardAnswerParams(request: Request): Promise<Record<string, string>> {
  const params: Record<string, string> = {};
  for (const [k, v] of new URL(request.url).searchParams) params[k] = v;
  if (request.method !== 'POST') return params;
  const type = (request.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
  if (type === 'application/x-www-form-urlencoded' || type === 'multipart/form-data') {
    let form: FormData;
    try {
      form = await request.formData();
    } catch {
      throw ValidationFailed.field('body', msg('errors.body.malformed'));
    }
    for (const [k, v] of form) if (typeof v === 'string') params[k] = v;
  } else if (type || (request.body && (await request.arrayBuffer()).byteLength > 0)) {
    throw ValidationFailed.field('body', msg('errors.body.form'));
  }
  return params;
}
