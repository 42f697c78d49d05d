/**
 * Bank reconciliation, a statement under review: allocating a credit to invoices by hand, removing an
 * allocation, ignoring a credit, and confirming, which records one bank-transfer payment per allocation
 * in one all-or-nothing batch. Every statement of the confirming batch holds only while the statement is
 * under review, so a second confirm (double click, two tabs) changes nothing.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import { bankAllocations, bankStatementLines, clients, invoices } from '../../../drizzle/schema';
import { publicIds } from '../../platform/crypto';
import { inJson, runBatch } from '../../platform/db';
import { visibleInvoices } from '../access/scope';
import { logActivity, logActivityFrom } from '../audit/activity-log';
import type { ActorCtx } from '../context';
import { Conflict, NotFound, ValidationFailed } from '../errors';
import { settleInvoices } from '../invoices/settle';
import { msg } from '../validation';
import { PROBLEMS } from './match';
import { READ_PERMISSION, RECONCILE_PERMISSION, type AllocationInput } from './schema';
import {
  allocationsOf,
  balanceSql,
  findStatement,
  getStatement,
  present,
  presentLine,
  type LineRow,
  type LineView,
  type StatementRow,
  type StatementView,
} from './service';

/** An amount for a message: 1234.50 GBP. */
const money = (minor: number, currency: string) => `${(minor / 100).toFixed(2)} ${currency}`;

// ---------------------------------------------------------------- allocation by hand

async function findLine(ctx: ActorCtx, row: StatementRow, lineNo: number): Promise<LineRow> {
  const [line] = await ctx.db
    .select()
    .from(bankStatementLines)
    .where(and(eq(bankStatementLines.statement_id, row.id), eq(bankStatementLines.line_no, lineNo)))
    .limit(1);
  if (!line) throw new NotFound(msg('reconciliation.errors.line_not_found'));
  return line;
}

function requireReview(row: StatementRow) {
  if (row.status === 'confirmed') throw new Conflict(msg('reconciliation.errors.confirmed'));
  if (row.status !== 'review') throw new Conflict(msg('reconciliation.errors.not_in_review'));
}

/** Sum of this statement's allocations still to record on an invoice (what its balance must cover). */
async function pendingOnInvoice(ctx: ActorCtx, statementId: number, invoiceId: number): Promise<number> {
  const [r] = await ctx.db.all<{ n: number }>(sql`SELECT coalesce(sum(a.amount_minor), 0) AS n
    FROM bank_allocations a JOIN bank_statement_lines l ON l.id = a.line_id
    WHERE l.statement_id = ${statementId} AND a.invoice_id = ${invoiceId} AND a.transaction_id IS NULL
      AND l.status IN ('matched', 'allocated')`);
  return r?.n ?? 0;
}

export interface AllocatableInvoice {
  id: string;
  number: string;
  client_id: string;
  client_name: string;
  currency: string;
  due_at: string;
  total_minor: number;
  /** The balance less what this statement already allocates to it. */
  available_minor: number;
}

/** Open invoices of the statement's company found by number, payment reference or client name. */
export async function findAllocatableInvoices(
  ctx: ActorCtx,
  id: string,
  search: string,
  currency?: string,
): Promise<AllocatableInvoice[]> {
  const row = await findStatement(ctx, id, READ_PERMISSION);
  const term = search.trim();
  if (!term) return [];
  const like = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = await ctx.db
    .select({
      id: invoices.id,
      public_id: invoices.public_id,
      number: invoices.number,
      client_id: clients.public_id,
      client_name: clients.name,
      currency: invoices.currency,
      due_at: invoices.due_at,
      total_minor: invoices.total_minor,
      balance: balanceSql,
    })
    .from(invoices)
    .innerJoin(clients, eq(clients.id, invoices.client_id))
    .where(
      and(
        eq(invoices.company_id, row.company_id),
        visibleInvoices(ctx.actor),
        sql`${invoices.type} <> 'credit_note' AND ${invoices.voided_at} IS NULL AND ${balanceSql} > 0`,
        currency ? eq(invoices.currency, currency) : undefined,
        sql`(${invoices.number} LIKE ${like} ESCAPE '\\' OR ${invoices.payment_reference} LIKE ${like} ESCAPE '\\'
          OR ${clients.name} LIKE ${like} ESCAPE '\\')`,
      ),
    )
    .orderBy(asc(invoices.due_at), asc(invoices.number))
    .limit(10);
  const pending = rows.length
    ? await ctx.db.all<{ invoice_id: number; n: number }>(sql`SELECT a.invoice_id, sum(a.amount_minor) AS n
        FROM bank_allocations a JOIN bank_statement_lines l ON l.id = a.line_id
        WHERE l.statement_id = ${row.id} AND a.transaction_id IS NULL AND l.status IN ('matched', 'allocated')
          AND ${inJson(
            sql`a.invoice_id`,
            rows.map((r) => r.id),
          )}
        GROUP BY a.invoice_id`)
    : [];
  const held = new Map(pending.map((p) => [p.invoice_id, p.n]));
  return rows.map((r) => ({
    id: r.public_id,
    number: r.number,
    client_id: r.client_id,
    client_name: r.client_name,
    currency: r.currency,
    due_at: r.due_at,
    total_minor: r.total_minor,
    available_minor: r.balance - (held.get(r.id) ?? 0),
  }));
}

