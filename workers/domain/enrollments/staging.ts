/**
 * Applicants written into a policy batch, one by one or 5000 rows from a spreadsheet, with their own
 * errors, fees and links; the rules across a batch's applicants kept right (revalidateBatch); and a
 * checked batch put into the cart (openBatch). The add pages, the import job and the API all go through
 * here.
 *
 * Writes use JSON row sets (`INSERT ... SELECT ... FROM json_each(?)`): one bound parameter carries up to
 * a megabyte of rows, so 5000 applicants are a handful of statements in one all-or-nothing batch instead
 * of thousands of 3-row inserts under D1's 100-parameter limit.
 */
import { and, eq, sql } from 'drizzle-orm';
import { enrollments, policyBatches } from '../../../drizzle/schema';
import type { EnrollmentError } from '../../../drizzle/schema/ordering-enums';
import { publicIds } from '../../platform/crypto';
import { chunk, runBatch, type DB, type Statement } from '../../platform/db';
import { requirePermission } from '../access/actor';
import type { ActorCtx, Ctx } from '../context';
import { ValidationFailed } from '../errors';
import { msg } from '../validation';
import { batchRules, findVisibleBatch, ORDER_PERMISSION, requireEditable, type BatchRow } from './batches';
import { feeFor, type Pricing } from './fees';
import { batchErrors, checkApplicantFast, type BatchMember, type RuleContext } from './rules';
import { APPLICANT_FIELDS, APPLICANT_TYPES, GENDERS, MAX_APPLICANTS, type ApplicantField } from './schema';

/** The message keys of the rules across applicants: recomputed for the whole batch by revalidateBatch. */
const BATCH_RULE_MESSAGES = new Set([
  'enrollments.errors.duplicate',
  'enrollments.errors.dependency_required',
  'enrollments.errors.dependency_only_family',
  'enrollments.errors.group_leader_invalid',
]);

/** One applicant to stage: its fields as typed or read (strings), and the original cells of a sheet row. */
export interface StagedRow {
  position: number;
  raw: Partial<Record<ApplicantField, unknown>>;
  /** A sheet row's original cells by header, made only for a row that keeps them (one with errors). */
  source?: () => Record<string, string>;
  /** Positions (in the same batch) of the student this family member depends on, and of its leader. */
  dependency_position?: number | null;
  group_leader_position?: number | null;
}

const TEXT_FIELDS = APPLICANT_FIELDS.filter(
  (f) => f !== 'residence_country_id' && f !== 'destination_country_id',
);
const ROWSET_BYTES = 900_000;

/**
 * The columns of a staged enrollment, in the order of its row in the JSON row set the insert reads
 * (`value->>0`, `value->>1`, …): positions instead of keys make SQLite's work per row about a third less.
 */
const STAGED_COLUMNS = [
  'public_id',
  'position',
  ...APPLICANT_FIELDS,
  'errors',
  'error_count',
  'fee_minor',
  'tax_minor',
  'stamp_duty_minor',
  'source',
] as const;
type StagedColumn = (typeof STAGED_COLUMNS)[number];
const STAGED_INTO = sql.raw(STAGED_COLUMNS.join(', '));
// `->>` answers a JSON array or object (errors, source) as its JSON text and a JSON null as NULL.
const STAGED_FROM = sql.raw(
  STAGED_COLUMNS.map((c, i) =>
    c === 'type'
      ? `coalesce(value->>${i}, 'student')`
      : c === 'errors'
        ? `coalesce(value->>${i}, '[]')`
        : `value->>${i}`,
  ).join(', '),
);

