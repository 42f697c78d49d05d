/**
 * The matching job of a cancellation sheet (queue job `cancellation.stage`): each row's policy id is
 * looked up among the policies the uploader may see (visiblePolicies: a sheet can never name a policy
 * of another tenant; such a row is "unknown"), and checked: a policy id given, known, not named twice,
 * not cancelled already, not started ('You can only cancel policies that have not yet started'), and the
 * last name matching where the sheet gives one. The rows are written with their errors, replacing those
 * of an earlier run, in steps that report progress; then the import is under review.
 *
 * Idempotent: a delivery for a job that is not running for this import does nothing, and a run starts
 * by removing what an earlier run of the same import wrote.
 */
import { and, eq } from 'drizzle-orm';
import { cancellationImports, cancellationRows } from '../../../drizzle/schema';
import type { Env } from '../../env';
import { bulkInsert, chunk, runBatch, type DB } from '../../platform/db';
import { formatMessage } from '../../platform/i18n';
import { loadActor } from '../access/actor';
import type { ActorCtx } from '../context';
import { simplify, sourceCells, sourceHeaders } from '../imports/normalise';
import { rowsKey, type StoredRows } from '../imports/service';
import { failJob, reportProgress, type Job } from '../jobs/service';
import { policiesByNumber, policyNumberOf, type NumberedPolicy } from '../policies/by-number';
import { todayIso } from '../validation';
import { asCancelMapping, type CancelMapping } from './schema';
import type { CancellationImportRow } from './service';

export interface RowError {
  field: string;
  message: string;
  params?: Record<string, string | number>;
}

export interface MatchedRow {
  position: number;
  policy_number: string | null;
  policy_id: number | null;
  errors: RowError[];
  source: Record<string, string>;
}

/**
 * The rows of a sheet matched to policies (pure but for the look-up's answer): every rule of a row in
 * one place, so the domain test names each.
 */
export function matchRows(
  stored: StoredRows,
  mapping: CancelMapping,
  found: Map<string, NumberedPolicy>,
): MatchedRow[] {
  const column = (t: string) => {
    const i = Object.entries(mapping).find(([, v]) => v === t)?.[0];
    return i == null ? -1 : Number(i);
  };
  const policyCol = column('policy_id');
  const nameCol = column('last_name');
  const headers = sourceHeaders(stored.headers);
  const firstRow = new Map<string, number>();
  return stored.rows.map(([n, ...cells]) => {
    const number = policyNumberOf(policyCol >= 0 ? cells[policyCol] : '') || null;
    const errors: RowError[] = [];
    const policy = number ? found.get(number) : undefined;
    if (!number) errors.push({ field: 'policy_id', message: 'cancellations.errors.policy_required' });
    else if (!policy) errors.push({ field: 'policy_id', message: 'cancellations.errors.unknown_policy' });
    else if (firstRow.has(number))
      errors.push({
        field: 'policy_id',
        message: 'cancellations.errors.duplicate',
        params: { row: firstRow.get(number)! },
      });
    else if (policy.status === 'cancelled')
      errors.push({ field: 'policy_id', message: 'cancellations.errors.already_cancelled' });
    else if (policy.status !== 'not_started')
      errors.push({ field: 'policy_id', message: 'cancellations.errors.started' });
    if (number && policy && !firstRow.has(number)) firstRow.set(number, n);
    const lastName = nameCol >= 0 ? (cells[nameCol] ?? '').trim() : '';
    if (policy && lastName && simplify(lastName) !== simplify(policy.last_name))
      errors.push({ field: 'last_name', message: 'cancellations.errors.last_name_mismatch' });
    return {
      position: n,
      policy_number: number,
      policy_id: policy?.id ?? null,
      errors,
      source: sourceCells(cells, headers),
    };
  });
}

/** Rows written per step (one progress report each): a 5000-row sheet in about five steps. */
const STEP = 1000;

async function markFailed(db: DB, imp: CancellationImportRow, jobId: number, message: string) {
  await db
    .update(cancellationImports)
    .set({ status: 'failed', message, updated_at: new Date() })
    .where(and(eq(cancellationImports.id, imp.id), eq(cancellationImports.status, 'staging')));
  await failJob(db, jobId, formatMessage(message));
}

/** The queue runner of `cancellation.stage`. */
export async function runCancellationStaging(
  db: DB,
  env: Env,
  job: Job,
): Promise<Record<string, unknown> | null> {
  const id = Number((job.payload as { cancellation_id?: number } | null)?.cancellation_id);
  const [imp] = await db.select().from(cancellationImports).where(eq(cancellationImports.id, id)).limit(1);
  if (!imp || imp.status !== 'staging' || (imp.job_id != null && imp.job_id !== job.id))
    return { skipped: true };
  const actor = await loadActor(db, imp.created_by, { selectedCompanyId: imp.company_id });
  if (!actor) {
    await markFailed(db, imp, job.id, 'cancellations.errors.user_inactive');
    return null;
  }
  const ctx: ActorCtx = { db, env, now: new Date(), actor };
  const file = await env.FILES.get(rowsKey(imp.file_key));
  if (!file) {
    await markFailed(db, imp, job.id, 'cancellations.errors.file_missing');
    return null;
  }
  const stored = (await file.json()) as StoredRows;
  const mapping = asCancelMapping(imp.mapping) ?? {};
  const policyCol = Number(Object.entries(mapping).find(([, v]) => v === 'policy_id')?.[0] ?? -1);
  const numbers = stored.rows.map(([, ...cells]) => policyNumberOf(cells[policyCol]));
  const found = await policiesByNumber(ctx, numbers, todayIso(ctx.now));
  const rows = matchRows(stored, mapping, found);

  await db.delete(cancellationRows).where(eq(cancellationRows.import_id, imp.id));
  await reportProgress(db, job.id, { done: 0, total: rows.length, errors: 0 });
  let done = 0;
  let withErrors = 0;
  for (const part of chunk(rows, STEP)) {
    await runBatch(
      db,
      bulkInsert(
        db,
        cancellationRows,
        part.map((r) => ({
          import_id: imp.id,
          position: r.position,
          policy_number: r.policy_number,
          policy_id: r.policy_id,
          errors: r.errors,
          error_count: r.errors.length,
          source: r.source,
        })),
      ),
    );
    done += part.length;
    withErrors += part.filter((r) => r.errors.length).length;
    await reportProgress(db, job.id, { done, errors: withErrors });
  }
  await db
    .update(cancellationImports)
    .set({ status: 'review', message: null, updated_at: new Date() })
    .where(and(eq(cancellationImports.id, imp.id), eq(cancellationImports.status, 'staging')));
  return { total: rows.length, with_errors: withErrors };
}