/**
 * Allocates part (or all) of a credit to an invoice by hand: the invoice by its number or id, of the
 * statement's company and the credit's currency; never more than what is left of the credit, nor more
 * than the invoice's balance less what this statement already allocates to it.
 */
export async function addAllocation(
  ctx: ActorCtx,
  id: string,
  lineNo: number,
  input: AllocationInput,
): Promise<LineView> {
  const row = await findStatement(ctx, id, RECONCILE_PERMISSION);
  requireReview(row);
  const line = await findLine(ctx, row, lineNo);
  if (line.status === 'recorded') throw new Conflict(msg('reconciliation.errors.confirmed'));
  if (line.status === 'ignored')
    throw ValidationFailed.field('invoice', msg('reconciliation.errors.line_ignored'));
  const [invoice] = await ctx.db
    .select({
      id: invoices.id,
      number: invoices.number,
      currency: invoices.currency,
      type: invoices.type,
      voided_at: invoices.voided_at,
      client_id: invoices.client_id,
      balance: balanceSql,
    })
    .from(invoices)
    .where(
      and(
        eq(invoices.company_id, row.company_id),
        visibleInvoices(ctx.actor),
        sql`(${invoices.number} = ${input.invoice.toUpperCase()} OR ${invoices.public_id} = ${input.invoice})`,
      ),
    )
    .limit(1);
  if (!invoice || invoice.type === 'credit_note')
    throw ValidationFailed.field('invoice', msg('reconciliation.errors.invoice_not_found'));
  if (invoice.voided_at) throw ValidationFailed.field('invoice', msg('reconciliation.errors.invoice_void'));
  if (invoice.currency !== line.currency)
    throw ValidationFailed.field(
      'invoice',
      msg('reconciliation.errors.invoice_currency', { currency: invoice.currency }),
    );
  const [{ used }] = await ctx.db.all<{ used: number }>(sql`SELECT coalesce(sum(amount_minor), 0) AS used
    FROM bank_allocations WHERE line_id = ${line.id}`);
  const leftOfCredit = line.amount_minor - used;
  if (input.amount_minor > leftOfCredit)
    throw ValidationFailed.field(
      'amount_minor',
      msg('reconciliation.errors.more_than_credit', { amount: money(leftOfCredit, line.currency) }),
    );
  const available = invoice.balance - (await pendingOnInvoice(ctx, row.id, invoice.id));
  if (input.amount_minor > available)
    throw ValidationFailed.field(
      'amount_minor',
      msg('reconciliation.errors.more_than_balance', {
        amount: money(Math.max(0, available), line.currency),
      }),
    );
  const stamp = ctx.now.getTime();
  await runBatch(ctx.db, [
    ctx.db.run(sql`INSERT INTO bank_allocations (line_id, invoice_id, amount_minor, source, created_by,
        created_at, updated_at)
      SELECT ${line.id}, ${invoice.id}, ${input.amount_minor}, 'manual', ${ctx.actor.user_id}, ${stamp}, ${stamp}
      WHERE (SELECT status FROM bank_statements WHERE id = ${row.id}) = 'review'
        AND ${line.amount_minor} >= ${input.amount_minor}
          + (SELECT coalesce(sum(amount_minor), 0) FROM bank_allocations WHERE line_id = ${line.id})`),
    ctx.db.run(sql`UPDATE bank_statement_lines SET status = 'allocated', problem = NULL, updated_at = ${stamp}
      WHERE id = ${line.id} AND status IN ('unmatched', 'matched')
        AND EXISTS (SELECT 1 FROM bank_allocations WHERE line_id = ${line.id})`),
    logActivity(ctx, {
      entity_type: 'bank_statement',
      entity_id: row.id,
      action: 'allocated',
      after: { line_no: lineNo, invoice: invoice.number, amount_minor: input.amount_minor },
      company_id: row.company_id,
      client_id: invoice.client_id,
    }),
  ]);
  return lineView(ctx, row, lineNo);
}

