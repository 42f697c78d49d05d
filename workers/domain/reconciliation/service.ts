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
 * Scope: statements through visibleBankStatements(actor); invoices through visibleInvoices(actor) and the
 * statement's company. Reading needs read_billing; anything that changes needs update_billing.
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import {
  bankAllocations,
  bankStatementLines,
  bankStatements,
  clients,
  invoices,
  users,
} from '../../../drizzle/schema';
import { publicId, publicIds, toHex } from '../../platform/crypto';
import { runBatch, type Statement } from '../../platform/db';
import { checkUpload, cleanFileName, fileKey, getFile } from '../../platform/storage';
import { requirePermission } from '../access/actor';
import { visibleBankStatements, visibleCompanyIds, visibleInvoices } from '../access/scope';
import { logActivity, logActivityFrom } from '../audit/activity-log';
import type { ActorCtx } from '../context';
import { Conflict, NotFound, ValidationFailed } from '../errors';
import { CsvError, decodeText, parseCsv } from '../imports/csv';
import { guessDateOrder } from '../imports/normalise';
import { settleInvoices } from '../invoices/settle';
import { meta, type Page } from '../list-query';
import { msg, todayIso } from '../validation';
import { indexCandidates, matchLine, PROBLEMS, tokensOf, type Candidate } from './match';
import {
  lineKeys,
  looksLikeXml,
  readCamt053,
  readCsvStatement,
  StatementError,
  suggestCsvMapping,
  type ParsedStatement,
} from './parse';
import {
  isCsvTarget,
  LINES_PAGE_SIZE,
  MAX_LINES,
  MAX_STATEMENT_MB,
  READ_PERMISSION,
  RECONCILE_PERMISSION,
  SAMPLE_ROWS,
  type AllocationInput,
  type CsvMapping,
  type DateOrder,
  type LineStatus,
  type LinesQuery,
  type StatementMappingInput,
  type StatementStatus,
} from './schema';

type StatementRow = typeof bankStatements.$inferSelect;
type LineRow = typeof bankStatementLines.$inferSelect;

/** An amount for a message: 1234.50 GBP. */
const money = (minor: number, currency: string) => `${(minor / 100).toFixed(2)} ${currency}`;
/** Keys of the stored mapping that are not column indexes. */
const DATE_ORDER_KEY = '$date_order';
const CURRENCY_KEY = '$currency';

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
async function findStatement(ctx: ActorCtx, id: string, permission: string): Promise<StatementRow> {
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

async function present(ctx: ActorCtx, row: StatementRow): Promise<StatementView> {
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
  const [lines, [{ total }]] = await Promise.all([
    ctx.db
      .select()
      .from(bankStatementLines)
      .where(where)
      .orderBy(asc(bankStatementLines.line_no))
      .limit(LINES_PAGE_SIZE)
      .offset((q.page - 1) * LINES_PAGE_SIZE),
    ctx.db
      .select({ total: sql<number>`count(*)` })
      .from(bankStatementLines)
      .where(where),
  ]);
  const allocations = await allocationsOf(
    ctx,
    lines.map((l) => l.id),
  );
  return {
    items: lines.map((l) => presentLine(l, allocations.get(l.id) ?? [])),
    meta: meta(total, q.page, LINES_PAGE_SIZE, lines.length),
  };
}

function presentLine(l: LineRow, allocations: AllocationView[]): LineView {
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

const balanceSql = sql<number>`(${invoices.total_minor} - ${invoices.paid_minor} + ${invoices.refunded_minor} - ${invoices.credited_minor})`;

async function allocationsOf(ctx: ActorCtx, lineIds: number[]): Promise<Map<number, AllocationView[]>> {
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
    .where(sql`${bankAllocations.line_id} IN (SELECT value FROM json_each(${JSON.stringify(lineIds)}))`)
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

// ---------------------------------------------------------------- upload

/** The company a new statement belongs to: the one in view (the top bar), or the only one. */
function uploadCompany(ctx: ActorCtx): number {
  const ids = visibleCompanyIds(ctx.actor);
  if (ctx.actor.user_type !== 'company' || ids.length === 0)
    throw new NotFound(msg('reconciliation.errors.not_found'));
  if (ids.length > 1) throw ValidationFailed.field('file', msg('reconciliation.errors.choose_company'));
  return ids[0];
}

async function sha256OfBytes(bytes: Uint8Array): Promise<string> {
  return toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>)));
}

