/**
 * Issuing: the enrollments of confirmed policy batches become policies (spec 001 s.3 Insured / policy).
 *
 * The statements here run inside the checkout's one D1 batch (one transaction; see
 * workers/domain/checkout/service.ts), and are set-based: `INSERT ... SELECT` over the enrollments, so
 * 5000 applicants are a handful of statements whatever their number, never thousands of small inserts.
 *
 * - Policy ids are given explicitly (the current largest id + the row's place in the order), so a
 *   family member's `dependency_id` and an insured's `group_leader_id`, which point at enrollments, map
 *   to the new policies' ids in the same statement.
 * - Policy numbers come from the `policy` series of the `sequences` table: `P` and eight digits, in the
 *   order of the batches and the applicants' positions. The series advances in the same transaction, so
 *   numbers have no gaps and are never handed out twice.
 * - The premium, net cost, tax (and the rate it used) and stamp duty of each policy come from the fee of its trip length, recomputed with
 *   the batch's current price (fees.ts) by the caller and passed in as a table of (batch, days) rows.
 *   An enrollment whose trip length is not in that table (it changed after the fees were worked out)
 *   has no premium, which the NOT NULL constraint refuses: the whole checkout rolls back.
 * - Status is `issued`; whether it is active, not started or expired is derived from its dates.
 * - Each policy's first policy transaction, `issue`, is written in the same batch (set-based too), so
 *   every insured's Logs start with its issue.
 */
import { sql, type SQL } from 'drizzle-orm';
import { inJson, type DB, type Statement } from '../../platform/db';

/** One row of the fee table: the fee of a trip of `days` days in one batch. */
export interface FeeRow {
  batch_id: number;
  days: number;
  premium_minor: number;
  net_minor: number;
  tax_minor: number;
  /** The rate tax_minor used (basis points); null for a flat tax or none. */
  tax_rate_bp: number | null;
  stamp_duty_minor: number;
}

export const POLICY_SERIES = 'policy';
export const POLICY_NUMBER_DIGITS = 8;

/** Trip length in days, both ends included, as SQL over an enrollment's dates. */
export const TRIP_DAYS_SQL = (alias: string) =>
  sql.raw(`(CAST(julianday(${alias}.end_date) - julianday(${alias}.start_date) AS INTEGER) + 1)`);

/**
 * The fee table of a checkout as SQL rows (batch_id, days, premium, net, tax, stamp, rate): bound as one
 * JSON array and read with json_each, so a checkout of thousands of batches stays one short statement (D1
 * refuses a statement text over 100 KB, and binds at most 100 parameters).
 */
function feeRows(fees: readonly FeeRow[]): SQL {
  for (const f of fees)
    for (const v of [f.batch_id, f.days, f.premium_minor, f.net_minor, f.tax_minor, f.stamp_duty_minor])
      if (!Number.isSafeInteger(v)) throw new Error(`Not an integer: ${v}`);
  const rows = fees.map((f) => [
    f.batch_id,
    f.days,
    f.premium_minor,
    f.net_minor,
    f.tax_minor,
    f.stamp_duty_minor,
    f.tax_rate_bp,
  ]);
  return sql`SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'),
      json_extract(value, '$[3]'), json_extract(value, '$[4]'), json_extract(value, '$[5]'),
      json_extract(value, '$[6]')
    FROM json_each(${JSON.stringify(rows)})`;
}

/**
 * The statements that issue the policies of `batchIds` under the invoice whose checkout key is
 * `invoiceKey` (null: issued "on account", invoiced later by the periodic invoicing, periodic.ts): the
 * policies themselves, then the advance of the policy series, then each policy's `issue` transaction.
 * `guard`, when given, is checked per row: false writes a NULL status, which the table refuses.
 */