/** The stored form of one applicant: the parsed value where valid, else what was typed (nothing lost). */
export function enrollmentValues(raw: StagedRow['raw'], prepared: { rules: RuleContext; pricing: Pricing }) {
  const checked = checkApplicantFast(raw, prepared.rules);
  const v = checked.value;
  const out: Record<string, unknown> = {};
  for (const f of TEXT_FIELDS) {
    const parsed = v ? (v as Record<string, unknown>)[f] : undefined;
    const typed = raw[f];
    const value = parsed ?? (typeof typed === 'string' ? typed.trim() : typed == null ? null : String(typed));
    out[f] = value === '' ? null : value;
  }
  // A row with an error elsewhere keeps its valid type and gender; only a value outside the enum is
  // replaced (the error names it, and an imported row's original cell stays in `source`).
  if (!(APPLICANT_TYPES as readonly unknown[]).includes(out.type)) out.type = v?.type ?? 'student';
  if (out.gender != null && !(GENDERS as readonly unknown[]).includes(out.gender)) out.gender = null;
  for (const f of ['residence_country_id', 'destination_country_id'] as const) {
    const n = v ? v[f] : Number(raw[f]);
    out[f] = Number.isInteger(n) && prepared.rules.countryIds.has(n as number) ? n : null;
  }
  const fee = v && !checked.errors.length ? feeFor(v, prepared.pricing) : null;
  return {
    fields: out,
    errors: checked.errors,
    fee_minor: fee ? fee.premium_minor : null,
    tax_minor: fee ? fee.tax_minor : null,
    stamp_duty_minor: fee ? fee.stamp_duty_minor : null,
  };
}

/** A row validated and priced: what stageEnrollments and stageNewBatch write. */
interface ValidatedRow {
  row: StagedRow;
  values: ReturnType<typeof enrollmentValues>;
}

/**
 * The statements writing validated rows into a batch (one INSERT per row set, then the links of family
 * members and group leaders by position, then the batch's updated_at). `extraErrors` (by position) are
 * stored after a row's own errors: the rules across the batch when the caller checked them already.
 * `linksOf` are the rows whose links are written (by default the rows written).
 */
function stagedStatements(
  ctx: ActorCtx,
  batch: BatchRow,
  validated: readonly ValidatedRow[],
  opts: { extraErrors?: ReadonlyMap<number, EnrollmentError[]>; linksOf?: readonly ValidatedRow[] } = {},
): Statement[] {
  const { extraErrors, linksOf = validated } = opts;
  const now = ctx.now.getTime();
  const ids = publicIds(validated.length);
  const records = validated.map(({ row: r, values: e }, i) => {
    const extra = extraErrors?.get(r.position);
    const errors = extra ? [...e.errors, ...extra] : e.errors;
    const values: Record<StagedColumn, unknown> = {
      public_id: ids[i],
      position: r.position,
      ...(e.fields as Record<ApplicantField, unknown>),
      errors,
      error_count: errors.length,
      fee_minor: e.fee_minor,
      tax_minor: e.tax_minor,
      stamp_duty_minor: e.stamp_duty_minor,
      // The original cells are shown where a value could not be stored, which only a row with errors of
      // its own has; the sheet's rows stay in R2 with the import all the same.
      source: e.errors.length && r.source ? r.source() : null,
    };
    return STAGED_COLUMNS.map((c) => values[c] ?? null);
  });
  const statements: Statement[] = rowSets(records).map((set) =>
    ctx.db.run(sql`INSERT INTO enrollments (batch_id, created_at, updated_at, ${STAGED_INTO})
    SELECT ${batch.id}, ${now}, ${now}, ${STAGED_FROM} FROM json_each(${set})`),
  );
  const links = linksOf
    .filter(({ row: r }) => r.dependency_position != null || r.group_leader_position != null)
    .map(({ row: r }) => ({
      pos: r.position,
      dep: r.dependency_position ?? null,
      lead: r.group_leader_position ?? null,
    }));
  for (const set of rowSets(links)) statements.push(linkStatement(ctx.db, batch.id, set));
  statements.push(touch(ctx.db, batch.id, ctx.now));
  return statements;
}

async function enrollmentCount(db: DB, batchId: number): Promise<number> {
  const [{ count }] = (await db
    .select({ count: sql<number>`count(*)` })
    .from(enrollments)
    .where(eq(enrollments.batch_id, batchId))) as [{ count: number }];
  return Number(count);
}

/**
 * Validates each row (the applicant's own fields and the product's limits), computes its fee, and writes
 * all of them, with their errors, in one all-or-nothing batch; then links family members and group
 * leaders by position and re-checks the rules across the batch. Rows with errors are stored too: the
 * review step shows and fixes them.
 */
