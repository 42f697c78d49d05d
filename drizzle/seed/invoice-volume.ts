/**
 * Demo: a large school's many small invoices, so a person trying the portal can select more
 * than 200 invoices and watch the ZIP job's page (/invoices/downloads/{job}). Kingsbridge Language
 * Academy is invoiced every two weeks by group (its terms in drizzle/seed/clients.ts): ten groups over
 * the last twenty-two fortnights, 220 invoices of one line each (the group's students at a flat premium,
 * UK insurance premium tax at 20 %), all dated in the past. Those past their due date are paid by bank
 * transfer, but for a few left overdue; the last fortnights' are still open.
 *
 * Written as one batch of set-based statements (rows from json_each), so the seed stays fast; numbers
 * come from the invoice series. Run again, it finds its invoices and does nothing.
 */
import { sql } from 'drizzle-orm';
import type { DB } from '../../workers/platform/db';
import { runBatch } from '../../workers/platform/db';
import { settleInvoices } from '../../workers/domain/invoices/settle';
import { INVOICE_SERIES } from '../../workers/domain/policies/amendments/confirm';

const DAY = 86_400_000;
const iso = (t: number) => new Date(t).toISOString().slice(0, 10);

export const VOLUME_GROUPS = [
  'General English A',
  'General English B',
  'Exam Preparation',
  'Business English',
  'Academic Year',
  'Junior Summer',
  'Teen Explorers',
  'University Pathway',
  'Evening Conversation',
  'Intensive One-to-One',
] as const;
export const VOLUME_PERIODS = 22;
/** Premium per student and fortnight, pence; tax at the UK's higher IPT rate. */
const PREMIUM_PER_STUDENT = 1850;
const TAX_RATE_BP = 2000;

export async function seedInvoiceVolume(
  db: DB,
  input: { clientId: number; companyId: number; userId: number | null; now?: Date },
): Promise<{ invoices: number }> {
  const now = input.now ?? new Date();
  const today = iso(now.getTime());
  const ts = now.getTime();
  const [{ n: existing }] = await db.all<{ n: number }>(
    sql`SELECT count(*) AS n FROM invoices WHERE checkout_key LIKE 'demo-volume:%'`,
  );
  if (Number(existing)) return { invoices: 0 };

  // Oldest first, so the numbers follow the dates. Fortnight k ends k * 14 days before yesterday.
  const rows: Record<string, string | number | null>[] = [];
  for (let k = VOLUME_PERIODS - 1; k >= 0; k -= 1) {
    const to = now.getTime() - DAY - k * 14 * DAY;
    for (const [g, group] of VOLUME_GROUPS.entries()) {
      const i = rows.length;
      const students = 2 + ((i * 7 + g * 3) % 11);
      const premium = students * PREMIUM_PER_STUDENT;
      const tax = Math.round((premium * TAX_RATE_BP) / 10_000);
      const date = iso(to + DAY); // the day after the fortnight: never after today
      const due = iso(to + 31 * DAY);
      // Past due: paid 3 to 22 days after the invoice, but one in 37 left overdue.
      const paidOn = due < today && i % 37 !== 5 ? iso(Math.min(to + (4 + (i % 20)) * DAY, ts)) : null;
      rows.push({
        key: `demo-volume:${input.clientId}:${iso(to)}:${g}`,
        group,
        students,
        from: iso(to - 13 * DAY),
        to: iso(to),
        date,
        due,
        premium,
        tax,
        paid_on: paidOn,
        // The payment as recorded that morning (never after the seed ran).
        paid_ts: paidOn ? Math.min(Date.parse(`${paidOn}T10:00:00Z`), ts) : null,
      });
    }
  }
  const json = JSON.stringify(rows);
  await runBatch(db, [
    db.run(sql`INSERT OR IGNORE INTO sequences (name, value) VALUES (${INVOICE_SERIES}, 0)`),
    db.run(sql`INSERT INTO invoices (public_id, number, company_id, client_id, campus_id, status, payment_method,
        currency, date, due_at, insurance_cost_minor, tax_minor, admin_fee_minor, total_minor, paid_minor, type,
        payment_reference, created_by, checkout_key, period_from, period_to, group_name, created_at, updated_at)
      SELECT lower(hex(randomblob(8))), 'INV' || printf('%07d', s.value + j.key + 1), ${input.companyId},
        ${input.clientId}, NULL, 'unpaid', 'invoiced_directly', 'GBP', j.value ->> 'date', j.value ->> 'due',
        j.value ->> 'premium', j.value ->> 'tax', 0, (j.value ->> 'premium') + (j.value ->> 'tax'), 0, 'invoice',
        'INV' || printf('%07d', s.value + j.key + 1) || '-' || upper(hex(randomblob(2))), ${input.userId},
        j.value ->> 'key', j.value ->> 'from', j.value ->> 'to', j.value ->> 'group', ${ts}, ${ts}
      FROM json_each(${json}) AS j, sequences s WHERE s.name = ${INVOICE_SERIES} ORDER BY j.key`),
    db.run(sql`UPDATE sequences SET value = value + ${rows.length} WHERE name = ${INVOICE_SERIES}`),
    db.run(sql`INSERT INTO invoice_items (invoice_id, policy_id, description, quantity, unit_minor, tax_minor,
        total_minor, kind, tax_rate_bp, stamp_duty_minor)
      SELECT i.id, NULL, 'Student cover, ' || (j.value ->> 'group') || ', ' || (j.value ->> 'students')
          || ' students, ' || (j.value ->> 'from') || ' – ' || (j.value ->> 'to'),
        1, j.value ->> 'premium', j.value ->> 'tax', (j.value ->> 'premium') + (j.value ->> 'tax'), 'premium',
        ${TAX_RATE_BP}, 0
      FROM json_each(${json}) AS j JOIN invoices i ON i.checkout_key = j.value ->> 'key' ORDER BY i.id`),
    db.run(sql`INSERT INTO transactions (public_id, invoice_id, kind, gateway, status, identifier, amount_minor,
        currency, paid_on, user_id, method, note, created_at, updated_at)
      SELECT lower(hex(randomblob(8))), i.id, 'payment', 'bank_transfer', 'succeeded', i.payment_reference,
        i.total_minor, 'GBP', j.value ->> 'paid_on', ${input.userId}, 'bank_transfer', 'Demo data',
        j.value ->> 'paid_ts', j.value ->> 'paid_ts'
      FROM json_each(${json}) AS j JOIN invoices i ON i.checkout_key = j.value ->> 'key'
      WHERE j.value ->> 'paid_on' IS NOT NULL ORDER BY i.id`),
    settleInvoices(db, sql`x.checkout_key LIKE 'demo-volume:%'`, now),
  ]);
  return { invoices: rows.length };
}
