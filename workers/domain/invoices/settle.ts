/**
 * The one statement that brings an invoice's money columns up to date after any money change (a payment,
 * a refund, an edited transaction, a credit note against it, a voiding): paid_minor, refunded_minor and
 * credited_minor are summed from what exists, and the status follows the rules of status.ts. Put it in
 * the same batch as the change, after it: the batch is all or nothing, and the sums cannot drift.
 *
 * - paid_minor: succeeded payments; refunded_minor: succeeded refunds (amounts are positive).
 * - credited_minor: the totals of credit notes issued against it (credit_for_id), not voided.
 * - status: void stays void; a credit note is issued; refunded / paid / pending (a pending transaction) /
 *   unpaid as status.ts says.
 * - paid_at: the latest payment's date when it becomes paid, cleared when it is not paid any more (a
 *   credit note has none).
 */
import { sql, type SQL } from 'drizzle-orm';
import type { DB, Statement } from '../../platform/db';

/** SQL for the invoices to settle: `sql\`id = ${id}\`` or `sql\`id IN (...)\``. */
export function settleInvoices(db: DB, which: SQL, now: Date): Statement {
  const stamp = now.getTime();
  return db.run(sql`UPDATE invoices AS i SET
      paid_minor = s.paid, refunded_minor = s.refunded, credited_minor = s.credited,
      status = CASE
        WHEN i.voided_at IS NOT NULL THEN 'void'
        WHEN i.type = 'credit_note' THEN 'issued'
        WHEN s.paid > 0 AND s.refunded >= s.paid THEN 'refunded'
        WHEN i.total_minor - s.paid + s.refunded - s.credited <= 0 THEN 'paid'
        WHEN s.pending > 0 THEN 'pending'
        ELSE 'unpaid' END,
      paid_at = CASE
        WHEN i.voided_at IS NULL AND i.type <> 'credit_note'
          AND NOT (s.paid > 0 AND s.refunded >= s.paid)
          AND i.total_minor - s.paid + s.refunded - s.credited <= 0
        THEN coalesce(s.last_paid_on, i.paid_at, i.date)
        ELSE NULL END,
      updated_at = ${stamp}
    FROM (SELECT x.id,
        (SELECT coalesce(sum(t.amount_minor), 0) FROM transactions t WHERE t.invoice_id = x.id
          AND t.kind = 'payment' AND t.status = 'succeeded') AS paid,
        (SELECT coalesce(sum(t.amount_minor), 0) FROM transactions t WHERE t.invoice_id = x.id
          AND t.kind = 'refund' AND t.status = 'succeeded') AS refunded,
        (SELECT count(*) FROM transactions t WHERE t.invoice_id = x.id AND t.status = 'pending') AS pending,
        (SELECT max(t.paid_on) FROM transactions t WHERE t.invoice_id = x.id
          AND t.kind = 'payment' AND t.status = 'succeeded') AS last_paid_on,
        (SELECT coalesce(sum(c.total_minor), 0) FROM invoices c WHERE c.credit_for_id = x.id
          AND c.type = 'credit_note' AND c.voided_at IS NULL) AS credited
      FROM invoices x WHERE ${which}) AS s
    WHERE i.id = s.id`);
}

/** One invoice by its row id. */
export function settleInvoice(db: DB, invoiceId: number, now: Date): Statement {
  return settleInvoices(db, sql`x.id = ${invoiceId}`, now);
}
