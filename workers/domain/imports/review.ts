/**
 * What the steps after staging show and do with an import's draft batch: the review grid (paged, only
 * errors, each row's errors on its cells and the original text of a cell that could not be read),
 * linking family members, assigning group leaders, the fees, and putting the batch into the cart.
 */
import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import { countries, enrollments, imports, policyBatches } from '../../../drizzle/schema';
import type { EnrollmentError } from '../../../drizzle/schema/ordering-enums';
import { inJson } from '../../platform/db';
import type { ActorCtx } from '../context';
import { batchRules, findVisibleBatch, type BatchRow, type EnrollmentRow } from '../enrollments/batches';
import { openBatch } from '../enrollments/staging';
import { LINK_ERROR_FIELDS } from '../enrollments/edit';
import { APPLICANT_FIELDS, type ApplicantField } from '../enrollments/schema';
import { NotFound, ValidationFailed } from '../errors';
import { countAll, paginate, type Page } from '../lists';
import { msg } from '../validation';
import { sourceHeaders } from './normalise';
import { findVisibleImport, type ImportRow } from './service';
import { REVIEW_PAGE_SIZE, asMapping, type ReviewQuery } from './schema';

/** Errors in the applicant's own cells (not the links the next steps make). */
const ownErrorSql = sql`exists (select 1 from json_each(${enrollments.errors}) e
  where e.value->>'field' not in ('dependency_id', 'group_leader_id'))`;

export interface ImportBatch {
  batch: BatchRow;
  imp: ImportRow | null;
}

/**
 * The draft batch of an import (by import id) or a batch by id, in the actor's scope. An import that
 * has no batch yet (still staging) is NotFound here: its pages send the user to the progress page.
 */
export async function findImportBatch(
  ctx: ActorCtx,
  ref: { import?: string | null; batch?: string | null },
): Promise<ImportBatch> {
  if (ref.import) {
    const { imp } = await findVisibleImport(ctx, ref.import);
    if (!imp.batch_id) throw new NotFound(msg('imports.errors.not_ready'));
    return { batch: await findVisibleBatch(ctx, imp.batch_id), imp };
  }
  if (!ref.batch) throw new NotFound(msg('imports.errors.not_found'));
  const batch = await findVisibleBatch(ctx, ref.batch);
  const [imp] = batch.import_id
    ? await ctx.db.select().from(imports).where(eq(imports.id, batch.import_id)).limit(1)
    : [];
  return { batch, imp: imp ?? null };
}

export interface ReviewRow {
  id: string;
  position: number;
  /** Display values: stored values, country names, and for a cell that could not be read its original text. */
  values: Record<ApplicantField, string | null>;
  errors: EnrollmentError[];
  /** Errors of the links (family member's student, group leader), resolved by the next steps. */
  link_errors: EnrollmentError[];
  type: string;
  dependency_id: string | null;
  group_leader_id: string | null;
  fee_minor: number | null;
  tax_minor: number | null;
  stamp_duty_minor: number | null;
  /** Premium + tax + stamp duty; null while the row has no fee. */
  total_minor: number | null;
}

export interface BatchCounts {
  total: number;
  /** Applicants with errors in their own cells. */
  with_errors: number;
  students: number;
  family: number;
  family_unlinked: number;
  leaders: number;
  /** Students and family members without a group leader. */
  without_leader: number;
  /** Any error at all, links included: the batch cannot go into the cart while this is above 0. */
  any_errors: number;
}

