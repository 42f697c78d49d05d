/**
 * The credit notes of an amendment that credits (a cancellation, a shortened trip): set-based statements
 * of the confirmation's one batch (confirm.ts). Decided in docs/decisions/billing.md, "Credit notes and
 * refunds: the model".
 *
 * A credit note corrects one invoice (as Stripe's does): each policy's credit goes against the invoices
 * that charged it (its checkout or periodic invoice, then any supplementary invoice of an extension),
 * newest first, each up to what that invoice still charges for the policy (its lines less the credit
 * notes already standing against it for that policy). So one note per invoice credited, naming it
 * (`credit_for_id`), its lines pointing at the line they correct (`credits_item_id`), its payment method
 * the invoice's; the invoice is settled in the same batch, so its balance (and the client's, the aging,
 * the statement and the reminders, which all read it) goes down by the note's total. A policy not yet
 * invoiced (on account, periodic terms) has nothing to credit: the periodic invoice bills what the
 * amendment left. Premium, tax and stamp duty are allocated each on its own, so a note can carry a stamp
 * duty part; an amendment line credits no stamp duty today (`stamp` below is 0).
 */
import { sql, type SQL } from 'drizzle-orm';
import type { DB, Statement } from '../../../platform/db';
import { settleInvoices } from '../../invoices/settle';
import { CREDIT_NOTE_SERIES } from './confirm';

/**
 * The allocation of amendment `X`'s credits, as CTEs ending in `alloc(policy_id, invoice_id, premium,
 * tax, stamp)` (positive amounts, rows with nothing to credit left out).
 */
function allocation(X: number): SQL {
  const signed = (col: string) =>
    sql.raw(`sum(CASE WHEN inv.type = 'credit_note' THEN -(${col}) ELSE ${col} END)`);
  const before = (col: string) =>
    sql.raw(`coalesce(sum(max(c.${col}, 0)) OVER (PARTITION BY c.policy_id ORDER BY c.invoice_id DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0)`);
  return sql`cl AS (
      SELECT l.policy_id, -l.premium_diff_minor AS premium, -l.tax_diff_minor AS tax, 0 AS stamp
      FROM policy_amendment_lines l WHERE l.amendment_id = ${X} AND l.premium_diff_minor < 0),
    charged AS (
      SELECT it.policy_id, CASE WHEN inv.type = 'credit_note' THEN inv.credit_for_id ELSE inv.id END AS invoice_id,
        ${signed('it.unit_minor * it.quantity')} AS premium, ${signed('it.tax_minor')} AS tax,
        ${signed('it.stamp_duty_minor')} AS stamp
      FROM invoice_items it JOIN invoices inv ON inv.id = it.invoice_id
      WHERE it.policy_id IN (SELECT policy_id FROM cl) AND inv.voided_at IS NULL
        AND (inv.type <> 'credit_note' OR inv.credit_for_id IS NOT NULL)
      GROUP BY 1, 2),
    ranked AS (
      SELECT c.policy_id, c.invoice_id, max(c.premium, 0) AS premium, max(c.tax, 0) AS tax,
        max(c.stamp, 0) AS stamp, ${before('premium')} AS premium_before, ${before('tax')} AS tax_before,
        ${before('stamp')} AS stamp_before
      FROM charged c),
    alloc AS (
      SELECT r.policy_id, r.invoice_id, max(0, min(r.premium, cl.premium - r.premium_before)) AS premium,
        max(0, min(r.tax, cl.tax - r.tax_before)) AS tax, max(0, min(r.stamp, cl.stamp - r.stamp_before)) AS stamp
      FROM ranked r JOIN cl ON cl.policy_id = r.policy_id
      WHERE max(0, min(r.premium, cl.premium - r.premium_before)) + max(0, min(r.tax, cl.tax - r.tax_before))
        + max(0, min(r.stamp, cl.stamp - r.stamp_before)) > 0)`;
}

/** The amendment's credit note against invoice `target` (SQL over a column or value). */
const noteOf = (X: number, target: SQL) =>
  sql`(SELECT c.id FROM invoices c WHERE c.amendment_id = ${X} AND c.type = 'credit_note' AND c.credit_for_id = ${target})`;

