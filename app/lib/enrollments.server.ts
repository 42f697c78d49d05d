import type { AppLoadContext } from '@remix-run/cloudflare';
import { ORDER_PERMISSION } from '@server/domain/enrollments/service';
import { getBatch } from '@server/domain/enrollments/queries';
import { orderStepLeadFor } from '@server/domain/imports/leads';
import type { OrderStepName } from '@server/domain/imports/steps';
import { followLead } from './imports.server';
import { langOf, requirePermissions } from './guards.server';

/**
 * The batch a step of ordering works on, from `?batch=` (or the posted `batch`), in the actor's scope.
 * Opened without it, or with a batch that cannot change any more, the step leads on
 * (workers/domain/imports/steps.ts) instead. Who may not order goes home.
 */
export async function orderStep(
  request: Request,
  context: AppLoadContext,
  step: OrderStepName,
  formData?: FormData,
) {
  const ctx = requirePermissions(request, context, ORDER_PERMISSION);
  const lang = langOf(request);
  const id = String(formData?.get('batch') ?? new URL(request.url).searchParams.get('batch') ?? '') || null;
  const lead = await orderStepLeadFor(ctx, step, id);
  if (lead) throw followLead(context, lang, lead);
  return { ctx, batch: await getBatch(ctx, id!), lang };
}

// The order page's services. The page takes them from here: order.ts reaches the import services, whose
// module graph reaches exceljs, and only a .server module is left out of the browser build altogether.
export { orderChoices, startSingleOrder, unfinishedOrders } from '@server/domain/enrollments/order';