export async function batchCounts(ctx: ActorCtx, batchId: number): Promise<BatchCounts> {
  const [r] = await ctx.db
    .select({
      total: sql<number>`count(*)`,
      with_errors: sql<number>`coalesce(sum(case when ${enrollments.error_count} > 0 and ${ownErrorSql} then 1 else 0 end), 0)`,
      students: sql<number>`coalesce(sum(${enrollments.type} = 'student'), 0)`,
      family: sql<number>`coalesce(sum(${enrollments.type} = 'immediate_family'), 0)`,
      family_unlinked: sql<number>`coalesce(sum(${enrollments.type} = 'immediate_family' and ${enrollments.dependency_id} is null), 0)`,
      leaders: sql<number>`coalesce(sum(${enrollments.type} = 'group_leader'), 0)`,
      without_leader: sql<number>`coalesce(sum(${enrollments.type} != 'group_leader' and ${enrollments.group_leader_id} is null), 0)`,
      any_errors: sql<number>`coalesce(sum(${enrollments.error_count} > 0), 0)`,
    })
    .from(enrollments)
    .where(eq(enrollments.batch_id, batchId));
  const n = (v: unknown) => Number(v ?? 0);
  return {
    total: n(r?.total),
    with_errors: n(r?.with_errors),
    students: n(r?.students),
    family: n(r?.family),
    family_unlinked: n(r?.family_unlinked),
    leaders: n(r?.leaders),
    without_leader: n(r?.without_leader),
    any_errors: n(r?.any_errors),
  };
}

/** Field → header of the column it was read from, by the import's mapping. */
function columnsOf(imp: ImportRow | null): Partial<Record<ApplicantField, string>> {
  const out: Partial<Record<ApplicantField, string>> = {};
  if (!imp?.mapping) return out;
  const headers = sourceHeaders(imp.headers);
  for (const [column, target] of Object.entries(asMapping(imp.mapping) ?? {}))
    if (target && target !== 'group_leader' && headers[Number(column)]) out[target] = headers[Number(column)];
  return out;
}

async function countryNames(ctx: ActorCtx, rows: EnrollmentRow[]) {
  const ids = [
    ...new Set(
      rows.flatMap((r) => [r.residence_country_id, r.destination_country_id]).filter((x): x is number => !!x),
    ),
  ];
  const found = await ctx.db
    .select({ id: countries.id, name: countries.name })
    .from(countries)
    .where(inJson(countries.id, ids));
  return new Map(found.map((c) => [c.id, c.name]));
}

async function publicIdsOf(ctx: ActorCtx, ids: number[]) {
  const found = await ctx.db
    .select({ id: enrollments.id, public_id: enrollments.public_id })
    .from(enrollments)
    .where(inJson(enrollments.id, [...new Set(ids)]));
  return new Map(found.map((r) => [r.id, r.public_id]));
}

/** Rows as the grid shows them. */
export async function toReviewRows(
  ctx: ActorCtx,
  rows: EnrollmentRow[],
  imp: ImportRow | null,
): Promise<ReviewRow[]> {
  const names = await countryNames(ctx, rows);
  const links = await publicIdsOf(
    ctx,
    rows.flatMap((r) => [r.dependency_id, r.group_leader_id]).filter((x): x is number => !!x),
  );
  const columns = columnsOf(imp);
  return rows.map((r) => {
    const values = {} as Record<ApplicantField, string | null>;
    for (const f of APPLICANT_FIELDS) {
      const v = r[f];
      let shown: string | null =
        f === 'residence_country_id' || f === 'destination_country_id'
          ? v != null
            ? (names.get(v as number) ?? String(v))
            : null
          : v == null
            ? null
            : String(v);
      // A cell that could not be stored (an unknown country, say) is shown as it was sent.
      const header = columns[f];
      if (shown == null && header && r.source?.[header] != null) shown = r.source[header];
      values[f] = shown;
    }
    return {
      id: r.public_id,
      position: r.position,
      values,
      errors: r.errors.filter((e) => !LINK_ERROR_FIELDS.includes(e.field)),
      link_errors: r.errors.filter((e) => LINK_ERROR_FIELDS.includes(e.field)),
      type: r.type,
      dependency_id: r.dependency_id ? (links.get(r.dependency_id) ?? null) : null,
      group_leader_id: r.group_leader_id ? (links.get(r.group_leader_id) ?? null) : null,
      fee_minor: r.fee_minor,
      tax_minor: r.tax_minor,
      stamp_duty_minor: r.stamp_duty_minor,
      total_minor: r.fee_minor == null ? null : r.fee_minor + (r.tax_minor ?? 0) + (r.stamp_duty_minor ?? 0),
    };
  });
}

