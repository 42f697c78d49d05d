/**
 * Spreadsheet imports (ARCHITECTURE.md "Spreadsheet import"): upload, column matching and the start of
 * the staging job. The job itself is in staging.ts, the review grid in review.ts.
 *
 * An import belongs to a campus and a contract (the product chosen on the order page); everything about
 * it is read in the actor's campus scope, so another tenant's import is "not found".
 *
 * Storage: the file as uploaded goes to R2 under `imports/…`, and beside it (`….rows.json`) its rows
 * as text, read once here with exceljs, so the staging job does not parse the sheet a second time.
 */
import { and, desc, eq, isNotNull, ne, sql } from 'drizzle-orm';
import {
  campuses,
  clients,
  contracts,
  countries,
  imports,
  jobs,
  policyBatches,
  products,
} from '../../../drizzle/schema';
import { idByPublicId, inJson, runBatch, type DB } from '../../platform/db';
import { publicId } from '../../platform/crypto';
import { cleanFileName, deleteFiles, fileKey } from '../../platform/storage';
import { requirePermission } from '../access/actor';
import { logActivity } from '../audit/activity-log';
import { visibleCampus } from '../access/scope';
import type { ActorCtx } from '../context';
import { ORDER_PERMISSION, orderableContract } from '../enrollments/batches';
import { Conflict, NotFound, ValidationFailed, type FieldError } from '../errors';
import { startJob, toStatus, type JobStatus } from '../jobs/service';
import { msg } from '../validation';
import { checkSheetFile, readSheet, type Sheet } from './files';
import { rememberedMapping, suggestMapping, toMapping, type MatchSource } from './matching';
import { guessDateOrder } from './normalise';
import {
  DATE_TARGETS,
  REQUIRED_TARGETS,
  asMapping,
  SAMPLE_ROWS,
  type ColumnMapping,
  type DateOrder,
  type ImportStatus,
  type ImportTarget,
  type MappingInput,
} from './schema';

export type ImportRow = typeof imports.$inferSelect;

/** The job type of the staging job (registered by staging.ts). */
export const STAGE_IMPORT_JOB = 'import.stage';

/** The parsed rows stored beside the file. */
export interface StoredRows {
  headers: string[];
  /** [sheet row number, ...cells] */
  rows: [number, ...string[]][];
}

export const rowsKey = (fileKey: string) => `${fileKey}.rows.json`;

export interface ImportView {
  id: string;
  status: ImportStatus;
  file_name: string;
  file_type: 'xlsx' | 'csv';
  file_size: number;
  row_count: number;
  headers: string[];
  sample: string[][];
  /** The confirmed mapping, or the suggestion when none is confirmed yet (column index → field). */
  mapping: ColumnMapping;
  /** How each column's suggestion was made (previous import, exact or synonym, fuzzy, none). */
  sources: MatchSource[];
  mapping_confirmed: boolean;
  date_order: DateOrder;
  campus: { id: string; name: string; country_id: number | null; country_name: string | null };
  contract: { id: string; name: string; product_name: string };
  client: { id: string; name: string };
  job: JobStatus | null;
  batch_id: string | null;
  message: string | null;
  created_at: string;
}

type Loaded = {
  imp: ImportRow;
  campus: { public_id: string; name: string; country_id: number | null };
  client: { public_id: string; name: string };
  contract: { public_id: string; name: string };
  product_name: string;
  country_name: string | null;
  job: typeof jobs.$inferSelect | null;
  batch_public_id: string | null;
};

/** An import by public id in the actor's campus scope (with what its pages show), else NotFound. */
export async function findVisibleImport(ctx: ActorCtx, id: string): Promise<Loaded> {
  requirePermission(ctx.actor, ORDER_PERMISSION);
  const [row] = await ctx.db
    .select({
      imp: imports,
      campus: { public_id: campuses.public_id, name: campuses.name, country_id: campuses.country_id },
      client: { public_id: clients.public_id, name: clients.name },
      contract: { public_id: contracts.public_id, name: contracts.name },
      product_name: products.name,
      country_name: countries.name,
      job: jobs,
      batch_public_id: policyBatches.public_id,
    })
    .from(imports)
    .innerJoin(campuses, eq(campuses.id, imports.campus_id))
    .innerJoin(clients, eq(clients.id, campuses.client_id))
    .innerJoin(contracts, eq(contracts.id, imports.contract_id))
    .innerJoin(products, eq(products.id, contracts.product_id))
    .leftJoin(countries, eq(countries.id, campuses.country_id))
    .leftJoin(jobs, eq(jobs.id, imports.job_id))
    .leftJoin(policyBatches, eq(policyBatches.id, imports.batch_id))
    .where(and(eq(imports.public_id, id), visibleCampus(ctx.actor)))
    .limit(1);
  if (!row) throw new NotFound(msg('imports.errors.not_found'));
  return row as Loaded;
}