export async function stageEnrollments(
  ctx: ActorCtx,
  batch: BatchRow,
  rows: readonly StagedRow[],
  prepared?: { rules: RuleContext; pricing: Pricing },
): Promise<{ inserted: number; withErrors: number }> {
  requirePermission(ctx.actor, ORDER_PERMISSION);
  requireEditable(batch);
  if (!rows.length) return { inserted: 0, withErrors: 0 };
  if ((await enrollmentCount(ctx.db, batch.id)) + rows.length > MAX_APPLICANTS)
    throw ValidationFailed.field('file', msg('enrollments.errors.too_many', { max: MAX_APPLICANTS }));
  const ready = prepared ?? (await batchRules(ctx, batch));
  const validated = rows.map((row) => ({ row, values: enrollmentValues(row.raw, ready) }));
  await runBatch(ctx.db, stagedStatements(ctx, batch, validated));
  await revalidateBatch(ctx, batch.id);
  return { inserted: rows.length, withErrors: validated.filter((v) => v.values.errors.length).length };
}

/**
 * Stages a whole sheet into a new, empty batch: every row validated first, the rules across the batch
 * checked in memory (the rows are all here, linked by position, exactly as revalidateBatch would find
 * them written), then written in all-or-nothing steps of `step` rows, calling `onStep` with the rows
 * written and those with errors after each; the links go with the last step, so a row may name one of
 * any step. Nothing is read back.
 */
export async function stageNewBatch(
  ctx: ActorCtx,
  batch: BatchRow,
  rows: readonly StagedRow[],
  prepared: { rules: RuleContext; pricing: Pricing },
  opts: { step: number; onStep?: (done: number, withErrors: number) => Promise<void> },
): Promise<{ inserted: number; withErrors: number }> {
  requirePermission(ctx.actor, ORDER_PERMISSION);
  requireEditable(batch);
  if (rows.length > MAX_APPLICANTS)
    throw ValidationFailed.field('file', msg('enrollments.errors.too_many', { max: MAX_APPLICANTS }));
  if (await enrollmentCount(ctx.db, batch.id))
    throw new Error('stageNewBatch writes into an empty batch only');
  const validated = rows.map((row) => ({ row, values: enrollmentValues(row.raw, prepared) }));
  // A link names a row of the batch or is not stored (see linkStatement).
  const positions = new Set(rows.map((r) => r.position));
  const linked = (p: number | null | undefined) => (p != null && positions.has(p) ? p : null);
  const cross = batchErrors(
    validated.map(({ row, values: { fields } }) => ({
      key: row.position,
      type: fields.type as string,
      first_name: fields.first_name as string | null,
      last_name: fields.last_name as string | null,
      date_of_birth: fields.date_of_birth as string | null,
      start_date: fields.start_date as string | null,
      end_date: fields.end_date as string | null,
      dependency_key: linked(row.dependency_position),
      group_leader_key: linked(row.group_leader_position),
    })),
  );
  let done = 0;
  let withErrors = 0;
  const parts = chunk(validated, opts.step);
  for (const [n, part] of parts.entries()) {
    const last = n === parts.length - 1;
    await runBatch(
      ctx.db,
      stagedStatements(ctx, batch, part, {
        extraErrors: cross as Map<number, EnrollmentError[]>,
        linksOf: last ? validated : [],
      }),
    );
    done += part.length;
    for (const v of part) if (v.values.errors.length || cross.has(v.row.position)) withErrors++;
    await opts.onStep?.(done, withErrors);
  }
  return { inserted: done, withErrors };
}

/** Splits records into JSON arrays of at most ROWSET_BYTES each. */
function rowSets(records: readonly object[]): string[] {
  const sets: string[] = [];
  let current: string[] = [];
  let size = 2;
  for (const r of records) {
    const json = JSON.stringify(r);
    if (current.length && size + json.length + 1 > ROWSET_BYTES) {
      sets.push(`[${current.join(',')}]`);
      current = [];
      size = 2;
    }
    current.push(json);
    size += json.length + 1;
  }
  if (current.length) sets.push(`[${current.join(',')}]`);
  return sets;
}

