/**
 * An invoice's states (spec 001 s.4 "Invoice statuses: pending, paid, unpaid, refunded; also open,
 * overdue, due"; docs/decisions/billing.md "Invoice statuses"). Pure, so the list, the detail, the PDF, the
 * billing summary and the reminders agree.
 *
 * - The payment status is kept on the invoice (`invoices.status`) and recomputed from its transactions and
 *   credits by `settleInvoice` (settle.ts) after every money change:
 *   void (voided before any payment), issued (a credit note: it is not paid, it lowers what its invoice
 *   owes), refunded (money came in and all of it went back), paid (nothing
 *   left to pay), pending (a card or bank payment started and not yet confirmed), unpaid (anything else,
 *   a part payment included: `partly_paid` says so).
 * - The due state is derived when read, for an invoice with a balance: overdue after its due date, due
 *   from 7 days before it (today included), open before that. A settled invoice or a credit note has none.
 * - Balance (outstanding) = total - paid + refunded - credited, never below zero for the states.
 */
import type { INVOICE_STATUSES } from '../../../drizzle/schema/ordering-enums';
import type { InvoiceType } from '../../../drizzle/schema/policy-enums';

export type InvoicePaymentStatus = (typeof INVOICE_STATUSES)[number];
export const DUE_STATES = ['open', 'due', 'overdue'] as const;
export type DueState = (typeof DUE_STATES)[number];

/** Days before the due date from which an invoice with a balance is "due". */
export const DUE_SOON_DAYS = 7;

export interface InvoiceMoney {
  type: InvoiceType;
  total_minor: number;
  paid_minor: number;
  refunded_minor: number;
  credited_minor: number;
  voided_at: Date | number | null;
}

/** What is left to pay (minor units); a credit note owes nothing. */
export function balanceMinor(i: InvoiceMoney): number {
  if (i.type === 'credit_note' || i.voided_at) return 0;
  return i.total_minor - i.paid_minor + i.refunded_minor - i.credited_minor;
}

/** The payment status an invoice's figures give (`pendingPayment`: a started card or bank payment). */
export function paymentStatus(i: InvoiceMoney, pendingPayment = false): InvoicePaymentStatus {
  if (i.voided_at) return 'void';
  if (i.type === 'credit_note') return 'issued';
  if (i.paid_minor > 0 && i.refunded_minor >= i.paid_minor) return 'refunded';
  if (balanceMinor(i) <= 0) return 'paid';
  return pendingPayment ? 'pending' : 'unpaid';
}

/** Paid in part: some money in, some still to pay. */
export function partlyPaid(i: InvoiceMoney): boolean {
  return i.paid_minor - i.refunded_minor > 0 && balanceMinor(i) > 0;
}

/** Days from `from` to `to` (YYYY-MM-DD), whole days, negative when `to` is earlier. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** open, due or overdue for an invoice with a balance on `today`; null when nothing is owed. */
export function dueState(i: InvoiceMoney & { due_at: string }, today: string): DueState | null {
  if (balanceMinor(i) <= 0) return null;
  const left = daysBetween(today, i.due_at);
  if (left < 0) return 'overdue';
  return left <= DUE_SOON_DAYS ? 'due' : 'open';
}

/** Days past the due date (0 when not overdue): the aging buckets and the reminder steps read this. */
export function daysOverdue(due_at: string, today: string): number {
  return Math.max(0, daysBetween(due_at, today));
}

export const AGING_BUCKETS = ['current', 'd1_30', 'd31_60', 'd61_90', 'over_90'] as const;
export type AgingBucket = (typeof AGING_BUCKETS)[number];

/** The aging bucket of a balance: current (not yet overdue), 1-30, 31-60, 61-90, over 90 days. */
export function agingBucket(due_at: string, today: string): AgingBucket {
  const d = daysOverdue(due_at, today);
  if (d === 0) return 'current';
  if (d <= 30) return 'd1_30';
  if (d <= 60) return 'd31_60';
  if (d <= 90) return 'd61_90';
  return 'over_90';
}