/**
 * The status a person sees: a staging import whose job failed (the dead-letter queue marks only the
 * job) is failed, with the job's reason.
 */
function effectiveStatus(
  imp: ImportRow,
  job: Loaded['job'],
): { status: ImportStatus; message: string | null } {
  if (imp.status === 'staging' && job?.status === 'failed')
    return { status: 'failed', message: job.message ?? msg('imports.errors.staging_failed') };
  return { status: imp.status, message: imp.message };
}

/** The mapping this client confirmed last time (its newest import with a mapping), by header. */
async function previousMapping(db: DB, clientId: number, exceptId: number) {
  const [last] = await db
    .select({ headers: imports.headers, mapping: imports.mapping })
    .from(imports)
    .where(and(eq(imports.client_id, clientId), isNotNull(imports.mapping), ne(imports.id, exceptId)))
    .orderBy(desc(imports.updated_at), desc(imports.id))
    .limit(1);
  return last ? rememberedMapping(last.headers, asMapping(last.mapping)) : undefined;
}

function view(
  row: Loaded,
  suggestion: { mapping: ColumnMapping; sources: MatchSource[] } | null,
): ImportView {
  const { imp } = row;
  const { status, message } = effectiveStatus(imp, row.job);
  return {
    id: imp.public_id,
    status,
    file_name: imp.file_name,
    file_type: imp.file_type,
    file_size: imp.file_size,
    row_count: imp.row_count,
    headers: imp.headers,
    sample: imp.sample,
    mapping: asMapping(imp.mapping) ?? suggestion?.mapping ?? {},
    sources: imp.mapping ? imp.headers.map(() => 'previous' as const) : (suggestion?.sources ?? []),
    mapping_confirmed: !!imp.mapping,
    date_order: imp.date_order,
    campus: {
      id: row.campus.public_id,
      name: row.campus.name,
      country_id: row.campus.country_id,
      country_name: row.country_name,
    },
    contract: { id: row.contract.public_id, name: row.contract.name, product_name: row.product_name },
    client: { id: row.client.public_id, name: row.client.name },
    job: row.job ? toStatus(row.job) : null,
    batch_id: row.batch_public_id,
    message,
    created_at: imp.created_at.toISOString(),
  };
}

/** An import with its suggested (or confirmed) mapping: what the match-columns page and the API show. */
export async function getImport(ctx: ActorCtx, id: string): Promise<ImportView> {
  const row = await findVisibleImport(ctx, id);
  if (row.imp.mapping) return view(row, null);
  const matches = suggestMapping(
    row.imp.headers,
    await previousMapping(ctx.db, row.imp.client_id, row.imp.id),
  );
  return view(row, { mapping: toMapping(matches), sources: matches.map((m) => m.source) });
}

/** The day/month order the sheet's slash dates follow, DD/MM unless the values say otherwise. */
function dateOrderOf(sheet: Sheet): DateOrder {
  return guessDateOrder(sheet.rows.flatMap((r) => r.cells)) ?? 'dmy';
}

/**
 * campuses/{id}/policies/preview/batch and the upload page: checks the file (spec messages), reads its
 * header row and rows, stores the file and its rows in R2 and creates the import with the header row, a
 * sample and the row count. Answers the import with its suggested mapping.
 */