function statementProblems(e: unknown): never {
  if (e instanceof StatementError)
    throw new ValidationFailed(e.messages.map((message) => ({ key: 'file', message })));
  if (e instanceof CsvError) throw ValidationFailed.field('file', msg('reconciliation.errors.csv'));
  throw e;
}

/**
 * Uploads a statement: a camt.053 file is read and matched at once (review), a CSV waits for its columns
 * to be matched (mapping). The same file again answers the statement it made the first time
 * (`existing`). A file that cannot be read is refused with what is wrong and where, and nothing is kept.
 */
export async function uploadStatement(
  ctx: ActorCtx,
  file: unknown,
): Promise<{ statement: StatementView; existing: boolean }> {
  requirePermission(ctx.actor, RECONCILE_PERMISSION);
  const companyId = uploadCompany(ctx);
  const checked = await checkUpload(file, { field: 'file', allowed: ['csv'], maxMb: MAX_STATEMENT_MB });
  const sha = await sha256OfBytes(checked.bytes);
  const [same] = await ctx.db
    .select()
    .from(bankStatements)
    .where(and(eq(bankStatements.company_id, companyId), eq(bankStatements.file_sha256, sha)))
    .limit(1);
  if (same) return { statement: await present(ctx, same), existing: true };

  const content = decodeText(checked.bytes);
  let parsed: ParsedStatement | null = null;
  let rows: string[][] = [];
  if (looksLikeXml(content)) {
    try {
      parsed = readCamt053(content);
    } catch (e) {
      statementProblems(e);
    }
    if (!parsed.lines.length) throw ValidationFailed.field('file', msg('reconciliation.errors.no_credits'));
    if (parsed.lines.length > MAX_LINES)
      throw ValidationFailed.field('file', msg('reconciliation.errors.too_many', { max: MAX_LINES }));
  } else {
    try {
      rows = parseCsv(content).filter((r) => r.some((c) => c.trim()));
    } catch (e) {
      statementProblems(e);
    }
    if (rows.length < 2) throw ValidationFailed.field('file', msg('reconciliation.errors.csv_empty'));
    if (rows.length - 1 > MAX_LINES)
      throw ValidationFailed.field('file', msg('reconciliation.errors.too_many', { max: MAX_LINES }));
  }

  const key = fileKey(`bank-statements/${companyId}`, checked.name);
  await ctx.env.FILES.put(key, checked.bytes, {
    httpMetadata: { contentType: parsed ? 'application/xml' : 'text/csv' },
    customMetadata: { name: checked.name },
  });
  const id = publicId();
  const inserted = await ctx.db
    .insert(bankStatements)
    .values({
      public_id: id,
      company_id: companyId,
      format: parsed ? 'camt053' : 'csv',
      status: 'mapping',
      file_key: key,
      file_name: cleanFileName(checked.name),
      file_size: checked.size,
      file_sha256: sha,
      headers: parsed ? null : rows[0].map((h) => h.trim()),
      sample: parsed ? null : rows.slice(1, 1 + SAMPLE_ROWS),
      currency: parsed?.currency ?? null,
      account: parsed?.account ?? null,
      line_count: 0,
      created_by: ctx.actor.user_id,
      created_at: ctx.now,
      updated_at: ctx.now,
    })
    .onConflictDoNothing()
    .returning();
  if (!inserted.length) {
    // The same file sent twice at once: the other upload made the statement.
    await ctx.env.FILES.delete(key);
    const [first] = await ctx.db
      .select()
      .from(bankStatements)
      .where(and(eq(bankStatements.company_id, companyId), eq(bankStatements.file_sha256, sha)))
      .limit(1);
    return { statement: await present(ctx, first), existing: true };
  }
  const row = inserted[0];
  await runBatch(ctx.db, [
    logActivity(ctx, {
      entity_type: 'bank_statement',
      entity_id: row.id,
      action: 'uploaded',
      after: { file_name: row.file_name, format: row.format, sha256: sha },
      company_id: companyId,
    }),
  ]);
  if (parsed) await storeAndMatch(ctx, row, parsed, null);
  return { statement: await getStatement(ctx, id), existing: false };
}

/** The stored file's text (R2). */
async function fileText(ctx: ActorCtx, row: StatementRow): Promise<string> {
  const file = await getFile(ctx.env.FILES, row.file_key);
  if (!file) throw new Conflict(msg('reconciliation.errors.file_missing'));
  return decodeText(file.bytes);
}

