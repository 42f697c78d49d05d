import { batchOverview, getBatch, listEnrollments } from '@server/domain/enrollments/queries';
import { orderStepLeadFor } from '@server/domain/imports/leads';
import type { OrderStepName } from '@server/domain/imports/steps';
import { followLead, type StepArgs } from './imports.server';

/**
 * The batch a step of ordering works on, from `?batch=` (or the posted `batch`), in the actor's scope.
 * Opened without it, or with a batch that cannot change any more, the step leads on
 * (workers/domain/imports/steps.ts) instead. The page's loader or action checks that the user may order.
 */
export async function orderStep(
  { ctx, request, context, lang }: StepArgs,
  step: OrderStepName,
  formData?: FormData,
) {
  const id = String(formData?.get('batch') ?? new URL(request.url).searchParams.get('batch') ?? '') || null;
  const lead = await orderStepLeadFor(ctx, step, id);
  if (lead) throw followLead(context, lang, lead);
  return { ctx, batch: await getBatch(ctx, id!), lang };
}

/**
 * The fees and review steps' page: the step's batch, a page of its applicants (500 a page) and its totals.
 * Its loader names the page and passes `pageQuerySchema` as its query.
 */
export async function batchStepPage(kit: StepArgs & { query: { page: number } }, step: 'fees' | 'review') {
  const { ctx, batch } = await orderStep(kit, step);
  const [list, overview] = await Promise.all([
    listEnrollments(ctx, { page: kit.query.page, items: 500, policy_batch: batch.id }),
    batchOverview(ctx, batch.id),
  ]);
  return { batch, list, overview };
}

// The order page's services. The page takes them from here: order.ts reaches the import services, whose
// module graph reaches exceljs, and only a .server module is left out of the browser build altogether.
export { orderChoices, startSingleOrder, unfinishedOrders } from '@server/domain/enrollments/order';
