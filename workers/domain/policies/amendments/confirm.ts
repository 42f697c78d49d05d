/**
 * Applying a quoted amendment: ONE D1 batch (one transaction) of set-based statements, a dozen whatever
 * the number of policies, all or nothing.
 *
 * Its first statement is the guard: the amendment becomes `confirmed` only if it is still `quoted`, has no
 * line errors and every line's policy is still at the version it was priced on; otherwise it writes NULL
 * into the NOT NULL `policy_count`, which fails the batch and rolls everything back. D1 runs batches one
 * after another, so of two confirmations of the same policies (two people, two tabs) the second always
 * sees the first's result: the same amendment answers its result again, another one is `stale`.
 *
 * Then: one supplementary invoice per client and currency for the lines that charge an invoiced policy
 * (the `invoice` number series, as checkout's invoices), one credit note per invoice credited for the
 * lines that credit (a series of its own, CN0000001; credit-notes.ts), their items, a policy transaction per policy (before and after, the
 * differences, the tax rate, the new document version, the invoice), for a cancellation the removal of
 * the cancelled insureds as group leader of the others (a `group_leader` transaction each), and the
 * policies themselves (version + 1). A policy not yet invoiced (on account, periodic terms) is neither
 * charged nor credited on a document: its periodic invoice bills the premium the amendment left.
 */
import { and, eq, sql } from 'drizzle-orm';
import { policyAmendments, type PolicyTransactionKind } from '../../../../drizzle/schema';
import type { Env } from '../../../env';
import { runBatch, type DB, type Statement } from '../../../platform/db';
import { amendmentConfirmed } from '../../notifications/events';
import { formatMessage } from '../../../platform/i18n';
import { dueDate, paymentChoices, type PaymentTerms } from '../../checkout/terms';
import { Conflict, isDomainError } from '../../errors';
import { logActivityFrom, type LogActors } from '../../audit/activity-log';
import { failJob, reportProgress, type Job } from '../../jobs/service';
import { msg, todayIso } from '../../validation';
import { amendedPolicies, webhookEvents } from '../../webhooks/emit';
import { creditNoteStatements, policyCreditNote } from './credit-notes';

type AmendmentRow = typeof policyAmendments.$inferSelect;

export const INVOICE_SERIES = 'invoice';
export const CREDIT_NOTE_SERIES = 'credit_note';

const TRANSACTION_KIND: Record<AmendmentRow['kind'], PolicyTransactionKind> = {
  extend: 'extension',
  trip_dates: 'trip_dates',
  cancel: 'cancellation',
};

/** A line that charges on a supplementary invoice (SQL over `l` and `p`): the policy was invoiced. */
const charges = sql`l.premium_diff_minor > 0 AND p.invoice_id IS NOT NULL`;

/** How each client of the charged lines pays: its usual payment choice and the due date of its terms. */
async function payingTerms(db: DB, amendmentId: number, today: string) {
  const rows = await db.all<{
    client_id: number;
    payment_terms: PaymentTerms;
    payment_method: string;
    bank: number;
  }>(sql`SELECT c.id AS client_id, c.payment_terms, c.payment_method, max(cp.pay_with_bank_transfer) AS bank
    FROM policy_amendment_lines l JOIN policies p ON p.id = l.policy_id
      JOIN clients c ON c.id = p.client_id JOIN campuses cp ON cp.id = p.campus_id
    WHERE l.amendment_id = ${amendmentId} AND ${charges}
    GROUP BY c.id`);
  return rows.map((r) => [
    r.client_id,
    paymentChoices(r, !!Number(r.bank))[0],
    dueDate(r.payment_terms, today),
  ]);
}