/**
 * Confirms a CSV statement's column matching (and the day/month order, and the file's currency when no
 * column gives it), reads its credits and matches them. A row that cannot be read is refused naming the
 * row. Allowed until a credit is allocated by hand or the statement is confirmed.
 */
export async function confirmStatementMapping(
  ctx: ActorCtx,
  id: string,
  input: StatementMappingInput,
): Promise<StatementView> {
  const row = await findStatement(ctx, id, RECONCILE_PERMISSION);
  if (row.format !== 'csv') throw new Conflict(msg('reconciliation.errors.not_csv'));
  if (row.status === 'confirmed') throw new Conflict(msg('reconciliation.errors.confirmed'));
  const [manual] = await ctx.db
    .select({ id: bankAllocations.id })
    .from(bankAllocations)
    .innerJoin(bankStatementLines, eq(bankStatementLines.id, bankAllocations.line_id))
    .where(and(eq(bankStatementLines.statement_id, row.id), eq(bankAllocations.source, 'manual')))
    .limit(1);
  if (manual) throw new Conflict(msg('reconciliation.errors.allocated_by_hand'));
  const headers = row.headers ?? [];
  const mapping: CsvMapping = {};
  for (let i = 0; i < headers.length; i++) mapping[String(i)] = input.columns[i] ?? null;
  const rows = parseCsv(await fileText(ctx, row)).filter((r) => r.some((c) => c.trim()));
  let parsed: ParsedStatement;
  try {
    parsed = readCsvStatement(rows.slice(1), mapping, {
      date_order: input.date_order,
      currency: input.currency,
      today: todayIso(ctx.now),
    });
  } catch (e) {
    if (e instanceof StatementError)
      throw new ValidationFailed(e.messages.map((message) => ({ key: 'columns', message })));
    throw e;
  }
  if (!parsed.lines.length) throw ValidationFailed.field('columns', msg('reconciliation.errors.no_credits'));
  await storeAndMatch(ctx, row, parsed, {
    ...mapping,
    [DATE_ORDER_KEY]: input.date_order,
    [CURRENCY_KEY]: input.currency ?? null,
  } as Record<string, string | null>);
  return getStatement(ctx, id);
}

// ---------------------------------------------------------------- matching

/** The invoices the credits name, and the open ones whose balance equals an amount that names none. */
async function candidatesFor(
  ctx: ActorCtx,
  companyId: number,
  lines: ParsedStatement['lines'],
): Promise<Candidate[][]> {
  const references = new Set<string>();
  const numbers = new Set<string>();
  const amounts = new Set<number>();
  for (const l of lines) {
    const t = tokensOf(l);
    t.references.forEach((r) => references.add(r));
    t.numbers.forEach((n) => numbers.add(n));
    if (!t.references.length && !t.numbers.length) amounts.add(l.amount_minor);
  }
  const base = and(
    eq(invoices.company_id, companyId),
    visibleInvoices(ctx.actor),
    sql`${invoices.type} <> 'credit_note'`,
    sql`${invoices.voided_at} IS NULL`,
  );
  const columns = {
    id: invoices.id,
    number: invoices.number,
    payment_reference: invoices.payment_reference,
    currency: invoices.currency,
    due_at: invoices.due_at,
    balance_minor: balanceSql,
  };
  const [named, open] = await Promise.all([
    references.size || numbers.size
      ? ctx.db
          .select(columns)
          .from(invoices)
          .where(
            and(
              base,
              sql`(upper(${invoices.payment_reference}) IN (SELECT value FROM json_each(${JSON.stringify([...references])}))
                OR ${invoices.number} IN (SELECT value FROM json_each(${JSON.stringify([...numbers])})))`,
            ),
          )
      : Promise.resolve([] as Candidate[]),
    amounts.size
      ? ctx.db
          .select(columns)
          .from(invoices)
          .where(
            and(base, sql`${balanceSql} IN (SELECT value FROM json_each(${JSON.stringify([...amounts])}))`),
          )
      : Promise.resolve([] as Candidate[]),
  ]);
  return [named, open];
}

/**
 * Stores a statement's credits and their automatic matches in one batch (replacing any from an earlier
 * column matching), and puts the statement under review.
 */
