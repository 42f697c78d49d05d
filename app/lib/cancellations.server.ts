import { cancelStepLeadFor } from '@server/domain/cancellations/leads';
import { getCancellation } from '@server/domain/cancellations/service';
import type { CancelStepName } from '@server/domain/cancellations/steps';
import { followLead, type StepArgs } from './imports.server';

export * from '@server/domain/cancellations/service';

/**
 * The cancellation sheet a step works on, from `?import=` in the actor's own work. Opened without it, or
 * with a sheet in another state, the step leads on (workers/domain/cancellations/steps.ts) instead. The
 * page's loader checks that the user may cancel (CANCEL_PERMISSION).
 */
export async function cancellationStep({ ctx, request, context, lang }: StepArgs, step: CancelStepName) {
  const id = new URL(request.url).searchParams.get('import') || null;
  const lead = await cancelStepLeadFor(ctx, step, id);
  if (lead) throw followLead(context, lang, lead);
  return { ctx, view: await getCancellation(ctx, id!), lang };
}
export * from '@server/domain/cancellations/proceed';
