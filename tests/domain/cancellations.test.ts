import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { cancellationImports, cancellationRows, policies } from '../../drizzle/schema';
import { CANCEL_HEADERS, suggestCancelMapping } from '../../workers/domain/cancellations/matching';
import {
  cancelReviewPage,
  cancellationProgress,
  confirmCancelMapping,
  deleteCancelRows,
  getCancellation,
  uploadCancellation,
} from '../../workers/domain/cancellations/service';
import {
  cancellationOutcome,
  cancellationSummary,
  confirmCancellation,
  proceedCancellation,
} from '../../workers/domain/cancellations/proceed';
import { readFirstWorksheet } from '../../workers/platform/xlsx';
import { cellText, headerRowIndex } from '../../workers/domain/imports/files';
import { policyNumberOf } from '../../workers/domain/policies/by-number';
import { Conflict, NotFound, ValidationFailed } from '../../workers/domain/errors';
import { formatMessage } from '../../workers/platform/i18n';
import { DEMO_ACCOUNTS, actorCtx, SETUP_TIMEOUT_MS } from '../support/world';
import { STRANGER } from '../support/contracts';
import { day, db, seedCheckoutWorld, setClientTerms, type CheckoutWorld } from '../support/checkout';
import { issuePolicies, quiet, runCancellationJob, setTrip, type PolicyRow } from '../support/cancellations';
import { csvOf, fileOf, xlsxOf } from '../support/sheets';

let w: CheckoutWorld;
let north: PolicyRow[];
let south: PolicyRow[];

const school = async () => quiet(await actorCtx(DEMO_ACCOUNTS.schoolAdmin));
const campusEmployee = async () => quiet(await actorCtx(DEMO_ACCOUNTS.campusEmployee));

beforeAll(async () => {
  w = await seedCheckoutWorld();
  await setClientTerms(w.oakwood.id, 'invoiced_directly', 'bank_transfer');
  north = await issuePolicies(w, 6);
  south = await issuePolicies(w, 2, { campus: 'south' });
}, SETUP_TIMEOUT_MS);

async function refusal(run: Promise<unknown>) {
  const e = await run.then(
    () => null,
    (x) => x,
  );
  expect(e).not.toBeNull();
  return e as Error;
}

const messagesOf = (e: Error) =>
  e instanceof ValidationFailed ? e.errors.map((x) => formatMessage(x.message)) : [formatMessage(e.message)];

/** Uploads a CSV sheet, confirms the suggested mapping and runs the matching job. */
async function matched(rows: string[][], ctx?: Awaited<ReturnType<typeof school>>) {
  const c = ctx ?? (await school());
  const view = await uploadCancellation(c, fileOf(csvOf(rows), 'cancel.csv', 'text/csv'));
  await confirmCancelMapping(c, view.id, {
    columns: view.headers.map((_, i) => view.mapping[String(i)] ?? null),
  });
  await runCancellationJob(view.id);
  return { id: view.id, ctx: c };
}

describe('column matching', () => {
  it('finds the policy id and last name columns by their usual headers, in any language of the template', () => {
    expect(suggestCancelMapping(['Policy ID', 'Surname', 'Notes'])).toEqual({
      '0': 'policy_id',
      '1': 'last_name',
      '2': null,
    });
    expect(suggestCancelMapping(['Policy number', 'Last Name'])).toEqual({
      '0': 'policy_id',
      '1': 'last_name',
    });
    expect(suggestCancelMapping(['Polcy Numbr'])).toEqual({ '0': 'policy_id' });
    expect(suggestCancelMapping(['Comments'])).toEqual({ '0': null });
  });

  it('skips a title row above the headers', () => {
    expect(
      headerRowIndex([['Cancellations for March'], ['Policy ID', 'Last Name'], ['P1', 'X']], CANCEL_HEADERS),
    ).toBe(1);
  });

  it('reads a policy number as people write it', () => {
    expect(policyNumberOf(' p00000012 ')).toBe('P00000012');
    expect(policyNumberOf('12')).toBe('P00000012');
    expect(policyNumberOf('')).toBe('');
  });

  it('refuses a mapping without the policy id column: it cannot be ignored', async () => {
    const ctx = await school();
    const view = await uploadCancellation(
      ctx,
      fileOf(
        csvOf([
          ['Policy ID', 'Last Name'],
          ['P1', 'X'],
        ]),
        'c.csv',
      ),
    );
    expect(view.mapping).toEqual({ '0': 'policy_id', '1': 'last_name' });
    const e = await refusal(confirmCancelMapping(ctx, view.id, { columns: [null, 'last_name'] }));
    expect(messagesOf(e)).toEqual(['The Policy ID column is required and cannot be ignored.']);
    const twice = await refusal(confirmCancelMapping(ctx, view.id, { columns: ['policy_id', 'policy_id'] }));
    expect(messagesOf(twice)).toContain('This field is already matched to another column.');
  });

  it("refuses a file that is not a spreadsheet with the spec's message, and an empty sheet", async () => {
    const ctx = await school();
    const pdf = await refusal(uploadCancellation(ctx, fileOf('%PDF-1.7\n%\u00e2\u00e3', 'c.pdf')));
    expect(messagesOf(pdf)).toEqual(['Uploaded file has incorrect format.']);
    const empty = await refusal(uploadCancellation(ctx, fileOf(await xlsxOf([['Policy ID']]), 'c.xlsx')));
    expect(messagesOf(empty)).toEqual(["Couldn't find any policies in the given file."]);
  });
});