/** The statements of the supplementary invoices, one per client and currency of the charged lines. */
function supplementaryStatements(
  db: DB,
  a: AmendmentRow,
  doc: { terms: unknown[][]; userId: number | null; today: string; ts: number },
): Statement[] {
  const number = sql`'INV' || printf('%07d', seq.value + g.rn)`;
  return [
    db.run(sql`WITH terms(client_id, method, due_at) AS (
        SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]')
        FROM json_each(${JSON.stringify(doc.terms)})),
      g AS (
        SELECT p.company_id, p.client_id, l.currency, sum(l.premium_diff_minor) AS premium,
          sum(l.tax_diff_minor) AS tax,
          CASE WHEN count(DISTINCT p.campus_id) = 1 THEN min(p.campus_id) END AS campus_id,
          row_number() OVER (ORDER BY p.client_id, l.currency) AS rn
        FROM policy_amendment_lines l JOIN policies p ON p.id = l.policy_id
        WHERE l.amendment_id = ${a.id} AND ${charges}
        GROUP BY p.company_id, p.client_id, l.currency),
      seq AS (SELECT value FROM sequences WHERE name = ${INVOICE_SERIES})
      INSERT INTO invoices (public_id, number, company_id, client_id, campus_id, status, payment_method, currency,
        date, due_at, paid_at, insurance_cost_minor, tax_minor, admin_fee_minor, total_minor, paid_minor, type,
        amendment_id, payment_reference, created_by, checkout_key, created_at, updated_at)
      SELECT lower(hex(randomblob(8))), ${number}, g.company_id, g.client_id, g.campus_id, 'unpaid', t.method,
        g.currency, ${doc.today}, t.due_at, NULL, g.premium, g.tax, 0, g.premium + g.tax, 0, 'supplementary', ${a.id},
        ${number} || '-' || upper(hex(randomblob(2))), ${doc.userId},
        ${`amendment:${a.public_id}:supplementary:`} || g.client_id || ':' || g.currency, ${doc.ts}, ${doc.ts}
      FROM g CROSS JOIN seq LEFT JOIN terms t ON t.client_id = g.client_id
      ORDER BY g.rn`),
    db.run(sql`UPDATE sequences SET value = value + (
        SELECT count(*) FROM invoices WHERE amendment_id = ${a.id} AND type = 'supplementary'
      ) WHERE name = ${INVOICE_SERIES}`),
  ];
}

/** The document of a line's money, as SQL over `l` and `p`: its supplementary invoice or credit note. */
const lineInvoice = (
  amendmentId: number,
) => sql`CASE WHEN l.premium_diff_minor < 0 THEN ${policyCreditNote(amendmentId)}
  WHEN ${charges} THEN (SELECT i.id FROM invoices i WHERE i.amendment_id = ${amendmentId}
    AND i.client_id = p.client_id AND i.currency = l.currency AND i.type = 'supplementary') END`;

/**
 * Every statement of the confirmation of `a`, guard first. `userId` is who confirms (the amendment's
 * confirmed_by, its documents' creator); `actors` who the activity log names (logActors: in a support
 * view the admin on behalf of the user).
 */
