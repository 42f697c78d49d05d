/**
 * Cancellation by spreadsheet (spec 000 s.2 cancellation steps, 001 s.2 "Cancel-insureds import
 * wizard"): upload the cancellation sheet, match its columns (the policy id column is required and cannot
 * be ignored), match every row to a policy of the uploader's scope as a job (large sheets show progress),
 * review the rows (only errors, delete rows), then proceed: the matched policies go to one cancel
 * amendment of the amendments engine (quote, then confirm), so a sheet cancels exactly as the insureds
 * list's bulk cancel does, dependants included, with its credit note.
 *
 * The file is read with the enrolment import's reader (size, type by its bytes, zip-bomb limits, header
 * row found among the first rows) and kept in R2 with its rows as text beside it, as imports are.
 */
import { and, asc, desc, eq, gt, sql } from 'drizzle-orm';
import { cancellationImports, cancellationRows, jobs, policyAmendments } from '../../../drizzle/schema';
import { idByPublicId, inJson, runBatch } from '../../platform/db';
import { publicId } from '../../platform/crypto';
import { loadLanguages, translate } from '../../platform/i18n';
import { buildWorkbook } from '../../platform/xlsx';
import { cleanFileName, deleteFiles, fileKey } from '../../platform/storage';
import { requirePermission } from '../access/actor';
import { companyForNewRecord } from '../access/finders';
import { visibleCancellationImports } from '../access/scope';
import { logActivity } from '../audit/activity-log';
import type { ActorCtx } from '../context';
import { Conflict, NotFound, ValidationFailed, type FieldError } from '../errors';
import { checkSheetFile, readSheet } from '../imports/files';
import { sourceHeaders } from '../imports/normalise';
import { rowsKey, type StoredRows } from '../imports/service';
import { startJob, toStatus, type JobStatus } from '../jobs/service';
import { countAll, paginate, type Page } from '../lists';
import { msg } from '../validation';
import { CANCEL_HEADERS, suggestCancelMapping } from './matching';
import {
  CANCEL_PERMISSION,
  CANCEL_REVIEW_PAGE_SIZE,
  CANCEL_SAMPLE_ROWS,
  CANCEL_TEMPLATE_COLUMNS,
  MAX_CANCEL_ROWS,
  asCancelMapping,
  type CancelMapping,
  type CancelMappingInput,
  type CancelReviewQuery,
  type CancellationStatus,
  type DeleteCancelRowsInput,
} from './schema';

export type CancellationImportRow = typeof cancellationImports.$inferSelect;

/** The job type of the matching job (registered by staging.ts through the consumer). */
export const STAGE_CANCELLATION_JOB = 'cancellation.stage';

export interface CancellationView {
  id: string;
  status: CancellationStatus;
  file_name: string;
  file_size: number;
  row_count: number;
  headers: string[];
  sample: string[][];
  /** The confirmed mapping, or the suggestion when none is confirmed yet (column index → field). */
  mapping: CancelMapping;
  mapping_confirmed: boolean;
  reason: string | null;
  job: JobStatus | null;
  /** The cancel amendment made when the user proceeded (its public id). */
  amendment_id: string | null;
  message: string | null;
  created_at: string;
}

type Loaded = { imp: CancellationImportRow; job: typeof jobs.$inferSelect | null };

/** A cancellation import by public id, the actor's own (scope.ts), else NotFound. */
export async function findVisibleCancellation(ctx: ActorCtx, id: string): Promise<Loaded> {
  requirePermission(ctx.actor, CANCEL_PERMISSION);
  const [row] = await ctx.db
    .select({ imp: cancellationImports, job: jobs })
    .from(cancellationImports)
    .leftJoin(jobs, eq(jobs.id, cancellationImports.job_id))
    .where(and(eq(cancellationImports.public_id, id), visibleCancellationImports(ctx.actor)))
    .limit(1);
  if (!row) throw new NotFound(msg('cancellations.errors.not_found'));
  return row;
}