describe('matching rows to policies', () => {
  it('matches each row and reports every row error', async () => {
    const [ok, started, cancelled, named, dup] = north;
    await setTrip([started!.id], day(-2), day(20));
    await db_cancel(cancelled!.id);
    const { id, ctx } = await matched([
      ['Policy ID', 'Last Name'],
      [ok!.policy_number, ok!.last_name.toUpperCase()],
      [started!.policy_number, ''],
      [cancelled!.policy_number, ''],
      [named!.policy_number, 'Somebody-Else'],
      [dup!.policy_number.slice(1), ''],
      [dup!.policy_number, ''],
      ['P99999999', ''],
      ['', 'Nobody'],
    ]);
    const page = await cancelReviewPage(ctx, id, { page: 1, errors_only: false });
    expect(page.counts).toEqual({ total: 8, with_errors: 6 });
    const byRow = Object.fromEntries(
      page.rows.items.map((r) => [r.row, r.errors.map((e) => formatMessage(e.message))]),
    );
    expect(byRow).toEqual({
      2: [],
      3: ['You can only cancel policies that have not yet started'],
      4: ['This policy is already cancelled.'],
      5: ['The last name does not match the policy.'],
      6: [],
      7: ['This policy is already on row 6.'],
      8: ['No policy with this Policy ID was found.'],
      9: ['Policy ID is required.'],
    });
    expect(page.rows.items[0]!.policy).toMatchObject({ id: ok!.public_id, last_name: ok!.last_name });
    const errorsOnly = await cancelReviewPage(ctx, id, { page: 1, errors_only: true });
    expect(errorsOnly.rows.items.map((r) => r.row)).toEqual([3, 4, 5, 7, 8, 9]);
    await setTrip([started!.id], started!.start_date, started!.end_date);
    await db_uncancel(cancelled!.id);
  });

  it('matches a large sheet in steps, with its progress, as a job', async () => {
    const rows = Array.from({ length: 2500 }, (_, i) => [
      i === 1200 ? north[4]!.policy_number : `P9${String(i).padStart(7, '0')}`,
    ]);
    const { id, ctx } = await matched([['Policy ID'], ...rows]);
    const view = await getCancellation(ctx, id);
    expect(view.job).toMatchObject({
      status: 'done',
      total: 2500,
      done: 2500,
      error_count: 2499,
      percent: 100,
    });
    const progress = await cancellationProgress(ctx, id);
    expect(progress).toMatchObject({ status: 'review', done: 2500, total: 2500, percent: 100 });
    const page = await cancelReviewPage(ctx, id, { page: 3, errors_only: false });
    expect(page.counts).toEqual({ total: 2500, with_errors: 2499 });
    expect(page.rows.meta).toMatchObject({ current_page: 3, last_page: 50, from: 101, to: 150 });
    expect(page.rows.items[0]!.row).toBe(102);
    // A page past the last (rows deleted since it was shown) answers the last.
    const past = await cancelReviewPage(ctx, id, { page: 80, errors_only: true });
    expect(past.rows.meta).toMatchObject({ current_page: 50, last_page: 50, from: 2451, to: 2499 });
    expect(past.rows.items).toHaveLength(49);
  });

  it("never matches a policy the uploader cannot see: another campus's is unknown to a campus employee", async () => {
    const { id, ctx } = await matched(
      [['Policy ID'], [north[0]!.policy_number], [south[0]!.policy_number]],
      await campusEmployee(),
    );
    const page = await cancelReviewPage(ctx, id, { page: 1, errors_only: false });
    expect(page.rows.items.map((r) => [r.row, r.errors.map((e) => formatMessage(e.message))])).toEqual([
      [2, []],
      [3, ['No policy with this Policy ID was found.']],
    ]);
    expect(page.rows.items[1]!.policy).toBeNull();
  });

  it("another company's administrator matches none of them", async () => {
    const stranger = quiet(await actorCtx(STRANGER.companyUser));
    const { id, ctx } = await matched([['Policy ID'], [north[0]!.policy_number]], stranger);
    const page = await cancelReviewPage(ctx, id, { page: 1, errors_only: false });
    expect(page.counts).toEqual({ total: 1, with_errors: 1 });
  });

  it("is the uploader's own: anyone else gets not found", async () => {
    const { id } = await matched([['Policy ID'], [north[0]!.policy_number]]);
    for (const email of [DEMO_ACCOUNTS.campusEmployee, DEMO_ACCOUNTS.admin, STRANGER.companyUser]) {
      const e = await refusal(getCancellation(quiet(await actorCtx(email)), id));
      expect(e).toBeInstanceOf(NotFound);
    }
  });

  it('deletes chosen rows, then every errored row; then nothing is left with errors', async () => {
    const { id, ctx } = await matched([
      ['Policy ID'],
      [north[0]!.policy_number],
      ['P99999998'],
      ['P99999997'],
      [north[1]!.policy_number],
    ]);
    expect(await deleteCancelRows(ctx, id, { rows: [5], errored: false })).toEqual({ deleted: 1 });
    const none = await refusal(deleteCancelRows(ctx, id, { rows: [], errored: false }));
    expect(messagesOf(none)).toEqual(['Select the rows to delete first.']);
    expect(await deleteCancelRows(ctx, id, { rows: [], errored: true })).toEqual({ deleted: 2 });
    const page = await cancelReviewPage(ctx, id, { page: 1, errors_only: false });
    expect(page.counts).toEqual({ total: 1, with_errors: 0 });
    expect(page.rows.items.map((r) => r.row)).toEqual([2]);
  });

  it('matches the columns again from the review, replacing the rows; refuses while the job runs', async () => {
    const { id, ctx } = await matched([
      ['Policy ID', 'Ref'],
      [north[0]!.policy_number, 'P99999999'],
    ]);
    await confirmCancelMapping(ctx, id, { columns: [null, 'policy_id'] });
    const busy = await refusal(confirmCancelMapping(ctx, id, { columns: ['policy_id', null] }));
    expect(busy).toBeInstanceOf(Conflict);
    await runCancellationJob(id);
    const rows = await db_rows(id);
    expect(rows.map((r) => r.policy_number)).toEqual(['P99999999']);
  });
});