export async function confirmStatements(
  db: DB,
  a: AmendmentRow,
  userId: number | null,
  actors: LogActors,
  now: Date,
): Promise<Statement[]> {
  const today = todayIso(now);
  const ts = now.getTime();
  const X = a.id;
  const cancel = a.kind === 'cancel';
  const lines = sql`(SELECT policy_id FROM policy_amendment_lines WHERE amendment_id = ${X})`;
  const guard = sql`status = 'quoted' AND error_count = 0 AND NOT EXISTS (
      SELECT 1 FROM policy_amendment_lines l JOIN policies p ON p.id = l.policy_id
      WHERE l.amendment_id = ${X} AND p.version != l.policy_version)`;
  const statements: Statement[] = [
    db.run(
      sql`INSERT OR IGNORE INTO sequences (name, value) VALUES (${INVOICE_SERIES}, 0), (${CREDIT_NOTE_SERIES}, 0)`,
    ),
    db.run(sql`UPDATE policy_amendments SET policy_count = CASE WHEN ${guard} THEN policy_count END,
        status = 'confirmed', confirmed_at = ${ts}, confirmed_by = ${userId}, updated_at = ${ts}
      WHERE id = ${X}`),
  ];
  if (a.charge_minor > 0)
    statements.push(
      ...supplementaryStatements(db, a, { terms: await payingTerms(db, X, today), userId, today, ts }),
    );
  const range = (start: string, end: string) =>
    sql.raw(`strftime('%d/%m/%Y', ${start}) || ' - ' || strftime('%d/%m/%Y', ${end})`);
  const description = sql`pr.name || ' · ' || p.policy_number || ' · ' || p.first_name || ' ' || p.last_name || ' ('
    || ${range('l.old_start_date', 'l.old_end_date')} || ${
      cancel ? sql`', cancelled)'` : sql`' → ' || ${range('l.new_start_date', 'l.new_end_date')} || ')'`
    }`;
  if (a.credit_minor > 0) statements.push(...creditNoteStatements(db, a, { userId, today, ts, description }));
  statements.push(
    // Each line keeps its rate: the policy's own (a charge at the rate it was issued at). No stamp duty.
    db.run(sql`INSERT INTO invoice_items (invoice_id, policy_id, description, quantity, unit_minor, tax_minor, total_minor,
        kind, tax_rate_bp, stamp_duty_minor)
      SELECT ${lineInvoice(X)}, p.id, ${description}, 1, l.premium_diff_minor, l.tax_diff_minor,
        l.premium_diff_minor + l.tax_diff_minor, 'adjustment', p.tax_rate_bp, 0
      FROM policy_amendment_lines l JOIN policies p ON p.id = l.policy_id JOIN products pr ON pr.id = p.product_id
      WHERE l.amendment_id = ${X} AND ${charges}
      ORDER BY p.id`),
    db.run(sql`INSERT INTO policy_transactions (public_id, policy_id, company_id, client_id, kind, effective_date,
        before, after, premium_diff_minor, tax_diff_minor, tax_rate, currency, document_version, invoice_id,
        amendment_id, user_id, created_at)
      SELECT lower(hex(randomblob(8))), p.id, p.company_id, p.client_id, ${TRANSACTION_KIND[a.kind]}, ${today},
        json_object('status', p.status, 'start_date', l.old_start_date, 'end_date', l.old_end_date,
          'premium_minor', l.old_premium_minor, 'tax_minor', p.tax_minor),
        json_object('status', ${cancel ? 'cancelled' : sql`p.status`},
          'start_date', coalesce(l.new_start_date, l.old_start_date), 'end_date', coalesce(l.new_end_date, l.old_end_date),
          'premium_minor', l.new_premium_minor, 'tax_minor', p.tax_minor + l.tax_diff_minor
          ${cancel ? sql`, 'reason', ${a.reason}` : sql``}),
        l.premium_diff_minor, l.tax_diff_minor, l.tax_rate, l.currency, p.version + 1,
        ${lineInvoice(X)}, ${X}, ${userId}, ${ts}
      FROM policy_amendment_lines l JOIN policies p ON p.id = l.policy_id
      WHERE l.amendment_id = ${X}
      ORDER BY p.id`),
  );
  if (cancel) {
    const members = sql`g.group_leader_id IN ${lines} AND g.id NOT IN ${lines} AND g.status = 'issued'`;
    statements.push(
      db.run(sql`INSERT INTO policy_transactions (public_id, policy_id, company_id, client_id, kind, effective_date,
          before, after, premium_diff_minor, tax_diff_minor, tax_rate, currency, document_version, invoice_id,
          amendment_id, user_id, created_at)
        SELECT lower(hex(randomblob(8))), g.id, g.company_id, g.client_id, 'group_leader', ${today},
          json_object('group_leader_id', leader.public_id,
            'group_leader', leader.first_name || ' ' || leader.last_name),
          json_object('group_leader_id', NULL), 0, 0, NULL, g.currency, g.version + 1, NULL, ${X}, ${userId}, ${ts}
        FROM policies g JOIN policies leader ON leader.id = g.group_leader_id
        WHERE ${members}`),
      db.run(sql`UPDATE policies AS g SET group_leader_id = NULL, version = version + 1, updated_at = ${ts}
        WHERE ${members}`),
    );
  }
  statements.push(
    db.run(sql`UPDATE policies SET
        start_date = coalesce(l.new_start_date, policies.start_date),
        end_date = coalesce(l.new_end_date, policies.end_date),
        premium_minor = l.new_premium_minor,
        tax_minor = policies.tax_minor + l.tax_diff_minor,
        expiry_reminder_sent_at = CASE WHEN coalesce(l.new_end_date, policies.end_date) != policies.end_date
          THEN NULL ELSE policies.expiry_reminder_sent_at END,
        ${
          cancel
            ? sql`status = 'cancelled', net_minor = 0, cancelled_at = ${ts}, cancelled_by = ${userId},
                cancel_reason = ${a.reason},`
            : sql``
        }
        version = policies.version + 1, updated_at = ${ts}
      FROM policy_amendment_lines l
      WHERE l.policy_id = policies.id AND l.amendment_id = ${X}`),
    webhookEvents({ db, now }, cancel ? 'policy.cancelled' : 'policy.updated', amendedPolicies(X)),
    logActivityFrom(
      { db, now, actors },
      { entity_type: 'policy_amendment', action: 'confirmed' },
      sql`SELECT id AS entity_id, NULL AS before,
        json_object('kind', kind, 'policies', policy_count, 'charge_minor', charge_minor, 'credit_minor', credit_minor,
          'invoices', (SELECT json_group_array(number) FROM invoices WHERE amendment_id = ${X})) AS after,
        company_id, NULL AS client_id
      FROM policy_amendments WHERE id = ${X}`,
    ),
    ...(await amendmentConfirmed({ db, now }, a)),
  );
  return statements;
}

