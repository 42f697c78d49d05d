/**
 * Demo billing: invoices for the demo policies that have none, one per client, campus,
 * currency and month of issue (numbers from the invoice series, in date order), each policy a line at the
 * tax rate it was charged (its tax over its premium, in basis points); then, deterministically by the
 * invoice's position, what happened to them over the last twelve months: most older invoices paid (by
 * card or bank transfer), some part paid, some left overdue, and the newest unpaid one voided. Credit
 * notes follow the model of docs/decisions/billing.md ("Credit notes and refunds: the model"): each
 * invoice billing cancelled policies gets one credit note against it for their lines (lowering what it
 * owes, or left on the account when it was paid), and the credit of the first paid invoice so credited is
 * refunded (its credit note's money given back); without cancelled policies, the first paid invoice's
 * first line is credited and refunded. Every invoice is then settled by the one statement
 * (workers/domain/invoices/settle.ts). Run again, it finds nothing to do.
 *
 * Called from drizzle/seed/demo.ts after the policies. Other billing seeds (reconciliation, summary)
 * run after it and read what is there.
 */
import { sql } from 'drizzle-orm';
import type { DB, Statement } from '../../workers/platform/db';
import { inJson, runBatch } from '../../workers/platform/db';
import { settleInvoices } from '../../workers/domain/invoices/settle';
import { CREDIT_NOTE_SERIES, INVOICE_SERIES } from '../../workers/domain/policies/amendments/confirm';

const DAY = 86_400_000;
const iso = (t: number) => new Date(t).toISOString().slice(0, 10);

