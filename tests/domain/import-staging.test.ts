import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createExecutionContext, createMessageBatch, env, getQueueResult } from 'cloudflare:test';
import { and, asc, eq } from 'drizzle-orm';
import {
  campuses,
  contracts,
  countries,
  enrollments,
  imports,
  jobs,
  policyBatches,
  taxRates,
} from '../../drizzle/schema';
import { stampDutyFor } from '../../workers/domain/invoices/taxes';
import { buildContract } from '../../drizzle/seed/contracts';
import { countryId } from '../../drizzle/seed/builders';
import type { ActorCtx } from '../../workers/domain/context';
import { NotFound, ValidationFailed } from '../../workers/domain/errors';
import {
  confirmMapping,
  getImport,
  importProgress,
  rowsKey,
  uploadImport,
} from '../../workers/domain/imports/service';
import { handleMessage, handleQueue } from '../../workers/jobs/consumer';
import { deleteEnrollments, updateEnrollment } from '../../workers/domain/enrollments/service';
import { unfinishedOrders } from '../../workers/domain/enrollments/order';
import { linkDependents } from '../../workers/domain/enrollments/edit';
import {
  addImportToCart,
  batchCounts,
  dependentsStep,
  erroredIds,
  feesStep,
  findImportBatch,
  importResult,
  reviewPage,
} from '../../workers/domain/imports/review';
import type { Env, JobMessage } from '../../workers/env';
import { DEMO_ACCOUNTS, actorCtx, testEnv, SETUP_TIMEOUT_MS } from '../support/world';
import { STRANGER, day, db, seedContractsWorld, type ContractsWorld } from '../support/contracts';
import { csvOf, fileOf, xlsxOf } from '../support/sheets';

let w: ContractsWorld;
let contract: string;
let otherContract: string;

/**
 * Jobs started here are not sent to the real queue (the Worker's own consumer would run them in the
 * background); each test runs the staging job itself through the consumer, as a delivery would.
 */
const quietEnv = (): Env => ({
  ...testEnv(),
  JOBS: { send: async () => {}, sendBatch: async () => {} } as never,
});
const school = async (): Promise<ActorCtx> => ({
  ...(await actorCtx(DEMO_ACCOUNTS.schoolAdmin)),
  env: quietEnv(),
});

const HEADERS = [
  'Type',
  'First Name',
  'Surname',
  'DOB',
  'Gender',
  'Email',
  'Nationality',
  'Arrival date',
  'Departure',
  'Group Leader',
  'Notes',
];
const uk = (iso: string) => iso.split('-').reverse().join('/');
/** 0 → "a", 27 → "bb": names may not contain digits. */
const letters = (n: number): string =>
  n < 26 ? 'abcdefghijklmnopqrstuvwxyz'[n]! : letters(Math.floor(n / 26) - 1) + letters(n % 26);

/** A sheet of `n` applicants: a group leader first, a family member every 10th row, and some errors. */
function applicants(n: number, opts: { bad?: number[] } = {}) {
  const start = uk(day(20));
  const end = uk(day(50));
  return Array.from({ length: n }, (_, i) => {
    if (i === 0)
      return [
        'Group Leader',
        'Gail',
        'Leader',
        '03/04/1980',
        'F',
        'gail@school.test',
        'Spain',
        start,
        end,
        'Yes',
        '',
      ];
    const type = i % 10 === 0 ? 'immediate family' : 'Student';
    const row = [
      type,
      `Name${letters(i)}`,
      `Family${letters(Math.floor(i / 10))}`,
      '05/06/2008',
      i % 2 ? 'M' : 'Female',
      `s${i}@school.test`,
      'France',
      start,
      end,
      'gail@school.test',
      `note ${i}`,
    ];
    if (opts.bad?.includes(i)) {
      row[3] = '31/02/2008';
      row[6] = 'Atlantis';
    }
    return row;
  });
}

async function upload(
  ctx: ActorCtx,
  rows: (string | number)[][],
  name = 'intake.csv',
  contractId = contract,
) {
  return uploadImport(
    ctx,
    { campus_id: w.north.public_id, contract_id: contractId },
    fileOf(csvOf(rows), name),
  );
}

/** The mapping of HEADERS (stated, so no test depends on the previous mapping another test left). */
const MAPPING = {
  '0': 'type',
  '1': 'first_name',
  '2': 'last_name',
  '3': 'date_of_birth',
  '4': 'gender',
  '5': 'email',
  '6': 'residence_country_id',
  '7': 'start_date',
  '8': 'end_date',
  '9': 'group_leader',
  '10': null,
};

