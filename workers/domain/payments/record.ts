/**
 * Payments and refunds recorded by finance (spec 001 s.5 "Invoice payment: payment date
 * required and not in the future; receipt pdf, jpg or png"; 002 s.7 invoices/{id}/transactions/record,
 * /record/refund, PATCH invoices/{invoice_id}/transactions). Decisions in docs/decisions/billing.md, "Recorded
 * payments, refunds and overdue reminders".
 *
 * - A payment: above 0 and not above the balance (part payments allowed); a refund: not above the credit
 *   on the invoice, what was paid beyond what it owes after its credit notes (a cancellation's credit note
 *   on a paid invoice, or an overpayment), so a refund never makes an invoice due again. Neither on a
 *   void invoice nor on a credit note.
 * - One batch: the transaction (gateway `manual`, succeeded), settleInvoice, the activity-log row with
 *   before and after. The insert itself carries the amount rule (INSERT … SELECT … WHERE the balance
 *   allows it), so two submissions racing cannot pay more than the balance.
 * - The form's one-time key (`idempotency_key`, kept per user) makes a submission sent twice (double
 *   click, the same form in two tabs, a retried request) one transaction: the second answers the first.
 * - The receipt (PDF, JPG or PNG by its bytes, 10 MB) is stored in R2 before the batch and removed again
 *   when the batch fails or the submission was a repeat.
 */
import { and, eq, sql } from 'drizzle-orm';
import { transactions } from '../../../drizzle/schema';
import { publicId } from '../../platform/crypto';
import { runBatch } from '../../platform/db';
import { paymentReceived } from '../notifications/events';
import {
  checkUpload,
  deleteFile,
  fileKey,
  fileResponse,
  putFile,
  type CheckedFile,
} from '../../platform/storage';
import { logActivityFrom } from '../audit/activity-log';
import { requirePermission } from '../access/actor';
import type { ActorCtx } from '../context';
import { Conflict, NotFound, ValidationFailed } from '../errors';
import { settleInvoice } from '../invoices/settle';
import { findVisibleInvoice, presentInvoice, type InvoiceRow } from '../invoices/queries';
import { balanceMinor } from '../invoices/status';
import { msg, todayIso } from '../validation';
import {
  RECEIPT_FIELD,
  RECEIPT_KINDS,
  RECEIPT_MAX_MB,
  type EditTransactionInput,
  type RecordTransactionInput,
} from './schema';
import { presentTransaction } from './service';
import { paidNow, webhookEvents } from '../webhooks/emit';

/** Recording, refunding and editing money is finance work (Accounting; administrators). */
export const RECORD_PERMISSION = 'update_invoice';

type Kind = 'payment' | 'refund';
type TransactionRow = typeof transactions.$inferSelect;

function requirePayable(invoice: InvoiceRow) {
  if (invoice.voided_at || invoice.status === 'void') throw new Conflict(msg('payments.errors.void'));
  if (invoice.type === 'credit_note') throw new Conflict(msg('payments.errors.credit_note'));
}

function requirePaidOn(ctx: ActorCtx, paidOn: string) {
  if (paidOn > todayIso(ctx.now))
    throw ValidationFailed.field('paid_on', msg('validation.payment_date_future'));
}

/**
 * What may still be paid (the balance) or refunded (the credit on the invoice: minus its balance, never
 * more than was paid and not yet refunded), minor units.
 */
export function roomFor(kind: Kind, invoice: InvoiceRow): number {
  return kind === 'payment'
    ? balanceMinor(invoice)
    : Math.min(-balanceMinor(invoice), invoice.paid_minor - invoice.refunded_minor);
}

function requireRoom(kind: Kind, invoice: InvoiceRow, amount: number, freed = 0) {
  const room = roomFor(kind, invoice) + freed;
  if (amount <= room) return;
  throw ValidationFailed.field(
    'amount',
    kind === 'payment'
      ? msg('payments.errors.above_balance', { amount: (Math.max(0, room) / 100).toFixed(2) })
      : msg('payments.errors.above_refundable', { amount: (Math.max(0, room) / 100).toFixed(2) }),
  );
}