export async function storeAndMatch(
  ctx: ActorCtx,
  row: StatementRow,
  parsed: ParsedStatement,
  mapping: Record<string, string | null> | null,
) {
  const keys = lineKeys(parsed.lines);
  const recorded = new Set(
    (
      await ctx.db.all<{ line_key: string }>(sql`SELECT DISTINCT line_key FROM bank_statement_lines
        WHERE company_id = ${row.company_id} AND status = 'recorded' AND statement_id <> ${row.id}
          AND line_key IN (SELECT value FROM json_each(${JSON.stringify(keys)}))`)
    ).map((r) => r.line_key),
  );
  const [named, open] = await candidatesFor(ctx, row.company_id, parsed.lines);
  const index = indexCandidates(named, open);
  const lineRows: unknown[] = [];
  const allocationRows: unknown[] = [];
  let matched = 0;
  parsed.lines.forEach((l, i) => {
    let status: LineStatus;
    let problem: string | null;
    if (recorded.has(keys[i])) {
      status = 'ignored';
      problem = PROBLEMS.already_recorded;
    } else {
      const m = matchLine(l, index);
      status = m.status;
      problem = m.problem;
      if (m.status === 'matched') matched += 1;
      for (const a of m.allocations) allocationRows.push([l.line_no, a.invoice_id, a.amount_minor, a.source]);
    }
    lineRows.push([
      l.line_no,
      l.booking_date,
      l.amount_minor,
      l.currency,
      l.text,
      l.reference,
      l.counterparty,
      keys[i],
      status,
      problem,
    ]);
  });
  const stamp = ctx.now.getTime();
  const currencies = [...new Set(parsed.lines.map((l) => l.currency))];
  // CROSS JOIN keeps the JSON rows as the outer loop: SQLite otherwise walks the statement's lines and
  // scans the whole JSON array for each (2 s at 2000 credits instead of milliseconds).
  const statements: Statement[] = [
    ctx.db.delete(bankStatementLines).where(eq(bankStatementLines.statement_id, row.id)),
    ctx.db.run(sql`INSERT INTO bank_statement_lines (statement_id, company_id, line_no, booking_date,
        amount_minor, currency, text, reference, counterparty, line_key, status, problem, created_at, updated_at)
      SELECT ${row.id}, ${row.company_id}, j.value ->> 0, j.value ->> 1, j.value ->> 2, j.value ->> 3,
        coalesce(j.value ->> 4, ''), j.value ->> 5, j.value ->> 6, j.value ->> 7, j.value ->> 8, j.value ->> 9,
        ${stamp}, ${stamp}
      FROM json_each(${JSON.stringify(lineRows)}) AS j`),
    ctx.db.run(sql`INSERT INTO bank_allocations (line_id, invoice_id, amount_minor, source, created_by,
        created_at, updated_at)
      SELECT l.id, j.value ->> 1, j.value ->> 2, j.value ->> 3, NULL, ${stamp}, ${stamp}
      FROM json_each(${JSON.stringify(allocationRows)}) AS j
      CROSS JOIN bank_statement_lines l ON l.statement_id = ${row.id} AND l.line_no = j.value ->> 0`),
    ctx.db
      .update(bankStatements)
      .set({
        status: 'review',
        line_count: parsed.lines.length,
        matched_count: matched,
        currency: row.currency ?? (currencies.length === 1 ? currencies[0] : null),
        message: null,
        updated_at: ctx.now,
        ...(mapping ? { mapping } : {}),
      })
      .where(and(eq(bankStatements.id, row.id), sql`${bankStatements.status} <> 'confirmed'`)),
    logActivity(ctx, {
      entity_type: 'bank_statement',
      entity_id: row.id,
      action: 'matched',
      before: { status: row.status },
      after: { status: 'review', line_count: parsed.lines.length, matched_count: matched },
      company_id: row.company_id,
    }),
  ];
  await runBatch(ctx.db, statements);
}

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
          AND a.invoice_id IN (SELECT value FROM json_each(${JSON.stringify(rows.map((r) => r.id))}))
        GROUP BY a.invoice_id`)
    : [];
  const held = new Map(pending.map((p) => [p.invoice_id, p.n]));
  return rows.map((r) => ({
    id: r.public_id,
    number: r.number,
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
          inArray(bankStatementLines.status, ignored ? ['unmatched', 'matched', 'allocated'] : ['ignored']),
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
  const invoiceList = JSON.stringify(invoiceIds);
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
    settleInvoices(
      ctx.db,
      sql`x.id IN (SELECT value FROM json_each(${invoiceList})) AND ${inReview}`,
      ctx.now,
    ),
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
        FROM invoices i WHERE i.id IN (SELECT value FROM json_each(${invoiceList})) AND ${inReview}`,
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