async function lineView(ctx: ActorCtx, row: StatementRow, lineNo: number): Promise<LineView> {
  const line = await findLine(ctx, row, lineNo);
  return presentLine(line, (await allocationsOf(ctx, [line.id])).get(line.id) ?? []);
}

/** Takes an allocation (automatic or by hand) off a credit; a credit left with none is unmatched. */
export async function removeAllocation(ctx: ActorCtx, id: string, allocationId: number): Promise<LineView> {
  const row = await findStatement(ctx, id, RECONCILE_PERMISSION);
  requireReview(row);
  const [found] = await ctx.db
    .select({ allocation: bankAllocations, line_no: bankStatementLines.line_no })
    .from(bankAllocations)
    .innerJoin(bankStatementLines, eq(bankStatementLines.id, bankAllocations.line_id))
    .where(and(eq(bankAllocations.id, allocationId), eq(bankStatementLines.statement_id, row.id)))
    .limit(1);
  if (!found) throw new NotFound(msg('reconciliation.errors.allocation_not_found'));
  const a = found.allocation;
  if (a.transaction_id) throw new Conflict(msg('reconciliation.errors.confirmed'));
  const stamp = ctx.now.getTime();
  await runBatch(ctx.db, [
    ctx.db.run(sql`DELETE FROM bank_allocations WHERE id = ${a.id} AND transaction_id IS NULL
      AND (SELECT status FROM bank_statements WHERE id = ${row.id}) = 'review'`),
    ctx.db.run(sql`UPDATE bank_statement_lines SET
        status = CASE WHEN EXISTS (SELECT 1 FROM bank_allocations WHERE line_id = ${a.line_id})
          THEN 'allocated' ELSE 'unmatched' END,
        updated_at = ${stamp}
      WHERE id = ${a.line_id} AND status IN ('matched', 'allocated')`),
    logActivity(ctx, {
      entity_type: 'bank_statement',
      entity_id: row.id,
      action: 'allocation_removed',
      before: {
        line_no: found.line_no,
        invoice_id: a.invoice_id,
        amount_minor: a.amount_minor,
        source: a.source,
      },
      company_id: row.company_id,
    }),
  ]);
  return lineView(ctx, row, found.line_no);
}

/**
 * Ignores a credit (not a payment of an invoice: its allocations are dropped), or takes an ignored one
 * back into the review (unmatched). A credit already recorded from another statement stays ignored.
 */
export async function ignoreLine(
  ctx: ActorCtx,
  id: string,
  lineNo: number,
  ignored: boolean,
): Promise<LineView> {
  const row = await findStatement(ctx, id, RECONCILE_PERMISSION);
  requireReview(row);
  const line = await findLine(ctx, row, lineNo);
  if (line.problem === PROBLEMS.already_recorded)
    throw new Conflict(msg('reconciliation.errors.already_recorded'));
  const stamp = ctx.now.getTime();
  await runBatch(ctx.db, [
    ...(ignored ? [ctx.db.delete(bankAllocations).where(eq(bankAllocations.line_id, line.id))] : []),
    ctx.db
      .update(bankStatementLines)
      .set({ status: ignored ? 'ignored' : 'unmatched', problem: null, updated_at: new Date(stamp) })
      .where(
        and(
          eq(bankStatementLines.id, line.id),
          ignored
            ? inJson(bankStatementLines.status, ['unmatched', 'matched', 'allocated'])
            : eq(bankStatementLines.status, 'ignored'),
        ),
      ),
    logActivity(ctx, {
      entity_type: 'bank_statement',
      entity_id: row.id,
      action: ignored ? 'line_ignored' : 'line_restored',
      before: { line_no: lineNo, status: line.status },
      after: { line_no: lineNo, status: ignored ? 'ignored' : 'unmatched' },
      company_id: row.company_id,
    }),
  ]);
  return lineView(ctx, row, lineNo);
}

// ---------------------------------------------------------------- confirm

