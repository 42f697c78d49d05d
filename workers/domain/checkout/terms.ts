/**
 * How a client pays for an order (docs/decisions/checkout-and-payments.md, "Checkout"): which payment choices the checkout
 * offers, and when the invoice falls due. Pure, so the checkout page and the service agree.
 *
 * - Card: always offered (the client pays now on the card provider's page).
 * - Bank transfer: offered when the client's payment method is bank transfer, or a campus of the order
 *   may pay by bank transfer (the campus's pay-with-bank-transfer flag).
 * - Invoice: offered unless the client's terms are COD (cash on delivery: pay at checkout). A client on
 *   "pay later" terms gets a pay-later invoice; every other term an invoice "invoiced directly".
 *
 * Due date, from the client's payment terms and the invoice date:
 * COD: the invoice date. Invoiced directly: 30 days. Pay later: 60 days. Weekly: the Sunday ending the
 * week. Bi-weekly: the Sunday ending the second week of the fortnight (ISO weeks paired from week 1).
 * Semi-monthly: the 15th, or the month's last day after the 15th. Monthly: the month's last day.
 */
import { addDays, endOfMonth, format, getISOWeek, parseISO } from 'date-fns';

export const PAYMENT_CHOICES = ['credit_card', 'bank_transfer', 'invoiced_directly', 'pay_later'] as const;
export type PaymentChoice = (typeof PAYMENT_CHOICES)[number];

export type PaymentTerms =
  'invoiced_directly' | 'weekly' | 'bi_weekly' | 'semi_monthly' | 'monthly' | 'pay_later' | 'cod';

export interface PayingClient {
  payment_terms: PaymentTerms;
  payment_method: string;
}

/** The choices the checkout offers a client, the usual one first. */
export function paymentChoices(client: PayingClient, campusAllowsBankTransfer: boolean): PaymentChoice[] {
  const bank = client.payment_method === 'bank_transfer' || campusAllowsBankTransfer;
  const invoice: PaymentChoice | null =
    client.payment_terms === 'cod'
      ? null
      : client.payment_terms === 'pay_later'
        ? 'pay_later'
        : 'invoiced_directly';
  const choices: PaymentChoice[] = ['credit_card'];
  if (bank) choices.push('bank_transfer');
  if (invoice) choices.push(invoice);
  const preferred = defaultChoice(client, choices);
  return [preferred, ...choices.filter((c) => c !== preferred)];
}

function defaultChoice(client: PayingClient, choices: PaymentChoice[]): PaymentChoice {
  if (client.payment_terms !== 'cod') {
    const invoice = choices.find((c) => c === 'invoiced_directly' || c === 'pay_later');
    if (invoice) return invoice;
  }
  if (client.payment_method === 'bank_transfer' && choices.includes('bank_transfer')) return 'bank_transfer';
  return 'credit_card';
}

const iso = (d: Date) => format(d, 'yyyy-MM-dd');

/** The due date (YYYY-MM-DD) of an invoice dated `date` under the client's payment terms. */
export function dueDate(terms: PaymentTerms, date: string): string {
  const d = parseISO(date);
  const sunday = () => addDays(d, (7 - d.getDay()) % 7);
  switch (terms) {
    case 'cod':
      return date;
    case 'invoiced_directly':
      return iso(addDays(d, 30));
    case 'pay_later':
      return iso(addDays(d, 60));
    case 'weekly':
      return iso(sunday());
    case 'bi_weekly': {
      const end = sunday();
      return iso(getISOWeek(end) % 2 === 1 ? addDays(end, 7) : end);
    }
    case 'semi_monthly':
      return d.getDate() <= 15 ? `${date.slice(0, 8)}15` : iso(endOfMonth(d));
    case 'monthly':
      return iso(endOfMonth(d));
  }
}