/**
 * Refuses any change to a sheet whose cancellation was confirmed (or is being applied by a job): its
 * rows and its quote are what was cancelled.
 */
export async function refuseIfCancelled(ctx: ActorCtx, imp: CancellationImportRow): Promise<void> {
  if (imp.status === 'done') throw new Conflict(msg('cancellations.errors.already_done'));
  if (imp.amendment_id == null) return;
  const [a] = await ctx.db
    .select({ status: policyAmendments.status, job_id: policyAmendments.job_id })
    .from(policyAmendments)
    .where(eq(policyAmendments.id, imp.amendment_id));
  if (a && (a.status === 'confirmed' || a.job_id != null))
    throw new Conflict(msg('cancellations.errors.already_done'));
}

/** A matching import whose job failed (the dead-letter queue marks only the job) is failed. */
function effectiveStatus(row: Loaded): { status: CancellationStatus; message: string | null } {
  if (row.imp.status === 'staging' && row.job?.status === 'failed')
    return { status: 'failed', message: row.job.message ?? msg('cancellations.errors.staging_failed') };
  return { status: row.imp.status, message: row.imp.message };
}

async function amendmentPublicId(ctx: ActorCtx, id: number | null): Promise<string | null> {
  if (id == null) return null;
  const [row] = await ctx.db
    .select({ public_id: policyAmendments.public_id })
    .from(policyAmendments)
    .where(eq(policyAmendments.id, id));
  return row?.public_id ?? null;
}

async function view(ctx: ActorCtx, row: Loaded): Promise<CancellationView> {
  const { imp } = row;
  const { status, message } = effectiveStatus(row);
  return {
    id: imp.public_id,
    status,
    file_name: imp.file_name,
    file_size: imp.file_size,
    row_count: imp.row_count,
    headers: imp.headers,
    sample: imp.sample,
    mapping: asCancelMapping(imp.mapping) ?? suggestCancelMapping(imp.headers),
    mapping_confirmed: !!imp.mapping,
    reason: imp.reason,
    job: row.job ? toStatus(row.job) : null,
    amendment_id: await amendmentPublicId(ctx, imp.amendment_id),
    message,
    created_at: imp.created_at.toISOString(),
  };
}

/** A cancellation import with its suggested (or confirmed) mapping. */
export async function getCancellation(ctx: ActorCtx, id: string): Promise<CancellationView> {
  return view(ctx, await findVisibleCancellation(ctx, id));
}

/** The file messages of a cancellation sheet: the reader's own, with its own "no rows" and limit. */
const CANCEL_SHEET = {
  known: CANCEL_HEADERS,
  noRows: msg('cancellations.errors.no_rows'),
  tooMany: (count: number) => msg('cancellations.errors.too_many', { count, max: MAX_CANCEL_ROWS }),
  maxRows: MAX_CANCEL_ROWS,
};

/**
 * The upload page and the API: checks the file (the spec's file messages), reads its header row and
 * rows, stores both in R2 and creates the import with a sample and its suggested mapping. A company
 * user looking at "all companies" chooses one first: a sheet is matched within one company.
 */