function linkStatement(db: DB, batchId: number, set: string): Statement {
  // A materialized row set joined to the rows by id: an UPDATE ... FROM json_each(...) makes SQLite
  // scan the whole table for every element, which made a 5000-row sheet where every student names a
  // group leader take seconds per chunk.
  return db.run(sql`WITH l AS MATERIALIZED (SELECT e.id AS eid,
      (SELECT d.id FROM enrollments d WHERE d.batch_id = ${batchId} AND d.position = j.value->>'dep') AS dep_id,
      (SELECT g.id FROM enrollments g WHERE g.batch_id = ${batchId} AND g.position = j.value->>'lead') AS lead_id
      FROM json_each(${set}) AS j CROSS JOIN enrollments e
      WHERE e.batch_id = ${batchId} AND e.position = j.value->>'pos')
    UPDATE enrollments SET dependency_id = l.dep_id, group_leader_id = l.lead_id
    FROM l WHERE enrollments.id = l.eid`);
}

function touch(db: DB, batchId: number, now: Date): Statement {
  return db.update(policyBatches).set({ updated_at: now }).where(eq(policyBatches.id, batchId));
}

/**
 * Re-checks the rules across the applicants of a batch (duplicates with the same trip dates, family
 * links, group leaders) and stores each enrollment's errors: its own field errors plus the batch's.
 * Only rows whose errors change are written.
 */
export async function revalidateBatch(
  ctx: Ctx,
  batchId: number,
): Promise<{ total: number; withErrors: number }> {
  const rows = await ctx.db
    .select({
      id: enrollments.id,
      type: enrollments.type,
      first_name: enrollments.first_name,
      last_name: enrollments.last_name,
      date_of_birth: enrollments.date_of_birth,
      start_date: enrollments.start_date,
      end_date: enrollments.end_date,
      dependency_id: enrollments.dependency_id,
      group_leader_id: enrollments.group_leader_id,
      errors: enrollments.errors,
    })
    .from(enrollments)
    .where(eq(enrollments.batch_id, batchId));
  const members: BatchMember[] = rows.map((r) => ({
    key: r.id,
    type: r.type,
    first_name: r.first_name,
    last_name: r.last_name,
    date_of_birth: r.date_of_birth,
    start_date: r.start_date,
    end_date: r.end_date,
    dependency_key: r.dependency_id,
    group_leader_key: r.group_leader_id,
  }));
  const cross = batchErrors(members);
  const changed: { id: number; errors: EnrollmentError[] }[] = [];
  let withErrors = 0;
  for (const r of rows) {
    const own = (r.errors ?? []).filter((e) => !BATCH_RULE_MESSAGES.has(e.message));
    const next = [...own, ...(cross.get(r.id) ?? [])];
    if (next.length) withErrors++;
    if (JSON.stringify(next) !== JSON.stringify(r.errors ?? [])) changed.push({ id: r.id, errors: next });
  }
  const now = ctx.now.getTime();
  await runBatch(
    ctx.db,
    rowSets(changed).map((set) =>
      // The row set is materialized and drives the update by id (see linkStatement).
      ctx.db.run(sql`WITH j AS MATERIALIZED (SELECT e.id AS id, x.value->'errors' AS errors
            FROM json_each(${set}) AS x CROSS JOIN enrollments e
            WHERE e.id = x.value->>'id' AND e.batch_id = ${batchId})
          UPDATE enrollments SET errors = j.errors, error_count = json_array_length(j.errors), updated_at = ${now}
          FROM j WHERE enrollments.id = j.id`),
    ),
  );
  return { total: rows.length, withErrors };
}

/**
 * Puts a draft batch into the cart (status open). Refused while any applicant has errors or the batch
 * is empty. Opening an open batch again changes nothing.
 */
export async function openBatch(ctx: ActorCtx, batch: BatchRow): Promise<BatchRow> {
  requirePermission(ctx.actor, ORDER_PERMISSION);
  if (batch.status === 'open') return batch;
  requireEditable(batch);
  const { total, withErrors } = await revalidateBatch(ctx, batch.id);
  if (!total) throw ValidationFailed.field('batch', msg('enrollments.errors.batch_empty'));
  if (withErrors)
    throw ValidationFailed.field('batch', msg('enrollments.errors.batch_has_errors', { count: withErrors }));
  const [updated] = await ctx.db
    .update(policyBatches)
    .set({ status: 'open', opened_at: ctx.now, updated_at: ctx.now })
    .where(and(eq(policyBatches.id, batch.id), eq(policyBatches.status, 'draft')))
    .returning();
  return updated ?? (await findVisibleBatch(ctx, batch.id));
}