describe('proceeding and confirming', () => {
  it('refuses to proceed while rows have errors, or before the rows are matched', async () => {
    const { id, ctx } = await matched([['Policy ID'], [north[5]!.policy_number], ['P99999996']]);
    const e = await refusal(proceedCancellation(ctx, id, { reason: 'Did not travel' }));
    expect(messagesOf(e)).toEqual(['Delete the 1 row with errors first.']);
    const outcome = await refusal(cancellationOutcome(ctx, id));
    expect(outcome).toBeInstanceOf(Conflict);
  });

  it("cancels the sheet's policies with their dependants once, credits them and sums it up", async () => {
    const t = { start_date: day(12), end_date: day(40) };
    const [student, family, other] = await issuePolicies(w, 0, {
      applicants: [
        { first_name: 'Olga', last_name: 'Sheet', ...t },
        { first_name: 'Ivan', last_name: 'Sheet', type: 'immediate_family', dependency_index: 0, ...t },
        { first_name: 'Pia', last_name: 'Other', ...t },
      ],
    });
    expect(family!.dependency_id).toBe(student!.id);
    const { id, ctx } = await matched([
      ['Policy ID', 'Last Name'],
      [student!.policy_number, 'Sheet'],
      [other!.policy_number, 'other'],
    ]);
    const { amendment_id } = await proceedCancellation(ctx, id, { reason: 'Did not travel' });
    const quoted = await cancellationOutcome(ctx, id);
    expect(quoted).toMatchObject({
      status: 'quoted',
      amendment_id,
      named: 2,
      dependants: 1,
      credit_notes: [],
      import: { reason: 'Did not travel' },
    });
    const premium = student!.premium_minor + family!.premium_minor + other!.premium_minor;
    expect(quoted.credit_minor).toBe(premium);
    // Nothing has changed before confirming.
    expect((await reloaded([student!, family!, other!])).map((p) => p.status)).toEqual([
      'issued',
      'issued',
      'issued',
    ]);

    await confirmCancellation(ctx, id);
    await confirmCancellation(ctx, id);
    const done = await cancellationOutcome(ctx, id);
    expect(done).toMatchObject({ status: 'confirmed', named: 2, dependants: 1 });
    expect(done.credit_notes).toHaveLength(1);
    expect(Math.abs(done.credit_notes[0]!.total_minor)).toBe(premium + done.credit_tax_minor);
    expect(await reloaded([student!, family!, other!])).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ status: 'cancelled', cancel_reason: 'Did not travel' }),
      ]),
    );
    expect((await reloaded([student!, family!, other!])).map((p) => p.status)).toEqual([
      'cancelled',
      'cancelled',
      'cancelled',
    ]);
    // The sheet is done: it cannot be matched again nor proceeded again.
    expect(await refusal(confirmCancelMapping(ctx, id, { columns: ['policy_id', null] }))).toBeInstanceOf(
      Conflict,
    );
    expect(await refusal(proceedCancellation(ctx, id, { reason: 'Again' }))).toBeInstanceOf(Conflict);

    const summary = await cancellationSummary(ctx, id, 'en');
    const rows = await readFirstWorksheet(new Uint8Array(summary.body), {
      maxColumns: 20,
      maxEntryBytes: 10_000_000,
    });
    const text = rows.map((r) => r.values.slice(1).map(cellText));
    expect(text[0]).toEqual([
      'Policy ID',
      'First name',
      'Last name',
      'Trip start date',
      'Trip end date',
      'Dependant of',
      'Premium credited',
      'Tax credited',
      'Currency',
      'Status',
    ]);
    expect(text.slice(1).map((r) => [r[0], r[5] ?? '', r[9]])).toEqual(
      expect.arrayContaining([
        [student!.policy_number, '', 'Cancelled'],
        [other!.policy_number, '', 'Cancelled'],
        [family!.policy_number, student!.policy_number, 'Cancelled'],
      ]),
    );
    expect(summary.filename).toBe('cancel-summary.xlsx');
  });

  it('a quote gone out of date is refused and proceeded again; changing the rows drops a quote', async () => {
    const [a, b] = await issuePolicies(w, 2);
    const { id, ctx } = await matched([['Policy ID'], [a!.policy_number], [b!.policy_number]]);
    await proceedCancellation(ctx, id, { reason: 'Did not travel' });
    // Someone changes one of the policies after the quote (its version moves on).
    await db()
      .update(policies)
      .set({ version: a!.version + 1 })
      .where(eq(policies.id, a!.id));
    const stale = await refusal(confirmCancellation(ctx, id));
    expect(stale).toBeInstanceOf(Conflict);
    expect((await cancellationOutcome(ctx, id)).status).toBe('stale');
    await proceedCancellation(ctx, id, { reason: 'Did not travel' });
    expect((await cancellationOutcome(ctx, id)).status).toBe('quoted');
    await deleteCancelRows(ctx, id, { rows: [3], errored: false });
    expect(await refusal(cancellationOutcome(ctx, id))).toBeInstanceOf(Conflict);
    expect((await getCancellation(ctx, id)).amendment_id).toBeNull();
    expect((await reloaded([a!, b!])).map((p) => p.status)).toEqual(['issued', 'issued']);
  });
});

async function reloaded(rows: PolicyRow[]) {
  const all = await db().select().from(policies);
  return rows.map((r) => all.find((p) => p.id === r.id)!);
}

async function db_cancel(id: number) {
  await db()
    .update(policies)
    .set({ status: 'cancelled', cancelled_at: new Date() })
    .where(eq(policies.id, id));
}
async function db_uncancel(id: number) {
  await db().update(policies).set({ status: 'issued', cancelled_at: null }).where(eq(policies.id, id));
}
async function db_rows(publicId: string) {
  const [imp] = await db()
    .select()
    .from(cancellationImports)
    .where(eq(cancellationImports.public_id, publicId));
  return db().select().from(cancellationRows).where(eq(cancellationRows.import_id, imp!.id));
}