/** One page of the review grid (50 rows, in sheet order), optionally only the rows with errors. */
export async function reviewPage(
  ctx: ActorCtx,
  { batch, imp }: ImportBatch,
  query: ReviewQuery,
): Promise<{ rows: Page<ReviewRow>; counts: BatchCounts }> {
  const where: SQL = query.errors_only
    ? and(eq(enrollments.batch_id, batch.id), sql`${enrollments.error_count} > 0`, ownErrorSql)!
    : eq(enrollments.batch_id, batch.id);
  const [counts, page] = await Promise.all([
    batchCounts(ctx, batch.id),
    applicantsPage(ctx, where, query.page),
  ]);
  return { rows: { items: await toReviewRows(ctx, page.items, imp), meta: page.meta }, counts };
}

/**
 * A page of a batch's applicants in sheet order, 50 a page; a page past the last (rows fixed or
 * deleted since) answers the last.
 */
function applicantsPage(ctx: ActorCtx, where: SQL, page: number) {
  return paginate(
    ctx.db,
    { page, items: REVIEW_PAGE_SIZE },
    {
      rows: (limit, offset) =>
        ctx.db
          .select()
          .from(enrollments)
          .where(where)
          .orderBy(asc(enrollments.position), asc(enrollments.id))
          .limit(limit)
          .offset(offset),
      count: ctx.db.select({ total: countAll }).from(enrollments).where(where),
      lastAtMost: true,
    },
  );
}

export interface PersonOption {
  id: string;
  position: number;
  label: string;
}

const nameOf = (r: { first_name: string | null; last_name: string | null }) =>
  [r.first_name, r.last_name].filter(Boolean).join(' ');

/**
 * The link-dependents step: each family member with its current student and the students to choose
 * from: all of them in a small batch; in a large one those with the same last name and the nearest rows.
 */
export async function dependentsStep(ctx: ActorCtx, batch: BatchRow) {
  const rows = await ctx.db
    .select({
      id: enrollments.id,
      public_id: enrollments.public_id,
      position: enrollments.position,
      type: enrollments.type,
      first_name: enrollments.first_name,
      last_name: enrollments.last_name,
      date_of_birth: enrollments.date_of_birth,
      dependency_id: enrollments.dependency_id,
    })
    .from(enrollments)
    .where(and(eq(enrollments.batch_id, batch.id), inJson(enrollments.type, ['student', 'immediate_family'])))
    .orderBy(asc(enrollments.position));
  const students = rows.filter((r) => r.type === 'student');
  const byId = new Map(rows.map((r) => [r.id, r]));
  const option = (s: (typeof rows)[number]): PersonOption => ({
    id: s.public_id,
    position: s.position,
    label: nameOf(s) || `#${s.position}`,
  });
  const family = rows
    .filter((r) => r.type === 'immediate_family')
    .map((f) => {
      const linked = f.dependency_id ? byId.get(f.dependency_id) : undefined;
      const last = (f.last_name ?? '').trim().toLowerCase();
      const same = students.filter((s) => last && (s.last_name ?? '').trim().toLowerCase() === last);
      let candidates = students;
      if (students.length > 60) {
        const near = [...students]
          .sort((a, b) => Math.abs(a.position - f.position) - Math.abs(b.position - f.position))
          .slice(0, 20);
        const set = new Map([...same, ...near, ...(linked ? [linked] : [])].map((s) => [s.id, s]));
        candidates = [...set.values()].sort((a, b) => a.position - b.position);
      }
      // Preselect: the linked student, else the nearest student of the same last name (above first).
      const namesake = [...same].sort(
        (a, b) =>
          Math.abs(a.position - f.position) - Math.abs(b.position - f.position) || a.position - b.position,
      );
      const guess = linked ?? namesake[0];
      return {
        id: f.public_id,
        position: f.position,
        name: nameOf(f),
        date_of_birth: f.date_of_birth,
        student_id: linked?.public_id ?? null,
        suggested_id: guess?.public_id ?? null,
        options: candidates.map(option),
      };
    });
  return { family, student_count: students.length };
}