export async function uploadCancellation(ctx: ActorCtx, file: unknown): Promise<CancellationView> {
  requirePermission(ctx.actor, CANCEL_PERMISSION);
  const company = companyForNewRecord(ctx.actor, undefined);
  if (typeof company !== 'number')
    throw ValidationFailed.field('file', msg('cancellations.errors.one_company'));
  const checked = await checkSheetFile(file);
  const sheet = await readSheet(checked, CANCEL_SHEET);

  const key = fileKey(`cancellations/${ctx.actor.public_id}`, checked.name);
  const stored: StoredRows = { headers: sheet.headers, rows: sheet.rows.map((r) => [r.n, ...r.cells]) };
  await Promise.all([
    ctx.env.FILES.put(key, checked.bytes, { customMetadata: { name: checked.name } }),
    ctx.env.FILES.put(rowsKey(key), JSON.stringify(stored), {
      httpMetadata: { contentType: 'application/json' },
    }),
  ]);
  const values = {
    public_id: publicId(),
    company_id: company,
    client_id: ctx.actor.client_id,
    created_by: ctx.actor.user_id,
    status: 'uploaded' as const,
    file_key: key,
    file_name: cleanFileName(checked.name),
    file_size: checked.size,
    file_type: checked.kind,
    headers: sheet.headers,
    sample: sheet.rows.slice(0, CANCEL_SAMPLE_ROWS).map((r) => r.cells),
    row_count: sheet.rows.length,
    created_at: ctx.now,
    updated_at: ctx.now,
  };
  try {
    await runBatch(ctx.db, [
      ctx.db.insert(cancellationImports).values(values),
      logActivity(ctx, {
        entity_type: 'cancellation_import',
        entity_id: idByPublicId(cancellationImports, values.public_id),
        action: 'uploaded',
        after: { file_name: values.file_name, row_count: values.row_count },
        company_id: company,
        client_id: ctx.actor.client_id,
      }),
    ]);
  } catch (e) {
    await deleteFiles(ctx.env.FILES, [key, rowsKey(key)]);
    throw e;
  }
  return getCancellation(ctx, values.public_id);
}

/** The problems of a mapping: a field matched twice; the policy id column missing (the spec's rule). */
export function cancelMappingErrors(mapping: CancelMapping): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  for (const [column, target] of Object.entries(mapping)) {
    if (!target) continue;
    if (seen.has(target))
      errors.push({ key: `columns[${column}]`, message: msg('cancellations.errors.matched_twice') });
    seen.add(target);
  }
  if (!seen.has('policy_id'))
    errors.push({ key: 'columns', message: msg('cancellations.errors.policy_column_required') });
  return errors;
}

const RESTAGEABLE: CancellationStatus[] = ['uploaded', 'failed', 'review'];

/**
 * Confirms the columns and starts the matching job (also again, for a failed import or one under review
 * whose columns the user matches again). Refused while a job runs and after the cancellation was made.
 */
export async function confirmCancelMapping(
  ctx: ActorCtx,
  id: string,
  input: CancelMappingInput,
): Promise<CancellationView> {
  const row = await findVisibleCancellation(ctx, id);
  const { imp } = row;
  const current = effectiveStatus(row).status;
  await refuseIfCancelled(ctx, imp);
  if (!RESTAGEABLE.includes(current)) throw new Conflict(msg('cancellations.errors.busy'));
  const mapping: CancelMapping = {};
  for (let i = 0; i < imp.headers.length; i++) mapping[String(i)] = input.columns[i] ?? null;
  const errors = cancelMappingErrors(mapping);
  if (errors.length) throw new ValidationFailed(errors);

  const [claimed] = await ctx.db
    .update(cancellationImports)
    // A quote made from the earlier rows is dropped: proceeding quotes the rows as matched now.
    .set({ mapping, status: 'staging', message: null, job_id: null, amendment_id: null, updated_at: ctx.now })
    // Of two confirmations at once, only the first starts a job.
    .where(and(eq(cancellationImports.id, imp.id), eq(cancellationImports.updated_at, imp.updated_at)))
    .returning({ id: cancellationImports.id });
  if (!claimed) throw new Conflict(msg('cancellations.errors.busy'));
  const job = await startJob(ctx, {
    type: STAGE_CANCELLATION_JOB,
    payload: { cancellation_id: imp.id },
    total: imp.row_count,
  });
  await runBatch(ctx.db, [
    ctx.db
      .update(cancellationImports)
      .set({ job_id: idByPublicId(jobs, job.id) })
      .where(eq(cancellationImports.id, imp.id)),
    logActivity(ctx, {
      entity_type: 'cancellation_import',
      entity_id: imp.id,
      action: 'mapping_confirmed',
      after: { mapping },
      company_id: imp.company_id,
      client_id: imp.client_id,
    }),
  ]);
  return getCancellation(ctx, id);
}