/**
 * Confirms a statement: one bank-transfer payment per allocation of its matched and allocated credits,
 * paid on the booking date (an invoice's pending bank transfer, started by the school, is approved by its
 * first credit rather than paid a second time), the invoices settled, the credits recorded and the statement confirmed, in
 * one batch. An allocation above what its invoice still owes (paid meanwhile) refuses the whole. A
 * confirmed statement answers as it is: nothing is recorded twice.
 */
export async function confirmStatement(ctx: ActorCtx, id: string): Promise<StatementView> {
  const row = await findStatement(ctx, id, RECONCILE_PERMISSION);
  if (row.status === 'confirmed') return present(ctx, row);
  requireReview(row);
  const pending = await ctx.db.all<{
    allocation_id: number;
    invoice_id: number;
    amount_minor: number;
    number: string;
    balance: number;
    status: string;
    paid_minor: number;
    paid_at: string | null;
    company_id: number;
    client_id: number;
  }>(sql`SELECT a.id AS allocation_id, a.invoice_id, a.amount_minor, i.number,
      i.total_minor - i.paid_minor + i.refunded_minor - i.credited_minor AS balance,
      i.status, i.paid_minor, i.paid_at, i.company_id, i.client_id
    FROM bank_allocations a JOIN bank_statement_lines l ON l.id = a.line_id JOIN invoices i ON i.id = a.invoice_id
    WHERE l.statement_id = ${row.id} AND l.status IN ('matched', 'allocated') AND a.transaction_id IS NULL
      AND NOT EXISTS (SELECT 1 FROM bank_statement_lines o WHERE o.company_id = l.company_id
        AND o.line_key = l.line_key AND o.status = 'recorded' AND o.id <> l.id)`);
  const owed = new Map<number, { number: string; balance: number; sum: number }>();
  for (const p of pending) {
    const o = owed.get(p.invoice_id) ?? { number: p.number, balance: p.balance, sum: 0 };
    o.sum += p.amount_minor;
    owed.set(p.invoice_id, o);
  }
  const over = [...owed.values()].filter((o) => o.sum > o.balance).map((o) => o.number);
  if (over.length)
    throw new Conflict(msg('reconciliation.errors.balance_changed', { numbers: over.sort().join(', ') }));

  const ids = publicIds(pending.length);
  const payments = pending.map((p, i) => [p.allocation_id, ids[i]]);
  const before: Record<string, unknown> = {};
  for (const p of pending)
    before[String(p.invoice_id)] = { status: p.status, paid_minor: p.paid_minor, paid_at: p.paid_at };
  const invoiceIds = [...owed.keys()];
  const stamp = ctx.now.getTime();
  const inReview = sql`(SELECT status FROM bank_statements WHERE id = ${row.id}) = 'review'`;
  await runBatch(ctx.db, [
    // A credit another statement recorded meanwhile is not recorded again.
    ctx.db.run(sql`UPDATE bank_statement_lines SET status = 'ignored', problem = ${PROBLEMS.already_recorded},
        updated_at = ${stamp}
      WHERE statement_id = ${row.id} AND status IN ('matched', 'allocated') AND ${inReview}
        AND EXISTS (SELECT 1 FROM bank_statement_lines o WHERE o.company_id = bank_statement_lines.company_id
          AND o.line_key = bank_statement_lines.line_key AND o.status = 'recorded' AND o.id <> bank_statement_lines.id)`),
    // The school said it paid by transfer (a pending bank transfer): its invoice's first credit approves
    // that transaction, with the statement's date and amount, instead of recording a second payment. The
    // insert below then skips that allocation (allocation_id is unique).
    ctx.db.run(sql`UPDATE OR IGNORE transactions SET status = 'succeeded', gateway_status = 'approved',
        amount_minor = a.amount_minor, paid_on = l.booking_date, user_id = ${ctx.actor.user_id},
        method = 'bank_transfer', allocation_id = a.id,
        extra = json_patch(coalesce(transactions.extra, '{}'), json_object('bank_statement', ${row.public_id},
          'line_no', l.line_no, 'source', a.source, 'approved_pending', json('true'))),
        note = coalesce(transactions.note,
          substr(trim(coalesce(l.counterparty, '') || ' ' || l.text), 1, 500)),
        updated_at = ${stamp}
      FROM bank_allocations a JOIN bank_statement_lines l ON l.id = a.line_id
      WHERE ${inReview} AND l.status IN ('matched', 'allocated') AND a.invoice_id = transactions.invoice_id
        AND a.id = (SELECT min(b.id) FROM json_each(${JSON.stringify(payments)}) AS j
          JOIN bank_allocations b ON b.id = j.value ->> 0 WHERE b.invoice_id = transactions.invoice_id)
        AND transactions.id = (SELECT min(p.id) FROM transactions p WHERE p.invoice_id = transactions.invoice_id
          AND p.gateway = 'bank_transfer' AND p.kind = 'payment' AND p.status = 'pending')`),
    ctx.db.run(sql`INSERT OR IGNORE INTO transactions (public_id, invoice_id, kind, gateway, status,
        gateway_status, amount_minor, currency, paid_on, extra, user_id, method, note, allocation_id,
        created_at, updated_at)
      SELECT j.value ->> 1, a.invoice_id, 'payment', 'bank_transfer', 'succeeded', 'reconciled', a.amount_minor,
        l.currency, l.booking_date,
        json_object('bank_statement', ${row.public_id}, 'line_no', l.line_no, 'source', a.source),
        ${ctx.actor.user_id}, 'bank_transfer', substr(trim(coalesce(l.counterparty, '') || ' ' || l.text), 1, 500),
        a.id, ${stamp}, ${stamp}
      FROM json_each(${JSON.stringify(payments)}) AS j
      CROSS JOIN bank_allocations a ON a.id = j.value ->> 0
      JOIN bank_statement_lines l ON l.id = a.line_id
      WHERE ${inReview} AND l.status IN ('matched', 'allocated')`),
    ctx.db.run(sql`UPDATE bank_allocations SET transaction_id =
        (SELECT t.id FROM transactions t WHERE t.allocation_id = bank_allocations.id), updated_at = ${stamp}
      WHERE transaction_id IS NULL AND ${inReview}
        AND line_id IN (SELECT id FROM bank_statement_lines WHERE statement_id = ${row.id})
        AND EXISTS (SELECT 1 FROM transactions t WHERE t.allocation_id = bank_allocations.id)`),
    settleInvoices(ctx.db, sql`${inJson(sql`x.id`, invoiceIds)} AND ${inReview}`, ctx.now),
    logActivityFrom(
      ctx,
      { entity_type: 'invoice', action: 'payment_reconciled' },
      sql`SELECT i.id AS entity_id, json_extract(${JSON.stringify(before)}, '$."' || i.id || '"') AS before,
          json_object('status', i.status, 'paid_minor', i.paid_minor, 'paid_at', i.paid_at,
            'bank_statement', ${row.public_id},
            'amount_minor', (SELECT sum(t.amount_minor) FROM transactions t JOIN bank_allocations a
              ON a.id = t.allocation_id JOIN bank_statement_lines l ON l.id = a.line_id
              WHERE t.invoice_id = i.id AND l.statement_id = ${row.id})) AS after,
          i.company_id AS company_id, i.client_id AS client_id
        FROM invoices i WHERE ${inJson(sql`i.id`, invoiceIds)} AND ${inReview}`,
    ),
    ctx.db.run(sql`UPDATE bank_statement_lines SET status = 'recorded', updated_at = ${stamp}
      WHERE statement_id = ${row.id} AND status IN ('matched', 'allocated') AND ${inReview}
        AND EXISTS (SELECT 1 FROM bank_allocations a WHERE a.line_id = bank_statement_lines.id
          AND a.transaction_id IS NOT NULL)`),
    logActivityFrom(
      ctx,
      { entity_type: 'bank_statement', action: 'confirmed' },
      sql`SELECT ${row.id} AS entity_id, json_object('status', 'review') AS before,
          json_object('status', 'confirmed', 'recorded_count',
            (SELECT count(*) FROM bank_statement_lines WHERE statement_id = ${row.id} AND status = 'recorded'),
            'payments', ${pending.length}) AS after,
          ${row.company_id} AS company_id, NULL AS client_id
        WHERE ${inReview}`,
    ),
    ctx.db.run(sql`UPDATE bank_statements SET status = 'confirmed', confirmed_at = ${stamp},
        confirmed_by = ${ctx.actor.user_id}, updated_at = ${stamp},
        recorded_count = (SELECT count(*) FROM bank_statement_lines WHERE statement_id = ${row.id}
          AND status = 'recorded')
      WHERE id = ${row.id} AND status = 'review'`),
  ]);
  return getStatement(ctx, id);
}