/** The SQL of the room left on invoice `i` (the same rule as roomFor, read inside the batch). */
function roomSql(kind: Kind) {
  return kind === 'payment'
    ? sql`(i.total_minor - i.paid_minor + i.refunded_minor - i.credited_minor)`
    : sql`min(i.paid_minor - i.refunded_minor + i.credited_minor - i.total_minor, i.paid_minor - i.refunded_minor)`;
}

async function checkReceipt(file: unknown): Promise<CheckedFile | null> {
  if (!(file instanceof Blob) || (file instanceof File && !file.name && file.size === 0)) return null;
  return checkUpload(file, { field: RECEIPT_FIELD, allowed: RECEIPT_KINDS, maxMb: RECEIPT_MAX_MB });
}

/**
 * Records a payment or a refund of an invoice with its receipt. Answers the transaction and the invoice
 * as they are after it; `duplicate` when the same submission (one-time key) had been recorded before.
 */
export async function recordTransaction(
  ctx: ActorCtx,
  invoiceId: string | number,
  kind: Kind,
  input: RecordTransactionInput,
  receipt?: unknown,
) {
  requirePermission(ctx.actor, RECORD_PERMISSION);
  const row = await findVisibleInvoice(ctx, invoiceId);
  const invoice = row.invoice;
  const key = `${ctx.actor.user_id}:${input.idempotency_key ?? publicId()}`;
  const earlier = await byKey(ctx, key);
  if (earlier) return answerOf(ctx, earlier, invoice.id, true);

  requirePayable(invoice);
  requirePaidOn(ctx, input.paid_on);
  requireRoom(kind, invoice, input.amount);
  const checked = await checkReceipt(receipt);
  const receiptKey = checked ? fileKey(`receipts/${invoice.public_id}`, checked.name) : null;
  if (checked && receiptKey) await putFile(ctx.env.FILES, receiptKey, checked);

  const id = publicId();
  const stamp = ctx.now.getTime();
  const told =
    kind === 'payment'
      ? await paymentReceived(ctx, invoice, {
          amount_minor: input.amount,
          by: ctx.actor.user_id,
          when: sql`EXISTS (SELECT 1 FROM transactions WHERE public_id = ${id})`,
        })
      : [];
  try {
    await runBatch(ctx.db, [
      ctx.db.run(sql`INSERT INTO transactions (public_id, invoice_id, kind, gateway, status, identifier,
          amount_minor, currency, paid_on, user_id, method, note, receipt_key, receipt_name, receipt_type,
          idempotency_key, created_at, updated_at)
        SELECT ${id}, i.id, ${kind}, 'manual', 'succeeded', NULL, ${input.amount}, i.currency, ${input.paid_on},
          ${ctx.actor.user_id}, ${input.method}, ${input.note ?? null}, ${receiptKey}, ${checked?.name ?? null},
          ${checked?.contentType ?? null}, ${key}, ${stamp}, ${stamp}
        FROM invoices i
        WHERE i.id = ${invoice.id} AND i.voided_at IS NULL AND i.type <> 'credit_note'
          AND ${roomSql(kind)} >= ${input.amount}
        ON CONFLICT DO NOTHING`),
      settleInvoice(ctx.db, invoice.id, ctx.now),
      webhookEvents(ctx, 'invoice.paid', paidNow(invoice.id, ctx.now)),
      ...told,
      logActivityFrom(
        ctx,
        { entity_type: 'invoice', action: kind === 'payment' ? 'payment_recorded' : 'refund_recorded' },
        sql`SELECT i.id AS entity_id,
            json_object('status', ${invoice.status}, 'paid_minor', ${invoice.paid_minor},
              'refunded_minor', ${invoice.refunded_minor}) AS before,
            json_object('transaction', t.public_id, 'kind', t.kind, 'amount_minor', t.amount_minor,
              'paid_on', t.paid_on, 'method', t.method, 'note', t.note, 'receipt', t.receipt_name,
              'status', i.status, 'paid_minor', i.paid_minor, 'refunded_minor', i.refunded_minor) AS after,
            i.company_id, i.client_id
          FROM transactions t JOIN invoices i ON i.id = t.invoice_id
          WHERE t.public_id = ${id}`,
      ),
    ]);
  } catch (e) {
    await deleteFile(ctx.env.FILES, receiptKey);
    throw e;
  }
  const [mine] = await ctx.db.select().from(transactions).where(eq(transactions.public_id, id)).limit(1);
  if (mine) return answerOf(ctx, mine, invoice.id, false);
  // Not inserted: the same key won a race, or the balance changed meanwhile.
  await deleteFile(ctx.env.FILES, receiptKey);
  const raced = await byKey(ctx, key);
  if (raced) return answerOf(ctx, raced, invoice.id, true);
  const fresh = await findVisibleInvoice(ctx, invoice.id);
  requirePayable(fresh.invoice);
  requireRoom(kind, fresh.invoice, input.amount);
  throw new Conflict(msg('payments.errors.changed'));
}

