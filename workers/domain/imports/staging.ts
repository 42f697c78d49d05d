/**
 * The staging job of an import (queue job `import.stage`): reads the stored rows, turns each into an
 * applicant by the confirmed mapping, and stages them into a new draft policy batch (stageNewBatch:
 * every rule checked, then written in steps, reporting rows done and errors so far); then puts the
 * import in review.
 *
 * Never half-staged: the batch stays invisible (the import names it only once every row is in), and a
 * run that fails removes what it wrote before the error goes back to the queue. A run also starts by
 * removing what an earlier, interrupted run of the same import left. A failure no retry can cure (the
 * product is no longer available, the file is gone) marks the import and its job failed at once with a
 * reason the user understands; the dead-letter queue fails the job after the last retry of any other.
 *
 * Idempotent: a delivery for a job that is not queued changes nothing (claimJob), and a job whose import
 * is no longer staging under it does nothing.
 */
import { and, eq, sql } from 'drizzle-orm';
import { campuses, contracts, countries, imports } from '../../../drizzle/schema';
import type { Env } from '../../env';
import { runBatch, type DB } from '../../platform/db';
import { loadActor } from '../access/actor';
import type { ActorCtx } from '../context';
import { batchRules, createBatch } from '../enrollments/batches';
import { stageNewBatch, type StagedRow } from '../enrollments/staging';
import { isDomainError, ValidationFailed } from '../errors';
import { failJob, reportProgress, type Job } from '../jobs/service';
import { formatMessage } from '../../platform/i18n';
import { notify } from '../notifications/service';
import { msg } from '../validation';
import { readSheet } from './files';
import { CountryIndex, readRow, simplify, sourceCells, sourceHeaders } from './normalise';
import { discardStagedBatches, rowsKey, type ImportRow, type StoredRows } from './service';
import { IMPORT_STEP_PATHS } from './steps';
import { MAX_APPLICANTS, asMapping } from './schema';

/**
 * Rows staged per step: each step is one all-or-nothing write and one progress report. A sheet is
 * staged in at most four steps (5000 rows: 1250 a step).
 */
export function stageChunk(rows: number): number {
  return Math.max(500, Math.ceil(rows / 4));
}

/** A failure that retrying cannot cure: the import fails at once with this message. */
class Permanent extends Error {}

async function storedRows(env: Env, imp: ImportRow): Promise<StoredRows> {
  const json = await env.FILES.get(rowsKey(imp.file_key));
  if (json) return (await json.json()) as StoredRows;
  // Rows not stored (an import from before they were): read the file itself.
  const file = await env.FILES.get(imp.file_key);
  if (!file) throw new Permanent(msg('imports.errors.file_missing'));
  const sheet = await readSheet({ bytes: new Uint8Array(await file.arrayBuffer()), kind: imp.file_type });
  return { headers: sheet.headers, rows: sheet.rows.map((r) => [r.n, ...r.cells]) };
}

/** The applicants of the stored rows, in sheet order, with the group leader each names. */
export function stagedRows(
  stored: StoredRows,
  imp: Pick<ImportRow, 'mapping' | 'date_order'>,
  countries: CountryIndex,
  defaultDestinationId: number | null,
  today: string,
): StagedRow[] {
  const rc = {
    mapping: asMapping(imp.mapping) ?? {},
    headers: sourceHeaders(stored.headers),
    dateOrder: imp.date_order,
    countries,
    defaultDestinationId,
    today,
  };
  const read = stored.rows.map(([n, ...cells]) => ({ n, cells, ...readRow(cells, rc) }));
  // Group leaders by email and by full name, for the Group Leader column of the other rows.
  const leaders = new Map<string, number>();
  for (const r of read) {
    if (r.raw.type !== 'group_leader') continue;
    if (typeof r.raw.email === 'string') leaders.set(r.raw.email.trim().toLowerCase(), r.n);
    const name = simplify(`${r.raw.first_name ?? ''} ${r.raw.last_name ?? ''}`);
    if (name && !leaders.has(name)) leaders.set(name, r.n);
  }
  return read.map((r) => {
    const ref = r.leaderRef
      ? (leaders.get(r.leaderRef.trim().toLowerCase()) ?? leaders.get(simplify(r.leaderRef)))
      : undefined;
    return {
      position: r.n,
      raw: r.raw,
      source: () => sourceCells(r.cells, rc.headers),
      group_leader_position: ref != null && ref !== r.n && r.raw.type !== 'group_leader' ? ref : null,
    };
  });
}