export async function uploadImport(
  ctx: ActorCtx,
  input: { campus_id: string; contract_id: string },
  file: unknown,
): Promise<ImportView> {
  requirePermission(ctx.actor, ORDER_PERMISSION);
  const { campus, client, contract } = await orderableContract(
    ctx,
    input.campus_id,
    input.contract_id,
    msg('imports.errors.contract_unavailable'),
  );

  const checked = await checkSheetFile(file);
  const sheet = await readSheet(checked);

  const key = fileKey(`imports/${client.public_id}/${campus.public_id}`, checked.name);
  const stored: StoredRows = { headers: sheet.headers, rows: sheet.rows.map((r) => [r.n, ...r.cells]) };
  const contentType =
    checked.kind === 'xlsx'
      ? 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'
      : 'text/csv';
  await Promise.all([
    ctx.env.FILES.put(key, checked.bytes, {
      httpMetadata: { contentType },
      customMetadata: { name: checked.name },
    }),
    ctx.env.FILES.put(rowsKey(key), JSON.stringify(stored), {
      httpMetadata: { contentType: 'application/json' },
    }),
  ]);
  const values = {
    public_id: publicId(),
    company_id: client.company_id,
    client_id: client.id,
    campus_id: campus.id,
    contract_id: contract.contract_id,
    created_by: ctx.actor.user_id,
    status: 'uploaded' as const,
    file_key: key,
    file_name: cleanFileName(checked.name),
    file_size: checked.size,
    file_type: checked.kind,
    headers: sheet.headers,
    sample: sheet.rows.slice(0, SAMPLE_ROWS).map((r) => r.cells),
    row_count: sheet.rows.length,
    date_order: dateOrderOf(sheet),
    created_at: ctx.now,
    updated_at: ctx.now,
  };
  try {
    const [created] = await ctx.db.batch([
      ctx.db.insert(imports).values(values).returning({ id: imports.id }),
    ]);
    await ctx.db.batch([
      logActivity(ctx, {
        entity_type: 'import',
        entity_id: created[0].id,
        action: 'uploaded',
        after: { file_name: values.file_name, row_count: values.row_count, campus_id: campus.id },
        company_id: client.company_id,
        client_id: client.id,
      }),
    ]);
  } catch (e) {
    await deleteFiles(ctx.env.FILES, [key, rowsKey(key)]);
    throw e;
  }
  return getImport(ctx, values.public_id);
}

/** The problems of a mapping: a field matched twice, a required field not matched. */
export function mappingErrors(
  mapping: ColumnMapping,
  opts: { destinationFromCampus: boolean },
): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Map<ImportTarget, string>();
  for (const [column, target] of Object.entries(mapping)) {
    if (!target) continue;
    if (seen.has(target))
      errors.push({ key: `columns[${column}]`, message: msg('imports.errors.matched_twice') });
    else seen.set(target, column);
  }
  for (const t of REQUIRED_TARGETS) {
    if (seen.has(t)) continue;
    if (t === 'destination_country_id' && opts.destinationFromCampus) continue;
    errors.push({ key: 'columns', message: msg(`imports.errors.missing.${t}`) });
  }
  return errors;
}

/** The confirmable mapping of a form or API payload: `columns[i]` by column index. */
export function mappingOf(input: MappingInput, columnCount: number): ColumnMapping {
  const mapping: ColumnMapping = {};
  for (let i = 0; i < columnCount; i++) mapping[String(i)] = input.columns[i] ?? null;
  return mapping;
}

/** Statuses from which a mapping may be (re)confirmed and the rows staged. */
const RESTAGEABLE: ImportStatus[] = ['uploaded', 'failed', 'review'];

/**
 * Confirms the column mapping and day/month order, and starts the staging job. Also re-runs a failed
 * import, or one under review whose columns the user wants to match again (its draft batch is removed
 * first). Refused while a staging job runs.
 */
export async function confirmMapping(ctx: ActorCtx, id: string, input: MappingInput): Promise<ImportView> {
  const row = await findVisibleImport(ctx, id);
  const { imp } = row;
  const current = effectiveStatus(imp, row.job).status;
  if (current === 'done') throw new Conflict(msg('imports.errors.in_cart'));
  if (!RESTAGEABLE.includes(current)) throw new Conflict(msg('imports.errors.busy'));
  const mapping = mappingOf(input, imp.headers.length);
  const errors = mappingErrors(mapping, { destinationFromCampus: row.campus.country_id != null });
  if (errors.length) throw new ValidationFailed(errors);

  await discardStagedBatches(ctx.db, imp.id);
  const [claimed] = await ctx.db
    .update(imports)
    .set({
      mapping,
      date_order: input.date_order,
      status: 'staging',
      message: null,
      batch_id: null,
      job_id: null,
      updated_at: ctx.now,
    })
    // The row as read: of two confirmations at once, only the first starts a job.
    .where(and(eq(imports.id, imp.id), eq(imports.updated_at, imp.updated_at)))
    .returning({ id: imports.id });
  if (!claimed) throw new Conflict(msg('imports.errors.busy'));
  const job = await startJob(ctx, {
    type: STAGE_IMPORT_JOB,
    payload: { import_id: imp.id },
    total: imp.row_count,
  });
  await ctx.db.batch([
    ctx.db
      .update(imports)
      .set({ job_id: idByPublicId(jobs, job.id) })
      .where(eq(imports.id, imp.id)),
    logActivity(ctx, {
      entity_type: 'import',
      entity_id: imp.id,
      action: 'mapping_confirmed',
      after: { mapping, date_order: input.date_order },
      company_id: imp.company_id,
      client_id: imp.client_id,
    }),
  ]);
  return getImport(ctx, id);
}