async function byKey(ctx: ActorCtx, key: string) {
  const [row] = await ctx.db
    .select()
    .from(transactions)
    .where(eq(transactions.idempotency_key, key))
    .limit(1);
  return row ?? null;
}

async function answerOf(ctx: ActorCtx, t: TransactionRow, invoiceId: number, duplicate: boolean) {
  // A key is the form of one invoice: used again for another, it is refused.
  if (t.invoice_id !== invoiceId) throw new Conflict(msg('payments.errors.key_used'));
  const fresh = await findVisibleInvoice(ctx, invoiceId);
  return {
    duplicate,
    transaction: presentTransaction(t, fresh.invoice.public_id),
    invoice: presentInvoice(fresh),
  };
}

/** A transaction of a visible invoice, by public id; NotFound otherwise. */
async function transactionOf(ctx: ActorCtx, invoiceId: string | number, transactionId: string) {
  const row = await findVisibleInvoice(ctx, invoiceId);
  const [t] = await ctx.db
    .select()
    .from(transactions)
    .where(and(eq(transactions.invoice_id, row.invoice.id), eq(transactions.public_id, transactionId)))
    .limit(1);
  if (!t) throw new NotFound(msg('payments.errors.transaction_not_found'));
  return { row, t };
}

/** The edit page's view: the transaction and its invoice. */
export async function transactionForEdit(ctx: ActorCtx, invoiceId: string, transactionId: string) {
  requirePermission(ctx.actor, RECORD_PERMISSION);
  const { row, t } = await transactionOf(ctx, invoiceId, transactionId);
  return {
    invoice: presentInvoice(row),
    transaction: presentTransaction(t, row.invoice.public_id),
    editable: editable(t),
  };
}

/** Card answers are the card provider's record and pending or failed ones are not money: not edited. */
function editable(t: TransactionRow): boolean {
  return t.gateway !== 'barclaycard' && t.status === 'succeeded';
}

/**
 * Edits a recorded payment or refund: date, amount, method, note and (optionally) a new receipt, with the
 * same rules as recording it (the amount it had is free again). One batch with settleInvoice and the log.
 */