const columns = (headers: readonly string[], mapping: Record<string, string | null>) => ({
  columns: headers.map((_, i) => (mapping[String(i)] ?? null) as never),
  date_order: 'dmy' as const,
});

async function importRow(id: string) {
  const [row] = await db().select().from(imports).where(eq(imports.public_id, id));
  return row!;
}

async function runJob(importId: string) {
  const imp = await importRow(importId);
  await handleMessage(testEnv(), { type: 'job.run', id: imp.job_id! });
  return importRow(importId);
}

async function stagedRows(batchId: number) {
  return db()
    .select()
    .from(enrollments)
    .where(eq(enrollments.batch_id, batchId))
    .orderBy(asc(enrollments.position));
}

beforeAll(async () => {
  w = await seedContractsWorld();
  const d = db();
  contract = (
    await buildContract(d, {
      campusId: w.north.id,
      productId: w.product.id,
      startDate: day(-30),
      endDate: day(400),
    })
  ).public_id;
  otherContract = (
    await buildContract(d, { campusId: w.south.id, productId: w.product.id, startDate: day(-30) })
  ).public_id;
  await d
    .insert(taxRates)
    .values({ country_id: await countryId(d, 'GB'), rate_bp: 1200, start_date: day(-100), active: true });
}, SETUP_TIMEOUT_MS);

describe('upload', () => {
  it('stores the file and its rows, keeps the headers, a sample and the count, and suggests the mapping', async () => {
    const ctx = await school();
    const v = await upload(ctx, [HEADERS, ...applicants(12)]);
    expect(v).toMatchObject({
      status: 'uploaded',
      row_count: 12,
      headers: HEADERS,
      file_type: 'csv',
      date_order: 'dmy',
    });
    expect(v.sample).toHaveLength(5);
    expect(v.sample[0]![1]).toBe('Gail');
    expect(v.mapping).toEqual({
      '0': 'type',
      '1': 'first_name',
      '2': 'last_name',
      '3': 'date_of_birth',
      '4': 'gender',
      '5': 'email',
      '6': 'residence_country_id',
      '7': 'start_date',
      '8': 'end_date',
      '9': 'group_leader',
      '10': null,
    });
    const imp = await importRow(v.id);
    expect(await env.FILES.head(imp.file_key)).not.toBeNull();
    const rows = (await (await env.FILES.get(rowsKey(imp.file_key)))!.json()) as { rows: unknown[][] };
    expect(rows.rows).toHaveLength(12);
    expect(rows.rows[0]![0]).toBe(2); // the sheet row number comes first
  });

  it('refuses a product the campus cannot order, and a campus the user cannot see', async () => {
    const ctx = await school();
    const refused = await upload(ctx, [HEADERS, ...applicants(2)], 'a.csv', otherContract).catch((e) => e);
    expect(refused).toBeInstanceOf(ValidationFailed);
    expect(refused.errors[0].key).toBe('contract_id');
    const stranger = { ...(await actorCtx(STRANGER.schoolUser)), env: quietEnv() };
    await expect(upload(stranger, [HEADERS, ...applicants(2)])).rejects.toBeInstanceOf(NotFound);
  });

  it('hides an import from a school user of another client', async () => {
    const v = await upload(await school(), [HEADERS, ...applicants(2)]);
    const stranger = { ...(await actorCtx(STRANGER.schoolUser)), env: quietEnv() };
    await expect(getImport(stranger, v.id)).rejects.toBeInstanceOf(NotFound);
  });

  it("offers the client's previous mapping first", async () => {
    const ctx = await school();
    const first = await upload(ctx, [['Ref', ...HEADERS], ...applicants(2).map((r, i) => [`R${i}`, ...r])]);
    const mapping = {
      ...Object.fromEntries(Object.entries(first.mapping).map(([k, t]) => [String(Number(k) + 1), t])),
    };
    // Last time the user matched "Ref" to the student number and ignored "Gender".
    await confirmMapping(
      ctx,
      first.id,
      columns(first.headers, { ...first.mapping, '0': 'student_number', '5': null }),
    );
    void mapping;
    const second = await upload(ctx, [
      ['Gender', 'Ref', 'First Name', 'Surname'],
      ['F', 'R1', 'Ana', 'Silva'],
    ]);
    expect(second.mapping).toMatchObject({
      '0': null,
      '1': 'student_number',
      '2': 'first_name',
      '3': 'last_name',
    });
    expect(second.sources.slice(0, 2)).toEqual(['previous', 'previous']);
  });
});

