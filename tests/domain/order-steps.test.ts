/**
 * Where a step of ordering (by spreadsheet, one by one) and of cancelling by spreadsheet leads when it is
 * opened without its import or batch, or with one in another state: the rules themselves
 * (workers/domain/imports/steps.ts, cancellations/steps.ts), then applied to what a school user has.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { imports } from '../../drizzle/schema';
import { buildContract } from '../../drizzle/seed/contracts';
import { handleMessage } from '../../workers/jobs/consumer';
import { confirmMapping, getImport, uploadImport } from '../../workers/domain/imports/service';
import { REQUIRED_TARGETS } from '../../workers/domain/imports/values';
import { addImportToCart, findImportBatch } from '../../workers/domain/imports/review';
import { startSingleOrder } from '../../workers/domain/enrollments/order';
import { uploadCancellation } from '../../workers/domain/cancellations/service';
import {
  ORDER_START,
  importStepLead,
  missingImportLead,
  missingOrderLead,
  orderStepLead,
  type ImportState,
  type ImportStepName,
} from '../../workers/domain/imports/steps';
import { importStepLeadFor, orderStepLeadFor } from '../../workers/domain/imports/leads';
import {
  CANCEL_START,
  cancelStepLead,
  missingCancellationLead,
  type CancelStepName,
} from '../../workers/domain/cancellations/steps';
import { cancelStepLeadFor } from '../../workers/domain/cancellations/leads';
import { DEMO_ACCOUNTS, actorCtx, testEnv, SETUP_TIMEOUT_MS } from '../support/world';
import { STRANGER, day, db, seedContractsWorld, type ContractsWorld } from '../support/contracts';
import { csvOf, fileOf } from '../support/sheets';
import { quiet } from '../support/cancellations';

const imp = (status: NonNullable<ImportState['import']>['status'], batch: ImportState['batch'] = null) => ({
  import: { id: 'imp1', status },
  batch,
});
const draft = { id: 'b1', status: 'draft' as const };
const inCart = { id: 'b1', status: 'open' as const };

describe('the spreadsheet order steps', () => {
  it('shows each step the import it can work on', () => {
    const fits: [ImportStepName, ImportState][] = [
      ['match', imp('uploaded')],
      ['match', imp('failed')],
      ['match', imp('review', draft)],
      ['format', imp('staging')],
      ['format', imp('failed')],
      ['review', imp('review', draft)],
      ['link', imp('review', draft)],
      ['fees', imp('review', draft)],
      ['review', { import: null, batch: draft }],
      ['success', imp('done', inCart)],
    ];
    for (const [step, state] of fits) expect(importStepLead(step, state), step).toBeNull();
  });

  it('goes forward on the flow’s own way without a word: matched columns to the progress, read rows to the review', () => {
    expect(importStepLead('match', imp('staging'))).toEqual({
      path: '/insureds/format-data?import=imp1',
      message: null,
    });
    expect(importStepLead('format', imp('review', draft))).toEqual({
      path: '/insureds/review-applicants?import=imp1',
      message: null,
    });
  });

  it('leads a step the import is not ready for back to where it stands, saying so', () => {
    expect(importStepLead('review', imp('staging'))).toEqual({
      path: '/insureds/format-data?import=imp1',
      message: 'imports.leads.not_ready',
    });
    expect(importStepLead('fees', imp('uploaded'))).toEqual({
      path: '/insureds/match-columns?import=imp1',
      message: 'imports.leads.not_ready',
    });
    expect(importStepLead('success', imp('review', draft))).toEqual({
      path: '/insureds/review-applicants?import=imp1',
      message: 'imports.leads.not_ready',
    });
  });

  it('leads every earlier step of an import in the cart to its result', () => {
    for (const step of ['match', 'format', 'review', 'link', 'fees'] as const)
      expect(importStepLead(step, imp('done', inCart))).toEqual({
        path: '/insureds/new/import-success?batch=b1',
        message: 'imports.leads.in_cart',
      });
  });

  it('leads an import whose order was discarded to the start', () => {
    expect(importStepLead('review', imp('review', null))).toEqual({
      path: ORDER_START,
      message: 'imports.leads.discarded',
    });
  });

  it('leads a step opened without its import to the newest one under way, else to the start; the result page to the cart', () => {
    expect(missingImportLead('review', imp('staging'))).toEqual({
      path: '/insureds/format-data?import=imp1',
      message: 'imports.leads.resumed',
    });
    expect(missingImportLead('match', null)).toEqual({ path: ORDER_START, message: 'imports.leads.none' });
    expect(missingImportLead('success', imp('uploaded'))).toEqual({
      path: '/cart',
      message: 'imports.leads.to_cart',
    });
  });
});

describe('the one-by-one order steps', () => {
  it('show a batch that may still change, and lead one checked out or cleared to the start', () => {
    expect(orderStepLead('add', { status: 'draft' })).toBeNull();
    expect(orderStepLead('review', { status: 'open' })).toBeNull();
    for (const status of ['confirmed', 'cleared'] as const)
      expect(orderStepLead('fees', { status })).toEqual({ path: ORDER_START, message: 'order.leads.closed' });
  });

  it('lead a step opened without its batch to the order left open, else to the start', () => {
    expect(missingOrderLead({ id: 'b9' })).toEqual({
      path: '/insureds/new/add?batch=b9',
      message: 'order.leads.resumed',
    });
    expect(missingOrderLead(null)).toEqual({ path: ORDER_START, message: 'order.leads.none' });
  });
});

describe('the cancellation steps', () => {
  const sheet = (status: 'uploaded' | 'staging' | 'review' | 'done' | 'failed', quoted = false) => ({
    id: 'c1',
    status,
    quoted,
  });

  it('show each step the sheet it can work on', () => {
    const fits: [CancelStepName, ReturnType<typeof sheet>][] = [
      ['match', sheet('uploaded')],
      ['match', sheet('review')],
      ['format', sheet('staging')],
      ['format', sheet('failed')],
      ['review', sheet('review')],
      ['review', sheet('review', true)],
      ['confirm', sheet('review', true)],
      ['confirm', sheet('done', true)],
    ];
    for (const [step, state] of fits) expect(cancelStepLead(step, state), step).toBeNull();
  });

  it('leads a confirmed cancellation to its outcome, and a step the sheet is not ready for back', () => {
    expect(cancelStepLead('review', sheet('done', true))).toEqual({
      path: '/insureds/cancel/confirm-cancellation?import=c1',
      message: 'cancellations.leads.done',
    });
    expect(cancelStepLead('confirm', sheet('review'))).toEqual({
      path: '/insureds/cancel/review-applicants?import=c1',
      message: 'cancellations.leads.not_ready',
    });
    expect(cancelStepLead('format', sheet('review'))).toEqual({
      path: '/insureds/cancel/review-applicants?import=c1',
      message: null,
    });
  });

  it('leads a step opened without its sheet to the one under way, else to the upload', () => {
    expect(missingCancellationLead(sheet('staging'))).toEqual({
      path: '/insureds/cancel/format-data?import=c1',
      message: 'cancellations.leads.resumed',
    });
    expect(missingCancellationLead(null)).toEqual({
      path: CANCEL_START,
      message: 'cancellations.leads.none',
    });
  });
});

describe('applied to what a school user has', () => {
  let w: ContractsWorld;
  let contract: string;
  // Jobs are run here through the consumer, not sent to the queue.
  const school = async () => quiet(await actorCtx(DEMO_ACCOUNTS.schoolAdmin));
  const HEADERS = ['First Name', 'Last Name', 'DOB', 'Nationality', 'Destination', 'Start', 'End'];
  const uk = (iso: string) => iso.split('-').reverse().join('/');

  beforeAll(async () => {
    w = await seedContractsWorld();
    contract = (
      await buildContract(db(), {
        campusId: w.north.id,
        productId: w.product.id,
        startDate: day(-30),
        endDate: day(400),
      })
    ).public_id;
  }, SETUP_TIMEOUT_MS);

  it('leads every step to the start while nothing is under way', async () => {
    const ctx = await school();
    expect(await importStepLeadFor(ctx, 'review', {})).toEqual({
      path: ORDER_START,
      message: 'imports.leads.none',
    });
    expect(await orderStepLeadFor(ctx, 'fees', null)).toEqual({
      path: ORDER_START,
      message: 'order.leads.none',
    });
    expect(await cancelStepLeadFor(ctx, 'review', null)).toEqual({
      path: CANCEL_START,
      message: 'cancellations.leads.none',
    });
  });

  it('follows an import from upload to the cart, and leads steps opened without it to it', async () => {
    const ctx = await school();
    const row = ['Ana', 'Silva', '05/06/2008', 'France', 'United Kingdom', uk(day(20)), uk(day(50))];
    const v = await uploadImport(
      ctx,
      { campus_id: w.north.public_id, contract_id: contract },
      fileOf(csvOf([HEADERS, row]), 'one.csv'),
    );
    expect(await importStepLeadFor(ctx, 'match', { import: v.id })).toBeNull();
    expect(await importStepLeadFor(ctx, 'fees', {})).toEqual({
      path: `/insureds/match-columns?import=${v.id}`,
      message: 'imports.leads.resumed',
    });
    // Another tenant's import is not found: it leads on like no import at all.
    expect(
      await importStepLeadFor(await actorCtx(STRANGER.schoolUser), 'match', { import: v.id }),
    ).toMatchObject({
      message: 'imports.leads.none',
    });

    await confirmMapping(ctx, v.id, {
      // The sheet's columns are the required fields, in their order.
      columns: [...REQUIRED_TARGETS],
      date_order: 'dmy',
    });
    expect(await importStepLeadFor(ctx, 'review', { import: v.id })).toEqual({
      path: `/insureds/format-data?import=${v.id}`,
      message: 'imports.leads.not_ready',
    });
    const [staged] = await db().select().from(imports).where(eq(imports.public_id, v.id));
    await handleMessage(testEnv(), { type: 'job.run', id: staged!.job_id! });
    expect((await getImport(ctx, v.id)).status).toBe('review');
    expect(await importStepLeadFor(ctx, 'format', { import: v.id })).toEqual({
      path: `/insureds/review-applicants?import=${v.id}`,
      message: null,
    });
    expect(await importStepLeadFor(ctx, 'fees', { import: v.id })).toBeNull();

    const ib = await findImportBatch(ctx, { import: v.id });
    await addImportToCart(ctx, ib);
    const result = `/insureds/new/import-success?batch=${ib.batch.public_id}`;
    expect(await importStepLeadFor(ctx, 'review', { import: v.id })).toEqual({
      path: result,
      message: 'imports.leads.in_cart',
    });
    expect(await importStepLeadFor(ctx, 'success', { batch: ib.batch.public_id })).toBeNull();
    // Nothing under way any more.
    expect(await importStepLeadFor(ctx, 'match', {})).toMatchObject({ path: ORDER_START });
  });

  it('leads a one-by-one step opened without its batch to the order left open', async () => {
    const ctx = await school();
    const batch = await startSingleOrder(ctx, { campus_id: w.north.public_id, contract_id: contract });
    expect(await orderStepLeadFor(ctx, 'add', batch.public_id)).toBeNull();
    expect(await orderStepLeadFor(ctx, 'review', null)).toEqual({
      path: `/insureds/new/add?batch=${batch.public_id}`,
      message: 'order.leads.resumed',
    });
    expect(await orderStepLeadFor(ctx, 'review', 'no-such-batch')).toMatchObject({
      message: 'order.leads.resumed',
    });
  });

  it('leads a cancellation step opened without its sheet to the sheet under way', async () => {
    const ctx = await school();
    const v = await uploadCancellation(
      ctx,
      fileOf(csvOf([['Policy ID'], ['P00000001']]), 'c.csv', 'text/csv'),
    );
    expect(await cancelStepLeadFor(ctx, 'match', v.id)).toBeNull();
    expect(await cancelStepLeadFor(ctx, 'confirm', null)).toEqual({
      path: `/insureds/cancel/match-columns?import=${v.id}`,
      message: 'cancellations.leads.resumed',
    });
    expect(await cancelStepLeadFor(ctx, 'review', v.id)).toEqual({
      path: `/insureds/cancel/match-columns?import=${v.id}`,
      message: 'cancellations.leads.not_ready',
    });
  });
});