/**
 * Removes the draft batches an import's staging wrote (a failed or repeated run), with their
 * enrollments, in one batch. Batches already in the cart are never touched.
 */
export async function discardStagedBatches(db: DB, importId: number): Promise<void> {
  const drafts = await db
    .select({ id: policyBatches.id })
    .from(policyBatches)
    .where(and(eq(policyBatches.import_id, importId), eq(policyBatches.status, 'draft')));
  if (!drafts.length) return;
  const ids = drafts.map((d) => d.id);
  await runBatch(db, [
    db.run(sql`DELETE FROM enrollments WHERE ${inJson(sql`batch_id`, ids)}`),
    db.run(sql`DELETE FROM policy_batches WHERE ${inJson(sql`id`, ids)} AND status = 'draft'`),
  ]);
}

/** What the progress page polls: the import's status and its job's progress. */
export async function importProgress(ctx: ActorCtx, id: string) {
  const v = await getImport(ctx, id);
  return {
    id: v.id,
    status: v.status,
    message: v.message,
    row_count: v.row_count,
    done: v.job?.done ?? (v.status === 'review' || v.status === 'done' ? v.row_count : 0),
    total: v.job?.total || v.row_count,
    errors: v.job?.error_count ?? 0,
    percent: v.status === 'review' || v.status === 'done' ? 100 : (v.job?.percent ?? 0),
    batch_id: v.batch_id,
    /** When the staging job ended, ISO 8601 (null while it runs). */
    finished_at: v.job?.finished_at ?? null,
  };
}

/**
 * The actor's imports still under way (uploaded, staging, under review, failed; or those of `statuses`),
 * newest first: "continue" links. A staging import whose job failed is failed.
 */
export async function activeImports(
  ctx: ActorCtx,
  opts: { campus_id?: string; statuses?: ImportStatus[] } = {},
  limit = 5,
) {
  requirePermission(ctx.actor, ORDER_PERMISSION);
  const rows = await ctx.db
    .select({
      id: imports.public_id,
      status: imports.status,
      file_name: imports.file_name,
      row_count: imports.row_count,
      created_at: imports.created_at,
      campus_name: campuses.name,
      campus_id: campuses.public_id,
      job_status: jobs.status,
      batch_id: policyBatches.public_id,
    })
    .from(imports)
    .innerJoin(campuses, eq(campuses.id, imports.campus_id))
    .innerJoin(clients, eq(clients.id, campuses.client_id))
    .leftJoin(jobs, eq(jobs.id, imports.job_id))
    .leftJoin(policyBatches, eq(policyBatches.id, imports.batch_id))
    .where(
      and(
        eq(imports.created_by, ctx.actor.user_id),
        inJson(imports.status, opts.statuses ?? ['uploaded', 'staging', 'review', 'failed']),
        // An import under review whose order was discarded is not in progress any more.
        sql`not (${imports.status} = 'review' and ${policyBatches.id} is null)`,
        visibleCampus(ctx.actor),
        opts.campus_id ? eq(campuses.public_id, opts.campus_id) : undefined,
      ),
    )
    .orderBy(desc(imports.updated_at), desc(imports.id))
    .limit(limit);
  return rows.map((r) => ({
    id: r.id,
    status: (r.status === 'staging' && r.job_status === 'failed' ? 'failed' : r.status) as ImportStatus,
    file_name: r.file_name,
    row_count: r.row_count,
    created_at: r.created_at.toISOString(),
    campus: { id: r.campus_id, name: r.campus_name },
    batch_id: r.batch_id,
  }));
}

/** The fields whose values are read as dates, for the match page's preview. */
export const DATE_FIELDS: readonly ImportTarget[] = DATE_TARGETS;