/**
 * Applies a quoted amendment once (see the file's comment). When the batch is refused: already confirmed
 * (another request got there first) returns quietly; a policy changed since the quote marks it `stale` and
 * answers 'the quote is out of date'; anything else answers 'Error Updating Insureds Trip Dates'.
 */
export async function applyAmendment(
  db: DB,
  a: AmendmentRow,
  userId: number | null,
  actors: LogActors,
  now: Date,
): Promise<void> {
  const statements = await confirmStatements(db, a, userId, actors, now);
  try {
    await runBatch(db, statements);
  } catch (e) {
    const [row] = await db
      .select({ status: policyAmendments.status })
      .from(policyAmendments)
      .where(eq(policyAmendments.id, a.id));
    if (row?.status === 'confirmed') return;
    const [{ n }] = await db.all<{ n: number }>(sql`SELECT count(*) AS n
      FROM policy_amendment_lines l JOIN policies p ON p.id = l.policy_id
      WHERE l.amendment_id = ${a.id} AND p.version != l.policy_version`);
    if (Number(n) > 0 || row?.status === 'stale') {
      await db
        .update(policyAmendments)
        .set({ status: 'stale', updated_at: now })
        .where(and(eq(policyAmendments.id, a.id), eq(policyAmendments.status, 'quoted')));
      throw new Conflict(msg('amendments.errors.stale'));
    }
    console.error('Amendment confirmation failed', e);
    throw new Conflict(msg('amendments.errors.failed'));
  }
}

/** The job of a large confirmation: the same one batch, outside the request; a refusal fails the job. */
export async function runConfirmJob(db: DB, _env: Env, job: Job): Promise<Record<string, unknown> | null> {
  const payload = job.payload as { amendment_id?: number; actors?: LogActors } | null;
  const id = Number(payload?.amendment_id);
  const [a] = await db.select().from(policyAmendments).where(eq(policyAmendments.id, id));
  if (!a) {
    await failJob(db, job.id, formatMessage(msg('amendments.errors.not_found')));
    return null;
  }
  let applyMs: number | null = null;
  if (a.status !== 'confirmed') {
    await reportProgress(db, job.id, { done: 0, total: a.policy_count });
    const started = Date.now();
    try {
      // Who the request that started the job would have logged (a support view's admin on behalf of
      // the user); a job from before that was recorded names its creator.
      const actors = payload?.actors ?? { actor_user_id: job.created_by, on_behalf_of_user_id: null };
      await applyAmendment(db, a, job.created_by, actors, new Date());
      applyMs = Date.now() - started;
    } catch (e) {
      if (!isDomainError(e)) throw e;
      await failJob(db, job.id, formatMessage(e.message));
      return null;
    }
  }
  await reportProgress(db, job.id, { done: a.policy_count, total: a.policy_count });
  // How long the one batch took (the amendment bench reads it).
  return { amendment: a.public_id, apply_ms: applyMs };
}