describe('column mapping', () => {
  it('refuses a mapping that misses required fields or matches one field twice, and starts nothing', async () => {
    const ctx = await school();
    const v = await upload(ctx, [HEADERS, ...applicants(3)]);
    const e = await confirmMapping(
      ctx,
      v.id,
      columns(HEADERS, { '1': 'first_name', '2': 'first_name' }),
    ).catch((x) => x);
    expect(e).toBeInstanceOf(ValidationFailed);
    expect(e.errors).toContainEqual({ key: 'columns[2]', message: 'imports.errors.matched_twice' });
    expect(e.errors.map((x: { message: string }) => x.message)).toContain(
      'imports.errors.missing.date_of_birth',
    );
    expect(await importRow(v.id)).toMatchObject({ status: 'uploaded', job_id: null, mapping: null });
  });
});

describe('staging job', () => {
  it('stages every row into a draft batch with errors on their cells, original cells, and group leaders linked', async () => {
    const ctx = await school();
    const v = await upload(ctx, [HEADERS, ...applicants(25, { bad: [3, 7] })]);
    const started = await confirmMapping(ctx, v.id, columns(HEADERS, MAPPING));
    expect(started.status).toBe('staging');
    expect(started.job).toMatchObject({ status: 'queued', total: 25 });
    const imp = await runJob(v.id);
    expect(imp).toMatchObject({ status: 'review' });
    const progress = await importProgress(ctx, v.id);
    expect(progress).toMatchObject({ status: 'review', done: 25, total: 25, percent: 100 });
    expect(Date.parse(progress.finished_at!)).toBeGreaterThan(Date.now() - 60_000);
    // Rows 3 and 7 have errors; family members wait for their student (linked in a later step).
    expect(progress.errors).toBeGreaterThanOrEqual(2);
    const [batch] = await db().select().from(policyBatches).where(eq(policyBatches.id, imp.batch_id!));
    expect(batch).toMatchObject({ status: 'draft', source: 'import', import_id: imp.id });
    const rows = await stagedRows(batch!.id);
    expect(rows.map((r) => r.position)).toEqual(Array.from({ length: 25 }, (_, i) => i + 2));
    const leader = rows[0]!;
    expect(leader).toMatchObject({
      type: 'group_leader',
      first_name: 'Gail',
      gender: 'female',
      date_of_birth: '1980-04-03',
      error_count: 0,
    });
    expect(rows[1]).toMatchObject({
      type: 'student',
      gender: 'male',
      group_leader_id: leader.id,
      start_date: day(20),
    });
    // A row without errors has every value stored; a row with errors keeps all its original cells.
    expect(rows[1]!.source).toBeNull();
    const bad = rows[3]!;
    expect(bad.errors.map((e) => e.field).sort()).toEqual(['date_of_birth', 'residence_country_id']);
    expect(bad).toMatchObject({ date_of_birth: '31/02/2008', residence_country_id: null, fee_minor: null });
    expect(bad.source).toMatchObject({
      Nationality: 'Atlantis',
      DOB: '31/02/2008',
      Notes: expect.any(String),
    });
    const family = rows[10]!;
    expect(family).toMatchObject({ type: 'immediate_family', dependency_id: null });
    expect(family.errors).toEqual([
      { field: 'dependency_id', message: 'enrollments.errors.dependency_required' },
    ]);
    expect(rows[2]).toMatchObject({ fee_minor: 7500, tax_minor: 900, error_count: 0 });
  });

  it('keeps the type and gender of a row that has an error elsewhere', async () => {
    const ctx = await school();
    const sheet = applicants(12, { bad: [10] });
    const v = await upload(ctx, [HEADERS, ...sheet]);
    await confirmMapping(ctx, v.id, columns(HEADERS, MAPPING));
    const imp = await runJob(v.id);
    const rows = await stagedRows(imp.batch_id!);
    expect(rows[10]).toMatchObject({ type: 'immediate_family', gender: 'female' });
    expect(rows[10]!.error_count).toBeGreaterThan(0);
  });

  it('reports progress in rows and errors, and a redelivered message changes nothing', async () => {
    const ctx = await school();
    const v = await upload(ctx, [HEADERS, ...applicants(2500, { bad: [5, 601, 1703] })]);
    await confirmMapping(ctx, v.id, columns(HEADERS, MAPPING));
    const imp = await runJob(v.id);
    const [job] = await db().select().from(jobs).where(eq(jobs.id, imp.job_id!));
    expect(job).toMatchObject({ status: 'done', done: 2500, total: 2500 });
    // 3 bad rows and 249 family members not yet linked to their student.
    expect(job!.error_count).toBe(3 + 249);
    const before = await stagedRows(imp.batch_id!);
    expect(before).toHaveLength(2500);
    await handleMessage(testEnv(), { type: 'job.run', id: imp.job_id! });
    const after = await importRow(v.id);
    expect(after).toMatchObject({ status: 'review', batch_id: imp.batch_id, updated_at: imp.updated_at });
    expect(await stagedRows(imp.batch_id!)).toHaveLength(2500);
    const drafts = await db().select().from(policyBatches).where(eq(policyBatches.import_id, imp.id));
    expect(drafts).toHaveLength(1);
  });

  it('a run that fails part-way leaves nothing staged; the retry stages it all; the last retry shows failed', async () => {
    const ctx = await school();
    const v = await upload(ctx, [HEADERS, ...applicants(1500)]);
    await confirmMapping(ctx, v.id, columns(HEADERS, MAPPING));
    const imp0 = await importRow(v.id);
    // The second chunk of rows cannot be written (as if the database failed half-way).
    await env.DB.exec(
      `CREATE TRIGGER fail_row_1400 BEFORE INSERT ON enrollments WHEN NEW.position = 1400 BEGIN SELECT RAISE(ABORT, 'disk on fire'); END;`,
    );
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const batch = createMessageBatch<JobMessage>('enrolment-jobs-uk', [
      { id: 'stage-1', timestamp: new Date(), attempts: 1, body: { type: 'job.run', id: imp0.job_id! } },
    ]);
    await handleQueue(batch, testEnv());
    const result = await getQueueResult(batch, createExecutionContext());
    expect(result.retryMessages.map((m: { msgId: string }) => m.msgId)).toEqual(['stage-1']);
    expect(await db().select().from(policyBatches).where(eq(policyBatches.import_id, imp0.id))).toHaveLength(
      0,
    );
    expect(await importRow(v.id)).toMatchObject({ status: 'staging', batch_id: null });
    expect((await db().select().from(jobs).where(eq(jobs.id, imp0.job_id!)))[0]).toMatchObject({
      status: 'queued',
      done: 0,
    });

    // After the last retry the dead-letter queue fails the job: the import shows failed with its reason.
    const dead = createMessageBatch<JobMessage>('enrolment-jobs-dlq-uk', [
      { id: 'dlq-1', timestamp: new Date(), attempts: 1, body: { type: 'job.run', id: imp0.job_id! } },
    ]);
    await handleQueue(dead, testEnv());
    const failed = await getImport(ctx, v.id);
    expect(failed.status).toBe('failed');
    expect(failed.message).toMatch(/could not be completed/);
    // The order page lists it as failed (its job failed while the import was staging) to take up again.
    const listed = (await unfinishedOrders(ctx)).imports.find((i) => i.id === v.id);
    expect(listed).toMatchObject({ status: 'failed', file_name: expect.any(String) });

    // The user matches the columns again: with the fault gone, everything is staged.
    await env.DB.exec('DROP TRIGGER fail_row_1400;');
    await confirmMapping(ctx, v.id, columns(HEADERS, MAPPING));
    const imp = await runJob(v.id);
    expect(imp.status).toBe('review');
    expect(await stagedRows(imp.batch_id!)).toHaveLength(1500);
    // Under review it is one of the unfinished drafts, no longer an import to take up.
    const unfinished = await unfinishedOrders(ctx);
    expect(unfinished.imports.map((i) => i.id)).not.toContain(v.id);
    expect(unfinished.drafts.map((d) => d.import_id)).toContain(v.id);
  });

  it('a file gone from storage fails at once with a reason the user understands', async () => {
    const ctx = await school();
    const v = await upload(ctx, [HEADERS, ...applicants(3)]);
    const imp0 = await importRow(v.id);
    await env.FILES.delete([imp0.file_key, rowsKey(imp0.file_key)]);
    await confirmMapping(ctx, v.id, columns(HEADERS, MAPPING));
    const imp = await runJob(v.id);
    expect(imp).toMatchObject({ status: 'failed', message: 'imports.errors.file_missing', batch_id: null });
    const [job] = await db().select().from(jobs).where(eq(jobs.id, imp.job_id!));
    expect(job).toMatchObject({
      status: 'failed',
      message: 'The uploaded file is no longer available. Please upload it again.',
    });
    expect(
      await db()
        .select()
        .from(policyBatches)
        .where(and(eq(policyBatches.import_id, imp.id))),
    ).toHaveLength(0);
  });

  it('reads an .xlsx with date cells and mixed headers', async () => {
    const ctx = await school();
    const start = new Date(`${day(20)}T00:00:00Z`);
    const end = new Date(`${day(40)}T00:00:00Z`);
    const xlsx = await xlsxOf([
      ['Given name', 'FAMILY NAME', 'Birth date', 'Country of Residence', 'Start', 'End', 'Passport No.'],
      ['Ana', 'Silva', new Date(Date.UTC(2008, 1, 3)), 'PT', start, end, 'P1234567'],
      ['Rui', 'Costa', '04/05/2007', 'ESP', start, end, 'P7654321'],
    ]);
    const v = await uploadImport(
      ctx,
      { campus_id: w.north.public_id, contract_id: contract },
      fileOf(xlsx, 'intake.xlsx'),
    );
    expect(v.file_type).toBe('xlsx');
    await confirmMapping(ctx, v.id, columns(v.headers, v.mapping));
    const imp = await runJob(v.id);
    const rows = await stagedRows(imp.batch_id!);
    expect(
      rows.map((r) => [r.first_name, r.date_of_birth, r.start_date, r.passport_number, r.error_count]),
    ).toEqual([
      ['Ana', '2008-02-03', day(20), 'P1234567', 0],
      ['Rui', '2007-05-04', day(20), 'P7654321', 0],
    ]);
    expect(rows[0]!.residence_country_id).toBe(await countryId(db(), 'PT'));
  });
});