export async function seedBilling(db: DB, input: { userId: number | null; now?: Date }) {
  const now = input.now ?? new Date();
  const today = iso(now.getTime());
  const ts = now.getTime();
  // 1. One invoice per client, campus, currency and month of issue, for the policies without one.
  const groups = await db.all<{ n: number }>(
    sql`SELECT count(*) AS n FROM policies WHERE invoice_id IS NULL`,
  );
  if (!Number(groups[0]?.n)) return { invoices: 0 };
  await runBatch(db, [
    db.run(
      sql`INSERT OR IGNORE INTO sequences (name, value) VALUES (${INVOICE_SERIES}, 0), (${CREDIT_NOTE_SERIES}, 0)`,
    ),
    db.run(sql`WITH g AS (
        SELECT company_id, client_id, campus_id, currency,
          strftime('%Y-%m', issued_at / 1000, 'unixepoch') AS month,
          min(min(date(issued_at / 1000, 'unixepoch')), ${today}) AS day, -- never after today
          sum(premium_minor) AS premium, sum(tax_minor) AS tax,
          row_number() OVER (ORDER BY min(issued_at), campus_id, currency) AS rn
        FROM policies WHERE invoice_id IS NULL
        GROUP BY company_id, client_id, campus_id, currency, month),
      seq AS (SELECT value FROM sequences WHERE name = ${INVOICE_SERIES})
      INSERT INTO invoices (public_id, number, company_id, client_id, campus_id, status, payment_method, currency,
        date, due_at, insurance_cost_minor, tax_minor, admin_fee_minor, total_minor, paid_minor, type,
        payment_reference, created_by, checkout_key, period_from, period_to, created_at, updated_at)
      SELECT lower(hex(randomblob(8))), 'INV' || printf('%07d', seq.value + g.rn), g.company_id, g.client_id,
        g.campus_id, 'unpaid',
        CASE g.rn % 3 WHEN 0 THEN 'credit_card' WHEN 1 THEN 'invoiced_directly' ELSE 'bank_transfer' END,
        g.currency, g.day, date(g.day, '+30 days'), g.premium, g.tax, 0, g.premium + g.tax, 0, 'invoice',
        'INV' || printf('%07d', seq.value + g.rn) || '-' || upper(hex(randomblob(2))), ${input.userId},
        'demo-billing:' || g.client_id || ':' || coalesce(g.campus_id, 0) || ':' || g.currency || ':' || g.month,
        g.month || '-01', date(g.month || '-01', '+1 month', '-1 day'), ${ts}, ${ts}
      FROM g CROSS JOIN seq ORDER BY g.rn`),
    db.run(sql`UPDATE sequences SET value = value + (SELECT count(*) FROM invoices
        WHERE checkout_key LIKE 'demo-billing:%' AND created_at = ${ts}) WHERE name = ${INVOICE_SERIES}`),
    db.run(sql`UPDATE policies SET invoice_id = (SELECT i.id FROM invoices i
        WHERE i.checkout_key = 'demo-billing:' || policies.client_id || ':' || coalesce(policies.campus_id, 0)
          || ':' || policies.currency || ':' || strftime('%Y-%m', policies.issued_at / 1000, 'unixepoch'))
      WHERE invoice_id IS NULL`),
    db.run(sql`INSERT INTO invoice_items (invoice_id, policy_id, description, quantity, unit_minor, tax_minor,
        total_minor, kind, tax_rate_bp, stamp_duty_minor)
      SELECT p.invoice_id, p.id, coalesce((SELECT pr.name FROM products pr WHERE pr.id = p.product_id), 'Insurance')
        || ' ' || p.start_date || ' – ' || p.end_date, 1,
        p.premium_minor, p.tax_minor, p.premium_minor + p.tax_minor, 'premium',
        CASE WHEN p.premium_minor > 0 THEN CAST(round(p.tax_minor * 10000.0 / p.premium_minor) AS INTEGER) END, 0
      FROM policies p JOIN invoices i ON i.id = p.invoice_id
      WHERE i.checkout_key LIKE 'demo-billing:%'
        AND NOT EXISTS (SELECT 1 FROM invoice_items x WHERE x.invoice_id = p.invoice_id AND x.policy_id = p.id)
      ORDER BY p.invoice_id, p.id`),
  ]);

  // 2. What happened to them: decided by position (deterministic), written in one batch, then settled.
  const rows = await db.all<{
    id: number;
    public_id: string;
    number: string;
    date: string;
    due_at: string;
    total_minor: number;
    currency: string;
    payment_method: string;
    payment_reference: string;
    company_id: number;
    client_id: number;
  }>(sql`SELECT id, public_id, number, date, due_at, total_minor, currency, payment_method, payment_reference,
      company_id, client_id
    FROM invoices WHERE checkout_key LIKE 'demo-billing:%' AND paid_minor = 0 AND voided_at IS NULL
      AND NOT EXISTS (SELECT 1 FROM transactions t WHERE t.invoice_id = invoices.id)
    ORDER BY date, id`);
  const statements: Statement[] = [];
  const pay = (
    r: (typeof rows)[number],
    amount: number,
    on: string,
    kind: 'payment' | 'refund' = 'payment',
    gateway: 'barclaycard' | 'bank_transfer' = r.payment_method === 'credit_card'
      ? 'barclaycard'
      : 'bank_transfer',
  ) =>
    statements.push(
      db.run(sql`INSERT INTO transactions (public_id, invoice_id, kind, gateway, status, identifier, amount_minor,
          currency, paid_on, user_id, method, note, created_at, updated_at)
        VALUES (lower(hex(randomblob(8))), ${r.id}, ${kind}, ${gateway}, 'succeeded',
          ${gateway === 'bank_transfer' ? r.payment_reference : `DEMO-${r.number}-${kind}`}, ${amount}, ${r.currency},
          ${on}, ${input.userId}, ${gateway === 'bank_transfer' ? 'bank_transfer' : 'card'}, 'Demo data',
          ${Date.parse(`${on}T10:00:00Z`)}, ${Date.parse(`${on}T10:00:00Z`)})`),
    );
  const days = (from: string, n: number) => {
    const t = Date.parse(`${from}T00:00:00Z`) + n * DAY;
    return t > now.getTime() ? today : iso(t);
  };
  const paid = new Map<number, string>();
  const partPaid = new Set<number>();
  const old = rows.filter((r) => r.due_at < today);
  for (const [n, r] of old.entries()) {
    if (n % 6 === 5) continue; // left overdue
    if (n % 6 === 2) {
      pay(r, Math.round(r.total_minor / 2), days(r.date, 20)); // part paid, the rest overdue
      partPaid.add(r.id);
      continue;
    }
    pay(r, r.total_minor, days(r.date, 5 + (n % 20)));
    paid.set(r.id, days(r.date, 5 + (n % 20)));
  }
  // Credit notes: the lines of cancelled policies, one note per invoice, dated when the first of them was
  // cancelled (not before the invoice, never after today); without any, the first paid invoice's first line.
  const cancelled = await db.all<{ invoice_id: number; item_ids: string; total: number; on: string }>(sql`
    SELECT x.invoice_id, json_group_array(x.id) AS item_ids, sum(x.total_minor) AS total,
      min(date(min(p.cancelled_at) / 1000, 'unixepoch'), ${today}) AS "on"
    FROM invoice_items x JOIN policies p ON p.id = x.policy_id JOIN invoices i ON i.id = x.invoice_id
    WHERE i.checkout_key LIKE 'demo-billing:%' AND p.status = 'cancelled'
      AND NOT EXISTS (SELECT 1 FROM invoice_items c WHERE c.credits_item_id = x.id)
    GROUP BY x.invoice_id ORDER BY x.invoice_id`);
  const notes = cancelled.map((c) => {
    const r = rows.find((x) => x.id === Number(c.invoice_id));
    return { r, ids: JSON.parse(c.item_ids) as number[], total: Number(c.total), on: c.on };
  });
  const firstPaid = rows.find((r) => paid.has(r.id));
  if (!notes.some((n) => n.r && paid.has(n.r.id)) && firstPaid) {
    const [line] = await db.all<{ id: number; total_minor: number }>(
      sql`SELECT id, total_minor FROM invoice_items WHERE invoice_id = ${firstPaid.id} ORDER BY id LIMIT 1`,
    );
    if (line) notes.push({ r: firstPaid, ids: [line.id], total: Number(line.total_minor), on: '' });
  }
  let refunded = false;
  for (const note of notes) {
    const r = note.r;
    if (!r) continue;
    const on = note.on && note.on > r.date ? note.on : days(r.date, 10);
    const key = `demo-billing-credit:${r.id}`;
    const cn = sql`'CN' || printf('%07d', (SELECT value FROM sequences WHERE name = ${CREDIT_NOTE_SERIES}))`;
    statements.push(
      db.run(sql`UPDATE sequences SET value = value + 1 WHERE name = ${CREDIT_NOTE_SERIES}`),
      db.run(sql`INSERT INTO invoices (public_id, number, company_id, client_id, campus_id, status, payment_method,
          currency, date, due_at, paid_at, insurance_cost_minor, tax_minor, stamp_duty_minor, admin_fee_minor,
          total_minor, paid_minor, type, payment_reference, created_by, credit_for_id, checkout_key, billing_address,
          created_at, updated_at)
        SELECT lower(hex(randomblob(8))), ${cn}, i.company_id, i.client_id, i.campus_id, 'issued', i.payment_method,
          i.currency, ${on}, ${on}, NULL, sum(x.unit_minor * x.quantity), sum(x.tax_minor), sum(x.stamp_duty_minor), 0,
          sum(x.total_minor), 0, 'credit_note', ${cn} || '-DEMO', ${input.userId}, i.id, ${key}, i.billing_address,
          ${ts}, ${ts}
        FROM invoices i JOIN invoice_items x ON x.invoice_id = i.id
        WHERE i.id = ${r.id} AND ${inJson(sql`x.id`, note.ids)}
        GROUP BY i.id`),
      db.run(sql`INSERT INTO invoice_items (invoice_id, policy_id, description, quantity, unit_minor, tax_minor,
          total_minor, kind, tax_rate_bp, stamp_duty_minor, credits_item_id)
        SELECT (SELECT id FROM invoices WHERE checkout_key = ${key}), policy_id, description, quantity, unit_minor,
          tax_minor, total_minor, kind, tax_rate_bp, stamp_duty_minor, id
        FROM invoice_items WHERE invoice_id = ${r.id} AND ${inJson(sql`id`, note.ids)} ORDER BY id`),
    );
    // The first paid invoice so credited gives the credit back: a refund that goes with its credit note.
    if (!refunded && paid.has(r.id)) {
      refunded = true;
      const after = [on, paid.get(r.id) ?? on].sort().at(-1)!;
      pay(r, note.total, days(after, 3), 'refund');
    }
  }
  const credited = notes.length > 0;
  // The newest invoice with nothing paid is voided (raised by mistake).
  // (Not one with a credit note or a payment: voiding is for an invoice nothing happened to.)
  const newest = rows
    .filter((r) => !paid.has(r.id) && !partPaid.has(r.id) && !notes.some((n) => n.r?.id === r.id))
    .at(-1);
  if (newest)
    statements.push(
      db.run(sql`UPDATE invoices SET voided_at = ${ts}, voided_by = ${input.userId},
          void_reason = 'Raised twice by mistake (demo)' WHERE id = ${newest.id}`),
    );
  statements.push(settleInvoices(db, sql`x.checkout_key LIKE 'demo-billing%'`, now));
  await runBatch(db, statements);
  return { invoices: rows.length, refunded, credited };
}