/** Tells whoever uploaded the sheet that it is staged or failed, with a link to the step that goes on. */
function toldUploader(db: DB, imp: ImportRow, outcome: 'review' | 'failed', now: Date) {
  if (!imp.created_by) return [];
  return notify(
    { db, now },
    {
      user_ids: [imp.created_by],
      key: outcome === 'review' ? 'import_ready' : 'import_failed',
      params: { file: imp.file_name },
      to: `${IMPORT_STEP_PATHS[outcome === 'review' ? 'review' : 'format']}?import=${imp.public_id}`,
      client_id: imp.client_id,
      campus_id: imp.campus_id,
      when: sql`EXISTS (SELECT 1 FROM imports WHERE id = ${imp.id} AND status = ${outcome})`,
    },
  );
}

async function markFailed(db: DB, imp: ImportRow, jobId: number, message: string) {
  await discardStagedBatches(db, imp.id);
  const now = new Date();
  await runBatch(db, [
    db
      .update(imports)
      .set({ status: 'failed', message, updated_at: now })
      .where(and(eq(imports.id, imp.id), eq(imports.status, 'staging'))),
    ...toldUploader(db, imp, 'failed', now),
  ]);
  await failJob(db, jobId, formatMessage(message));
}

/** The queue runner of `import.stage`. */
export async function runStaging(db: DB, env: Env, job: Job): Promise<Record<string, unknown> | null> {
  const importId = Number((job.payload as { import_id?: number } | null)?.import_id);
  const [imp] = await db.select().from(imports).where(eq(imports.id, importId)).limit(1);
  // Nothing to do: the import is gone, or no longer staging under this job (a stale delivery).
  if (!imp || imp.status !== 'staging' || (imp.job_id != null && imp.job_id !== job.id))
    return { skipped: true };

  const actor = imp.created_by
    ? await loadActor(db, imp.created_by, { selectedCompanyId: imp.company_id })
    : null;
  if (!actor) {
    await markFailed(db, imp, job.id, msg('imports.errors.user_inactive'));
    return null;
  }
  const ctx: ActorCtx = { db, env, now: new Date(), actor };
  await discardStagedBatches(db, imp.id);

  try {
    const [[place], countryRows, stored] = await Promise.all([
      db
        .select({
          campus_public_id: campuses.public_id,
          campus_country_id: campuses.country_id,
          contract_public_id: contracts.public_id,
        })
        .from(campuses)
        .innerJoin(contracts, eq(contracts.id, imp.contract_id))
        .where(eq(campuses.id, imp.campus_id))
        .limit(1),
      db
        .select({
          id: countries.id,
          name: countries.name,
          abbreviation: countries.abbreviation,
          code: countries.code,
          dial_code: countries.dial_code,
        })
        .from(countries)
        .where(eq(countries.status, 'active')),
      storedRows(env, imp),
    ]);
    if (!place) throw new Permanent(msg('imports.errors.contract_unavailable'));
    if (stored.rows.length > MAX_APPLICANTS)
      throw new Permanent(msg('imports.errors.too_many', { count: stored.rows.length, max: MAX_APPLICANTS }));

    let batch;
    try {
      batch = await createBatch(ctx, {
        campus_id: place.campus_public_id,
        contract_id: place.contract_public_id,
        source: 'import',
        import_id: imp.id,
      });
    } catch (e) {
      if (e instanceof ValidationFailed || (isDomainError(e) && e.status === 404))
        throw new Permanent(msg('imports.errors.contract_unavailable'));
      throw e;
    }
    const prepared = await batchRules(ctx, batch);
    const rows = stagedRows(
      stored,
      imp,
      new CountryIndex(countryRows),
      place.campus_country_id,
      prepared.rules.today,
    );

    await reportProgress(db, job.id, { done: 0, total: rows.length, errors: 0 });
    const staged = await stageNewBatch(ctx, batch, rows, prepared, {
      step: stageChunk(rows.length),
      onStep: (done, errors) => reportProgress(db, job.id, { done, errors }),
    });
    const now = new Date();
    await runBatch(db, [
      db
        .update(imports)
        .set({ status: 'review', batch_id: batch.id, message: null, updated_at: now })
        .where(eq(imports.id, imp.id)),
      ...toldUploader(db, imp, 'review', now),
    ]);
    return { batch_id: batch.public_id, total: staged.inserted, with_errors: staged.withErrors };
  } catch (e) {
    if (e instanceof Permanent) {
      await markFailed(db, imp, job.id, e.message);
      return null;
    }
    // Leave nothing half-staged; the queue retries the job, then the dead-letter queue fails it.
    await discardStagedBatches(db, imp.id).catch(() => {});
    await reportProgress(db, job.id, { done: 0, errors: 0 }).catch(() => {});
    throw e;
  }
}