describe('review, links and the cart', () => {
  it('shows errors on their rows, fixes a row in place, deletes errored rows, links families, then opens the batch', async () => {
    const ctx = await school();
    const sheet = applicants(40, { bad: [3, 7] });
    sheet[22] = [...sheet[21]!]; // row 24 repeats row 23: a duplicate with the same trip dates
    sheet[22]![5] = 'other@school.test';
    const v = await upload(ctx, [HEADERS, ...sheet]);
    await confirmMapping(ctx, v.id, columns(HEADERS, MAPPING));
    await runJob(v.id);
    const ib = await findImportBatch(ctx, { import: v.id });

    const all = await reviewPage(ctx, ib, { page: 1, errors_only: false });
    expect(all.counts).toMatchObject({
      total: 40,
      with_errors: 4,
      family: 3,
      family_unlinked: 3,
      leaders: 1,
    });
    expect(all.rows.items).toHaveLength(40);
    const errorsOnly = await reviewPage(ctx, ib, { page: 1, errors_only: true });
    expect(errorsOnly.rows.items.map((r) => r.position)).toEqual([5, 9, 23, 24]);
    const bad = errorsOnly.rows.items[0]!;
    expect(bad.values).toMatchObject({ date_of_birth: '31/02/2008', residence_country_id: 'Atlantis' });
    expect(bad.errors.map((e) => e.field).sort()).toEqual(['date_of_birth', 'residence_country_id']);
    expect(errorsOnly.rows.items[2]!.errors).toEqual([
      {
        field: 'row',
        message: 'enrollments.errors.duplicate',
        params: { start: uk(day(20)), end: uk(day(50)) },
      },
    ]);
    const family = all.rows.items.find((r) => r.type === 'immediate_family')!;
    expect(family.errors).toEqual([]);
    expect(family.link_errors).toEqual([
      { field: 'dependency_id', message: 'enrollments.errors.dependency_required' },
    ]);

    // Fix row 5 in place: its own rules and the batch's are checked at once.
    const FR = await countryId(db(), 'FR');
    const fixed = await updateEnrollment(
      ctx,
      bad.id,
      { date_of_birth: '2008-02-28', residence_country_id: String(FR) },
      { validateFirst: false },
    );
    expect(fixed.errors).toEqual([]);
    expect(fixed.fee).not.toBeNull();
    expect((await reviewPage(ctx, ib, { page: 1, errors_only: true })).counts.with_errors).toBe(3);

    // The cart refuses the order while rows have errors.
    await expect(addImportToCart(ctx, ib)).rejects.toBeInstanceOf(ValidationFailed);

    // Deleting one of the duplicates clears the other; then the rest of the rows with errors go.
    await deleteEnrollments(ctx, [errorsOnly.rows.items[3]!.id]);
    expect((await erroredIds(ctx, ib.batch)).length).toBe(1);
    const deleted = await deleteEnrollments(ctx, await erroredIds(ctx, ib.batch));
    expect(deleted.deleted).toBe(1);
    const after = await reviewPage(ctx, ib, { page: 1, errors_only: false });
    expect(after.counts).toMatchObject({ total: 38, with_errors: 0, family_unlinked: 3 });

    // Family members linked to their student in one go.
    const step = await dependentsStep(ctx, ib.batch);
    expect(step.family).toHaveLength(3);
    const guess = step.family[0]!;
    const students = all.rows.items.filter((r) => r.type === 'student');
    // The nearest student with the same last name: here the row below (the family is listed first).
    const namesake = students.find((s) => s.position === guess.position + 1)!;
    expect(namesake.values.last_name).toBe(all.rows.items.find((r) => r.id === guess.id)!.values.last_name);
    expect(guess.suggested_id).toBe(namesake.id);
    await linkDependents(
      ctx,
      ib.batch,
      step.family.map((f) => ({ enrollment_id: f.id, student_id: f.suggested_id })),
    );
    expect((await batchCounts(ctx, ib.batch.id)).any_errors).toBe(0);
    const refused = await linkDependents(ctx, ib.batch, [
      { enrollment_id: guess.id, student_id: guess.id },
    ]).catch((e) => e);
    expect(refused).toBeInstanceOf(ValidationFailed);

    const fees = await feesStep(ctx, ib, 1);
    expect(fees.totals).toMatchObject({
      count: 38,
      premium_minor: 38 * 7500,
      tax_minor: 38 * 900,
      missing: 0,
    });
    expect(fees.currency).toBe('GBP');

    const { batch, count } = await addImportToCart(ctx, await findImportBatch(ctx, { import: v.id }));
    expect(batch.status).toBe('open');
    expect(count).toBe(38);
    expect(await importRow(v.id)).toMatchObject({ status: 'done' });
    expect(await importResult(ctx, batch.public_id)).toMatchObject({ status: 'open', count: 38 });
  });
});