export async function editTransaction(
  ctx: ActorCtx,
  invoiceId: string | number,
  input: EditTransactionInput,
  receipt?: unknown,
) {
  requirePermission(ctx.actor, RECORD_PERMISSION);
  const { row, t } = await transactionOf(ctx, invoiceId, input.transaction_id);
  const invoice = row.invoice;
  if (!editable(t)) throw new Conflict(msg('payments.errors.not_editable'));
  requirePayable(invoice);
  requirePaidOn(ctx, input.paid_on);
  const kind = t.kind;
  requireRoom(kind, invoice, input.amount, t.amount_minor);
  // A refund may not leave more refunded than paid: lowering a payment below what was refunded is refused.
  if (kind === 'payment' && invoice.paid_minor - t.amount_minor + input.amount < invoice.refunded_minor)
    throw ValidationFailed.field('amount', msg('payments.errors.below_refunded'));
  const checked = await checkReceipt(receipt);
  const receiptKey = checked ? fileKey(`receipts/${invoice.public_id}`, checked.name) : null;
  if (checked && receiptKey) await putFile(ctx.env.FILES, receiptKey, checked);
  const stamp = ctx.now.getTime();
  const room = sql`(${roomSql(kind)} + ${t.amount_minor})`;
  try {
    await runBatch(ctx.db, [
      ctx.db.run(sql`UPDATE transactions SET amount_minor = ${input.amount}, paid_on = ${input.paid_on},
          method = ${input.method}, note = ${input.note ?? null},
          receipt_key = coalesce(${receiptKey}, receipt_key), receipt_name = coalesce(${checked?.name ?? null}, receipt_name),
          receipt_type = coalesce(${checked?.contentType ?? null}, receipt_type),
          user_id = coalesce(user_id, ${ctx.actor.user_id}), updated_at = ${stamp}
        WHERE id = ${t.id} AND amount_minor = ${t.amount_minor}
          AND EXISTS (SELECT 1 FROM invoices i WHERE i.id = ${invoice.id} AND ${room} >= ${input.amount})`),
      settleInvoice(ctx.db, invoice.id, ctx.now),
      logActivityFrom(
        ctx,
        { entity_type: 'invoice', action: kind === 'payment' ? 'payment_edited' : 'refund_edited' },
        sql`SELECT i.id AS entity_id,
            json_object('transaction', ${t.public_id}, 'amount_minor', ${t.amount_minor}, 'paid_on', ${t.paid_on},
              'method', ${t.method}, 'note', ${t.note}, 'receipt', ${t.receipt_name},
              'status', ${invoice.status}) AS before,
            json_object('transaction', t.public_id, 'amount_minor', t.amount_minor, 'paid_on', t.paid_on,
              'method', t.method, 'note', t.note, 'receipt', t.receipt_name, 'status', i.status) AS after,
            i.company_id, i.client_id
          FROM transactions t JOIN invoices i ON i.id = t.invoice_id
          WHERE t.id = ${t.id} AND t.updated_at = ${stamp}`,
      ),
    ]);
  } catch (e) {
    await deleteFile(ctx.env.FILES, receiptKey);
    throw e;
  }
  const [fresh] = await ctx.db.select().from(transactions).where(eq(transactions.id, t.id));
  if (fresh.updated_at.getTime() !== stamp || fresh.amount_minor !== input.amount) {
    await deleteFile(ctx.env.FILES, receiptKey);
    throw new Conflict(msg('payments.errors.changed'));
  }
  if (receiptKey && t.receipt_key) await deleteFile(ctx.env.FILES, t.receipt_key);
  const inv = await findVisibleInvoice(ctx, invoice.id);
  return { transaction: presentTransaction(fresh, inv.invoice.public_id), invoice: presentInvoice(inv) };
}

/** A transaction's receipt as a download, for whoever may read the invoice. */
export async function receiptResponse(ctx: ActorCtx, invoiceId: string, transactionId: string) {
  const { t } = await transactionOf(ctx, invoiceId, transactionId);
  if (!t.receipt_key) throw new NotFound(msg('payments.errors.no_receipt'));
  const response = await fileResponse(ctx.env.FILES, t.receipt_key, {
    name: t.receipt_name ?? 'receipt',
    contentType: t.receipt_type ?? undefined,
  });
  if (!response) throw new NotFound(msg('payments.errors.no_receipt'));
  return response;
}

/** The figures a payment or refund form shows, minor units. */
function moneyOf(invoice: InvoiceRow) {
  return {
    total: invoice.total_minor,
    paid: invoice.paid_minor,
    refunded: invoice.refunded_minor,
    credited: invoice.credited_minor,
    balance: Math.max(0, balanceMinor(invoice)),
    refundable: Math.max(0, roomFor('refund', invoice)),
  };
}

/**
 * What the record-payment and record-refund pages show: the invoice, its figures, why nothing can be
 * recorded (a message key) and the form's one-time key. The key names the invoice as it is now (its last
 * change): the same form sent twice, from a double click or from two tabs opened on it, records once;
 * once something is recorded the page gets a new key.
 */
export async function transactionFormView(ctx: ActorCtx, invoiceId: string, kind: Kind) {
  requirePermission(ctx.actor, RECORD_PERMISSION);
  const row = await findVisibleInvoice(ctx, invoiceId);
  const invoice = row.invoice;
  let blocked: string | null = null;
  if (invoice.voided_at || invoice.status === 'void') blocked = msg('payments.errors.void');
  else if (invoice.type === 'credit_note') blocked = msg('payments.errors.credit_note');
  else if (roomFor(kind, invoice) <= 0)
    blocked =
      kind === 'payment' ? msg('payments.errors.nothing_to_pay') : msg('payments.errors.nothing_to_refund');
  return {
    invoice: presentInvoice(row),
    money: moneyOf(invoice),
    blocked,
    form_key: `${kind}-${invoice.public_id}-${invoice.updated_at.getTime()}`,
  };
}