/** The credit note a policy's change is recorded on (its newest invoice credited), as SQL over `p`. */
export const policyCreditNote = (X: number) => sql`(SELECT c.id FROM invoices c
  JOIN invoice_items ci ON ci.invoice_id = c.id
  WHERE c.amendment_id = ${X} AND c.type = 'credit_note' AND ci.policy_id = p.id
  ORDER BY c.credit_for_id DESC LIMIT 1)`;

/**
 * The statements that issue the credit notes of amendment `a` (after its guard, in the same batch):
 * the notes (numbers from the CN series), the series, their lines (the policy, the dates, the line they
 * correct), then every note and every invoice it credits settled.
 */
export function creditNoteStatements(
  db: DB,
  a: { id: number; public_id: string },
  doc: { userId: number | null; today: string; ts: number; description: SQL },
): Statement[] {
  const X = a.id;
  const alloc = allocation(X);
  const number = sql`'CN' || printf('%07d', seq.value + g.rn)`;
  return [
    db.run(sql`WITH ${alloc},
      g AS (SELECT invoice_id, sum(premium) AS premium, sum(tax) AS tax, sum(stamp) AS stamp,
          row_number() OVER (ORDER BY invoice_id) AS rn
        FROM alloc GROUP BY invoice_id),
      seq AS (SELECT value FROM sequences WHERE name = ${CREDIT_NOTE_SERIES})
      INSERT INTO invoices (public_id, number, company_id, client_id, campus_id, status, payment_method, currency,
        date, due_at, paid_at, insurance_cost_minor, tax_minor, stamp_duty_minor, admin_fee_minor, total_minor,
        paid_minor, type, amendment_id, credit_for_id, payment_reference, created_by, checkout_key, billing_address,
        group_name, created_at, updated_at)
      SELECT lower(hex(randomblob(8))), ${number}, t.company_id, t.client_id, t.campus_id, 'issued',
        t.payment_method, t.currency, ${doc.today}, ${doc.today}, NULL, g.premium, g.tax, g.stamp, 0,
        g.premium + g.tax + g.stamp, 0, 'credit_note', ${X}, t.id, ${number} || '-' || upper(hex(randomblob(2))),
        ${doc.userId}, ${`amendment:${a.public_id}:credit_note:`} || t.id, t.billing_address, t.group_name,
        ${doc.ts}, ${doc.ts}
      FROM g JOIN invoices t ON t.id = g.invoice_id CROSS JOIN seq
      ORDER BY g.rn`),
    db.run(sql`UPDATE sequences SET value = value + (
        SELECT count(*) FROM invoices WHERE amendment_id = ${X} AND type = 'credit_note'
      ) WHERE name = ${CREDIT_NOTE_SERIES}`),
    db.run(sql`WITH ${alloc}
      INSERT INTO invoice_items (invoice_id, policy_id, description, quantity, unit_minor, tax_minor, total_minor,
        kind, tax_rate_bp, stamp_duty_minor, credits_item_id)
      SELECT ${noteOf(X, sql`a.invoice_id`)}, p.id, ${doc.description}, 1, a.premium, a.tax,
        a.premium + a.tax + a.stamp, 'adjustment', p.tax_rate_bp, a.stamp,
        (SELECT max(x.id) FROM invoice_items x WHERE x.invoice_id = a.invoice_id AND x.policy_id = p.id)
      FROM alloc a JOIN policies p ON p.id = a.policy_id JOIN products pr ON pr.id = p.product_id
        JOIN policy_amendment_lines l ON l.amendment_id = ${X} AND l.policy_id = p.id
      ORDER BY a.invoice_id, p.id`),
    settleInvoices(
      db,
      sql`x.id IN (SELECT id FROM invoices WHERE amendment_id = ${X}
        UNION SELECT credit_for_id FROM invoices WHERE amendment_id = ${X} AND credit_for_id IS NOT NULL)`,
      new Date(doc.ts),
    ),
  ];
}