export function issuePolicyStatements(
  db: DB,
  input: {
    batchIds: readonly number[];
    invoiceKey: string | null;
    currency: string;
    fees: readonly FeeRow[];
    bookingDate: string;
    now: Date;
    userId: number | null;
    guard?: SQL;
  },
): Statement[] {
  const ofBatches = (column: string) => inJson(sql.raw(column), input.batchIds);
  const now = input.now.getTime();
  const invoiceId = input.invoiceKey
    ? sql`(SELECT id FROM invoices WHERE checkout_key = ${input.invoiceKey})`
    : sql`NULL`;
  const insert = sql`
    WITH fees(batch_id, days, premium, net, tax, stamp, rate) AS (${feeRows(input.fees)}),
    base AS (SELECT coalesce(max(id), 0) AS id FROM policies),
    seq AS (SELECT value FROM sequences WHERE name = ${POLICY_SERIES}),
    numbered AS (
      SELECT e.*, row_number() OVER (ORDER BY e.batch_id, e.position, e.id) AS rn
      FROM enrollments e WHERE ${ofBatches('e.batch_id')}
    )
    INSERT INTO policies (id, public_id, policy_number, company_id, client_id, campus_id, contract_id,
      product_id, batch_id, enrollment_id, invoice_id, type, first_name, last_name, date_of_birth, gender,
      email, personal_email, phone_country, phone_number, passport_number, residence_country_id,
      destination_country_id, start_date, end_date, destination_address, student_number, plan,
      year_of_study, group_name, group_leader_id, dependency_id, status, premium_minor, net_minor,
      tax_minor, tax_rate_bp, stamp_duty_minor, currency, booking_date, issued_at, created_at, updated_at)
    SELECT base.id + n.rn, lower(hex(randomblob(8))),
      'P' || printf('%0${sql.raw(String(POLICY_NUMBER_DIGITS))}d', seq.value + n.rn),
      b.company_id, b.client_id, b.campus_id, b.contract_id, c.product_id, n.batch_id, n.id,
      ${invoiceId},
      n.type, n.first_name, n.last_name, n.date_of_birth, n.gender, n.email, n.personal_email,
      n.phone_country, n.phone_number, n.passport_number, n.residence_country_id,
      n.destination_country_id, n.start_date, n.end_date, n.destination_address, n.student_number, n.plan,
      n.year_of_study, n.group_name, base.id + gl.rn, base.id + dep.rn,
      ${input.guard ? sql`CASE WHEN ${input.guard} THEN 'issued' END` : sql`'issued'`}, f.premium, f.net, f.tax,
      f.rate, f.stamp, ${input.currency}, ${input.bookingDate}, ${now}, ${now}, ${now}
    FROM numbered n
      JOIN policy_batches b ON b.id = n.batch_id
      JOIN contracts c ON c.id = b.contract_id
      CROSS JOIN base
      CROSS JOIN seq
      LEFT JOIN fees f ON f.batch_id = n.batch_id AND f.days = ${TRIP_DAYS_SQL('n')}
      LEFT JOIN numbered gl ON gl.id = n.group_leader_id
      LEFT JOIN numbered dep ON dep.id = n.dependency_id
    ORDER BY n.rn`;
  // The batches are issued once (the caller's guard), so their policies are the ones just written.
  const advance = sql`UPDATE sequences SET value = value + (
      SELECT count(*) FROM policies WHERE ${ofBatches('batch_id')}
    ) WHERE name = ${POLICY_SERIES}`;
  // Every policy's history starts with its issue (policy_transactions, append-only).
  const issued = sql`INSERT INTO policy_transactions (public_id, policy_id, company_id, client_id, kind,
      effective_date, before, after, premium_diff_minor, tax_diff_minor, tax_rate, currency, document_version,
      invoice_id, amendment_id, user_id, created_at)
    SELECT lower(hex(randomblob(8))), p.id, p.company_id, p.client_id, 'issue', ${input.bookingDate}, NULL,
      json_object('status', p.status, 'start_date', p.start_date, 'end_date', p.end_date,
        'premium_minor', p.premium_minor, 'tax_minor', p.tax_minor),
      p.premium_minor, p.tax_minor,
      CASE WHEN p.premium_minor > 0 THEN round(CAST(p.tax_minor AS REAL) / p.premium_minor, 6) END,
      p.currency, p.version, p.invoice_id, NULL, ${input.userId}, ${now}
    FROM policies p
    WHERE ${ofBatches('p.batch_id')}
    ORDER BY p.id`;
  return [db.run(insert), db.run(advance), db.run(issued)];
}