describe('stamp duty on the fees review', () => {
  it("shows Ireland's stamp duty as its own amount in each row and the total, as the invoice charges it", async () => {
    const d = db();
    const ie = await countryId(d, 'IE');
    await d.update(campuses).set({ country_id: ie }).where(eq(campuses.id, w.south.id));
    await d.update(countries).set({ stamp_duty_applicable: true }).where(eq(countries.id, ie));
    await d.insert(taxRates).values({ country_id: ie, rate_bp: 300, start_date: day(-100), active: true });
    const irish = await buildContract(d, {
      campusId: w.south.id,
      productId: w.product.id,
      startDate: day(-30),
      endDate: day(400),
      name: 'Dublin summer',
    });
    await d.update(contracts).set({ currency: 'EUR' }).where(eq(contracts.id, irish.id));

    const ctx = await school();
    const v = await uploadImport(
      ctx,
      { campus_id: w.south.public_id, contract_id: irish.public_id },
      fileOf(csvOf([HEADERS, ...applicants(3).slice(1)]), 'dublin.csv'),
    );
    await confirmMapping(ctx, v.id, columns(HEADERS, MAPPING));
    await runJob(v.id);
    const fees = await feesStep(ctx, await findImportBatch(ctx, { import: v.id }), 1);
    // €75 each (at least €20): €1 stamp duty per policy, beside the 3 % levy; the same rule as invoices.
    const stamp = stampDutyFor(7500, 'EUR', true);
    expect(stamp).toBe(100);
    expect(fees.currency).toBe('EUR');
    expect(fees.totals).toMatchObject({
      count: 2,
      premium_minor: 2 * 7500,
      tax_minor: 2 * 225,
      stamp_duty_minor: 2 * stamp,
      total_minor: 2 * (7500 + 225 + stamp),
    });
    expect(fees.rows.items.map((r) => [r.fee_minor, r.tax_minor, r.stamp_duty_minor, r.total_minor])).toEqual(
      [
        [7500, 225, stamp, 7500 + 225 + stamp],
        [7500, 225, stamp, 7500 + 225 + stamp],
      ],
    );
  });
});