/** What the progress page polls. */
export async function cancellationProgress(ctx: ActorCtx, id: string) {
  const v = await getCancellation(ctx, id);
  const ready = v.status === 'review' || v.status === 'done';
  return {
    id: v.id,
    status: v.status,
    message: v.message,
    row_count: v.row_count,
    done: ready ? v.row_count : (v.job?.done ?? 0),
    total: v.job?.total || v.row_count,
    errors: v.job?.error_count ?? 0,
    percent: ready ? 100 : (v.job?.percent ?? 0),
  };
}

// ------------------------------------------------------------------ review

export interface CancelReviewRow {
  /** The sheet's row number. */
  row: number;
  policy_number: string | null;
  /** The last name the sheet gives, if a column holds it. */
  sheet_last_name: string | null;
  policy: {
    id: string;
    first_name: string;
    last_name: string;
    start_date: string;
    end_date: string;
    type: string;
  } | null;
  errors: { field: string; message: string }[];
}

export interface CancelCounts {
  total: number;
  with_errors: number;
}

async function counts(ctx: ActorCtx, importId: number): Promise<CancelCounts> {
  const [c] = await ctx.db
    .select({
      total: sql<number>`count(*)`,
      with_errors: sql<number>`coalesce(sum(case when ${cancellationRows.error_count} > 0 then 1 else 0 end), 0)`,
    })
    .from(cancellationRows)
    .where(eq(cancellationRows.import_id, importId));
  return { total: Number(c?.total ?? 0), with_errors: Number(c?.with_errors ?? 0) };
}

/** A row's stored errors as messages (keys with parameters, as `msg` makes them). */
const rowErrors = (errors: { field: string; message: string; params?: Record<string, string | number> }[]) =>
  errors.map((e) => ({ field: e.field, message: e.params ? msg(e.message, e.params) : e.message }));

/** The review grid: the matched rows, 50 a page, or only those with errors. */
export async function cancelReviewPage(
  ctx: ActorCtx,
  id: string,
  query: CancelReviewQuery,
): Promise<{ view: CancellationView; rows: Page<CancelReviewRow>; counts: CancelCounts }> {
  const row = await findVisibleCancellation(ctx, id);
  const where = and(
    eq(cancellationRows.import_id, row.imp.id),
    query.errors_only ? gt(cancellationRows.error_count, 0) : undefined,
  );
  // A page past the last (rows deleted since) answers the last.
  const rows = paginate(
    ctx.db,
    { page: query.page, items: CANCEL_REVIEW_PAGE_SIZE },
    {
      rows: (limit, offset) =>
        ctx.db
          .select({
            position: cancellationRows.position,
            policy_number: cancellationRows.policy_number,
            source: cancellationRows.source,
            errors: cancellationRows.errors,
            p_id: sql<string | null>`p.public_id`,
            p_first: sql<string | null>`p.first_name`,
            p_last: sql<string | null>`p.last_name`,
            p_start: sql<string | null>`p.start_date`,
            p_end: sql<string | null>`p.end_date`,
            p_type: sql<string | null>`p.type`,
          })
          .from(cancellationRows)
          .leftJoin(sql`policies p`, sql`p.id = ${cancellationRows.policy_id}`)
          .where(where)
          .orderBy(asc(cancellationRows.position))
          .limit(limit)
          .offset(offset),
      count: ctx.db.select({ total: countAll }).from(cancellationRows).where(where),
      lastAtMost: true,
    },
  );
  const [v, c, page] = await Promise.all([view(ctx, row), counts(ctx, row.imp.id), rows]);
  const lastNameHeader = lastNameColumn(row.imp);
  return {
    view: v,
    counts: c,
    rows: {
      items: page.items.map((r) => ({
        row: r.position,
        policy_number: r.policy_number,
        sheet_last_name: lastNameHeader != null ? (r.source?.[lastNameHeader] ?? null) : null,
        policy: r.p_id
          ? {
              id: r.p_id,
              first_name: r.p_first ?? '',
              last_name: r.p_last ?? '',
              start_date: r.p_start ?? '',
              end_date: r.p_end ?? '',
              type: r.p_type ?? '',
            }
          : null,
        errors: rowErrors(r.errors),
      })),
      meta: page.meta,
    },
  };
}

