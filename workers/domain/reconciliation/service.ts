/**
 * Bank reconciliation: finance uploads a bank statement (CSV with its columns matched, or
 * camt.053 XML), its credits are matched to the company's invoices (match.ts), what is left is allocated
 * by hand or ignored, and confirming records one bank-transfer payment per allocation, once.
 *
 * - The file is kept in R2 as uploaded; the same file twice (SHA-256 per company) opens the first
 *   statement, so uploading a statement again records nothing more.
 * - A credit already recorded from another statement (same line_key) is shown as such and never recorded
 *   again: at matching and again inside the confirming batch.
 * - Confirming is one all-or-nothing batch: the payments (transactions.allocation_id is unique), the
 *   invoices settled, the lines recorded, the statement confirmed and the activity log with before and
 *   after; every statement of it holds only while the statement is under review, so a second confirm
 *   (double click, two tabs) changes nothing.
 * - Matching runs in the request: 2000 credits take well under a second (docs/decisions/billing.md).
 *
 * The statements list is statement-list.ts.
 *
 * Scope: statements through visibleBankStatements(actor); invoices through visibleInvoices(actor) and the
 * statement's company. Reading needs read_billing; anything that changes needs update_billing.
 *
 * This module reads statements (and holds what the others share); upload.ts uploads a statement and
 * matches its credits, review.ts allocates by hand, ignores and confirms.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import {
  bankAllocations,
  bankStatementLines,
  bankStatements,
  clients,
  invoices,
  users,
} from '../../../drizzle/schema';
import { inJson } from '../../platform/db';
import { requirePermission } from '../access/actor';
import { visibleBankStatements } from '../access/scope';
import type { ActorCtx } from '../context';
import { NotFound } from '../errors';
import { guessDateOrder } from '../imports/normalise';
import { countAll, paginate, type Page } from '../lists';
import { msg } from '../validation';
import { suggestCsvMapping } from './parse';
import {
  isCsvTarget,
  LINES_PAGE_SIZE,
  READ_PERMISSION,
  type CsvMapping,
  type DateOrder,
  type LineStatus,
  type LinesQuery,
  type StatementStatus,
} from './schema';

export type StatementRow = typeof bankStatements.$inferSelect;
export type LineRow = typeof bankStatementLines.$inferSelect;

/** Keys of the stored mapping that are not column indexes. */
export const DATE_ORDER_KEY = '$date_order';
export const CURRENCY_KEY = '$currency';

export interface StatementView {
  id: string;
  format: 'csv' | 'camt053';
  status: StatementStatus;
  file_name: string;
  file_size: number;
  currency: string | null;
  account: string | null;
  message: string | null;
  created_at: string;
  created_by: string | null;
  confirmed_at: string | null;
  /** How many credits are in each state. */
  counts: Record<LineStatus, number>;
  line_count: number;
  /** Per currency: all credits, what is allocated to invoices (to record or recorded), what is not. */
  totals: { currency: string; credits_minor: number; allocated_minor: number; unallocated_minor: number }[];
  /** CSV: the header row, a few rows, and the mapping (confirmed, else suggested). */
  headers: string[];
  sample: string[][];
  mapping: CsvMapping;
  date_order: DateOrder;
  file_currency: string | null;
}

export interface AllocationView {
  id: number;
  amount_minor: number;
  source: string;
  recorded: boolean;
  invoice: {
    id: string;
    number: string;
    client_id: string;
    client_name: string;
    currency: string;
    total_minor: number;
    balance_minor: number;
  };
}

export interface LineView {
  line_no: number;
  booking_date: string;
  amount_minor: number;
  currency: string;
  text: string;
  reference: string | null;
  counterparty: string | null;
  status: LineStatus;
  problem: string | null;
  allocated_minor: number;
  allocations: AllocationView[];
}

// ---------------------------------------------------------------- reading

/** A statement by public id in the actor's scope, else NotFound. */
export async function findStatement(ctx: ActorCtx, id: string, permission: string): Promise<StatementRow> {
  requirePermission(ctx.actor, permission);
  const [row] = await ctx.db
    .select()
    .from(bankStatements)
    .where(and(eq(bankStatements.public_id, id), visibleBankStatements(ctx.actor)))
    .limit(1);
  if (!row) throw new NotFound(msg('reconciliation.errors.not_found'));
  return row;
}

function storedMapping(row: StatementRow): {
  mapping: CsvMapping;
  date_order: DateOrder;
  currency: string | null;
} {
  const stored = row.mapping ?? {};
  const mapping: CsvMapping = {};
  for (const [k, v] of Object.entries(stored)) if (/^\d+$/.test(k)) mapping[k] = isCsvTarget(v) ? v : null;
  const order = stored[DATE_ORDER_KEY];
  return {
    mapping,
    date_order: order === 'mdy' || order === 'ymd' ? order : 'dmy',
    currency: stored[CURRENCY_KEY] ?? null,
  };
}