/** The public ids of the students and family members that have no group leader yet. */
export async function unassignedIds(ctx: ActorCtx, batch: BatchRow): Promise<string[]> {
  const rows = await ctx.db
    .select({ id: enrollments.public_id })
    .from(enrollments)
    .where(
      and(
        eq(enrollments.batch_id, batch.id),
        sql`${enrollments.type} != 'group_leader'`,
        sql`${enrollments.group_leader_id} is null`,
      ),
    );
  return rows.map((r) => r.id);
}

/** The fees step: one page of applicants with their fee, and the batch's totals in its currency. */
export async function feesStep(ctx: ActorCtx, { batch, imp }: ImportBatch, page: number) {
  const { pricing } = await batchRules(ctx, batch);
  const where = eq(enrollments.batch_id, batch.id);
  const [[sum], rows] = await Promise.all([
    ctx.db
      .select({
        count: sql<number>`count(*)`,
        premium: sql<number>`coalesce(sum(${enrollments.fee_minor}), 0)`,
        tax: sql<number>`coalesce(sum(${enrollments.tax_minor}), 0)`,
        // Each applicant's stamp duty was set with its fee, by the invoices' rule (enrollments/fees.ts).
        stamp: sql<number>`coalesce(sum(${enrollments.stamp_duty_minor}), 0)`,
        missing: sql<number>`coalesce(sum(${enrollments.fee_minor} is null), 0)`,
      })
      .from(enrollments)
      .where(where),
    applicantsPage(ctx, where, page),
  ]);
  const total = Number(sum?.count ?? 0);
  const premium = Number(sum?.premium ?? 0);
  const tax = Number(sum?.tax ?? 0);
  const stamp = Number(sum?.stamp ?? 0);
  return {
    currency: pricing.currency,
    totals: {
      count: total,
      premium_minor: premium,
      tax_minor: tax,
      stamp_duty_minor: stamp,
      total_minor: premium + tax + stamp,
      missing: Number(sum?.missing ?? 0),
    },
    rows: { items: await toReviewRows(ctx, rows.items, imp), meta: rows.meta },
  };
}

/**
 * "Add to cart": the batch goes into the cart (openBatch refuses while any applicant has an error) and
 * its import is done. Answers how many applicants went in.
 */
export async function addImportToCart(
  ctx: ActorCtx,
  ib: ImportBatch,
): Promise<{ batch: BatchRow; count: number }> {
  const counts = await batchCounts(ctx, ib.batch.id);
  if (counts.any_errors)
    throw ValidationFailed.field('batch', msg('imports.errors.fix_first', { count: counts.any_errors }));
  const batch = await openBatch(ctx, ib.batch);
  if (ib.imp)
    await ctx.db
      .update(imports)
      .set({ status: 'done', updated_at: ctx.now })
      .where(and(eq(imports.id, ib.imp.id), eq(imports.status, 'review')));
  return { batch, count: counts.total };
}

/** The import's batch as the success page shows it (it is in the cart by then). */
export async function importResult(ctx: ActorCtx, batchId: string) {
  const batch = await findVisibleBatch(ctx, batchId);
  const counts = await batchCounts(ctx, batch.id);
  const [row] = await ctx.db
    .select({ status: policyBatches.status })
    .from(policyBatches)
    .where(eq(policyBatches.id, batch.id));
  return { batch_id: batch.public_id, status: row?.status ?? batch.status, count: counts.total };
}

/** Which of the given enrollment ids belong to the batch (what a page may act on). */
export async function idsInBatch(ctx: ActorCtx, batch: BatchRow, ids: readonly string[]): Promise<string[]> {
  if (!ids.length) return [];
  const rows = await ctx.db
    .select({ id: enrollments.public_id })
    .from(enrollments)
    .where(and(eq(enrollments.batch_id, batch.id), inJson(enrollments.public_id, ids)));
  return rows.map((r) => r.id);
}

/** The applicants of the batch with errors in their own cells ("delete all rows with errors"). */
export async function erroredIds(ctx: ActorCtx, batch: BatchRow): Promise<string[]> {
  const rows = await ctx.db
    .select({ id: enrollments.public_id })
    .from(enrollments)
    .where(and(eq(enrollments.batch_id, batch.id), sql`${enrollments.error_count} > 0`, ownErrorSql));
  return rows.map((r) => r.id);
}