/** The header of the column matched to the last name, if any (rows keep their cells by header). */
function lastNameColumn(imp: CancellationImportRow): string | null {
  const mapping = asCancelMapping(imp.mapping) ?? {};
  const index = Object.entries(mapping).find(([, t]) => t === 'last_name')?.[0];
  return index != null ? (sourceHeaders(imp.headers)[Number(index)] ?? null) : null;
}

/** Deletes rows from the review (the chosen ones by row number, or every row with errors). */
export async function deleteCancelRows(
  ctx: ActorCtx,
  id: string,
  input: DeleteCancelRowsInput,
): Promise<{ deleted: number }> {
  const { imp } = await findVisibleCancellation(ctx, id);
  await refuseIfCancelled(ctx, imp);
  if (imp.status !== 'review') throw new Conflict(msg('cancellations.errors.not_in_review'));
  if (!input.errored && !input.rows.length)
    throw ValidationFailed.field('rows', msg('cancellations.errors.none_selected'));
  const deleted = await ctx.db
    .delete(cancellationRows)
    .where(
      and(
        eq(cancellationRows.import_id, imp.id),
        input.errored ? gt(cancellationRows.error_count, 0) : inJson(cancellationRows.position, input.rows),
      ),
    )
    .returning({ id: cancellationRows.id });
  if (deleted.length)
    await ctx.db.batch([
      // The rows changed: a quote made from them is dropped.
      ctx.db
        .update(cancellationImports)
        .set({ amendment_id: null, updated_at: ctx.now })
        .where(eq(cancellationImports.id, imp.id)),
      logActivity(ctx, {
        entity_type: 'cancellation_import',
        entity_id: imp.id,
        action: 'rows_deleted',
        after: { deleted: deleted.length, errored: input.errored },
        company_id: imp.company_id,
        client_id: imp.client_id,
      }),
    ]);
  return { deleted: deleted.length };
}

/** The matched policies of an import with no row errors left (what proceeding cancels), by id. */
export async function matchedPolicyIds(ctx: ActorCtx, importId: number): Promise<number[]> {
  const rows = await ctx.db
    .select({ policy_id: cancellationRows.policy_id })
    .from(cancellationRows)
    .where(and(eq(cancellationRows.import_id, importId), eq(cancellationRows.error_count, 0)))
    .orderBy(asc(cancellationRows.position));
  return rows.map((r) => r.policy_id).filter((x): x is number => x != null);
}

/** The user's recent cancellation imports (continue links on the upload page). */
export async function recentCancellations(ctx: ActorCtx, limit = 5) {
  requirePermission(ctx.actor, CANCEL_PERMISSION);
  const rows = await ctx.db
    .select({ imp: cancellationImports, job: jobs })
    .from(cancellationImports)
    .leftJoin(jobs, eq(jobs.id, cancellationImports.job_id))
    .where(visibleCancellationImports(ctx.actor))
    .orderBy(desc(cancellationImports.updated_at), desc(cancellationImports.id))
    .limit(limit);
  return rows.map((r) => ({
    id: r.imp.public_id,
    status: effectiveStatus(r).status,
    file_name: r.imp.file_name,
    row_count: r.imp.row_count,
    amended: r.imp.amendment_id != null,
    created_at: r.imp.created_at.toISOString(),
  }));
}

/** The cancellation template (.xlsx): its headers in the reader's language, which matching knows in all. */
export async function cancellationTemplate(lang: string): Promise<ArrayBuffer> {
  await loadLanguages([lang]);
  return buildWorkbook([
    {
      name: translate(lang, 'cancellations.template.sheet'),
      columns: CANCEL_TEMPLATE_COLUMNS.map((key) => ({
        key,
        header: translate(lang, `cancellations.template.columns.${key}`),
        width: 24,
      })),
      rows: [],
    },
  ]);
}