export async function present(ctx: ActorCtx, row: StatementRow): Promise<StatementView> {
  const [byStatus, totals, [author]] = await Promise.all([
    ctx.db
      .select({ status: bankStatementLines.status, n: sql<number>`count(*)` })
      .from(bankStatementLines)
      .where(eq(bankStatementLines.statement_id, row.id))
      .groupBy(bankStatementLines.status),
    ctx.db.all<{ currency: string; credits: number; allocated: number }>(sql`SELECT l.currency,
        sum(l.amount_minor) AS credits,
        coalesce(sum((SELECT sum(a.amount_minor) FROM bank_allocations a WHERE a.line_id = l.id
          AND l.status IN ('matched', 'allocated', 'recorded'))), 0) AS allocated
      FROM bank_statement_lines l WHERE l.statement_id = ${row.id} GROUP BY l.currency ORDER BY l.currency`),
    ctx.db
      .select({ first: users.first_name, last: users.last_name })
      .from(users)
      .where(eq(users.id, row.created_by)),
  ]);
  const counts = { unmatched: 0, matched: 0, allocated: 0, ignored: 0, recorded: 0 } as Record<
    LineStatus,
    number
  >;
  for (const s of byStatus) counts[s.status] = s.n;
  const stored = storedMapping(row);
  const mapping =
    row.format === 'csv' && !row.mapping && row.headers ? suggestCsvMapping(row.headers) : stored.mapping;
  const sample = row.sample ?? [];
  return {
    id: row.public_id,
    format: row.format,
    status: row.status,
    file_name: row.file_name,
    file_size: row.file_size,
    currency: row.currency,
    account: row.account,
    message: row.message,
    created_at: row.created_at.toISOString(),
    created_by: author ? `${author.first} ${author.last}`.trim() : null,
    confirmed_at: row.confirmed_at ? row.confirmed_at.toISOString() : null,
    counts,
    line_count: row.line_count,
    totals: totals.map((t) => ({
      currency: t.currency,
      credits_minor: t.credits,
      allocated_minor: t.allocated,
      unallocated_minor: t.credits - t.allocated,
    })),
    headers: row.headers ?? [],
    sample,
    mapping,
    date_order: row.mapping ? stored.date_order : (guessDateOrder(sample.flatMap((r) => r)) ?? 'dmy'),
    file_currency: stored.currency,
  };
}

/** One statement with its counts and totals. */
export async function getStatement(ctx: ActorCtx, id: string): Promise<StatementView> {
  return present(ctx, await findStatement(ctx, id, READ_PERMISSION));
}

/** The credits of a statement (50 a page, optionally of one state) with what each is allocated to. */
export async function statementLines(ctx: ActorCtx, id: string, q: LinesQuery): Promise<Page<LineView>> {
  const row = await findStatement(ctx, id, READ_PERMISSION);
  const where = and(
    eq(bankStatementLines.statement_id, row.id),
    q.status ? eq(bankStatementLines.status, q.status) : undefined,
  );
  const page = await paginate(
    ctx.db,
    { page: q.page, items: LINES_PAGE_SIZE },
    {
      rows: (limit, offset) =>
        ctx.db
          .select()
          .from(bankStatementLines)
          .where(where)
          .orderBy(asc(bankStatementLines.line_no))
          .limit(limit)
          .offset(offset),
      count: ctx.db.select({ total: countAll }).from(bankStatementLines).where(where),
    },
  );
  const allocations = await allocationsOf(
    ctx,
    page.items.map((l) => l.id),
  );
  return { items: page.items.map((l) => presentLine(l, allocations.get(l.id) ?? [])), meta: page.meta };
}

export function presentLine(l: LineRow, allocations: AllocationView[]): LineView {
  return {
    line_no: l.line_no,
    booking_date: l.booking_date,
    amount_minor: l.amount_minor,
    currency: l.currency,
    text: l.text,
    reference: l.reference,
    counterparty: l.counterparty,
    status: l.status,
    problem: l.problem,
    allocated_minor: allocations.reduce((s, a) => s + a.amount_minor, 0),
    allocations,
  };
}

export const balanceSql = sql<number>`(${invoices.total_minor} - ${invoices.paid_minor} + ${invoices.refunded_minor} - ${invoices.credited_minor})`;

export async function allocationsOf(
  ctx: ActorCtx,
  lineIds: number[],
): Promise<Map<number, AllocationView[]>> {
  const out = new Map<number, AllocationView[]>();
  if (!lineIds.length) return out;
  const rows = await ctx.db
    .select({
      id: bankAllocations.id,
      line_id: bankAllocations.line_id,
      amount_minor: bankAllocations.amount_minor,
      source: bankAllocations.source,
      transaction_id: bankAllocations.transaction_id,
      invoice_public_id: invoices.public_id,
      number: invoices.number,
      currency: invoices.currency,
      total_minor: invoices.total_minor,
      balance: balanceSql,
      client_public_id: clients.public_id,
      client_name: clients.name,
    })
    .from(bankAllocations)
    .innerJoin(invoices, eq(invoices.id, bankAllocations.invoice_id))
    .innerJoin(clients, eq(clients.id, invoices.client_id))
    .where(inJson(bankAllocations.line_id, lineIds))
    .orderBy(asc(bankAllocations.id));
  for (const r of rows) {
    const list = out.get(r.line_id) ?? [];
    list.push({
      id: r.id,
      amount_minor: r.amount_minor,
      source: r.source,
      recorded: r.transaction_id !== null,
      invoice: {
        id: r.invoice_public_id,
        number: r.number,
        client_id: r.client_public_id,
        client_name: r.client_name,
        currency: r.currency,
        total_minor: r.total_minor,
        balance_minor: r.balance,
      },
    });
    out.set(r.line_id, list);
  }
  return out;
}
