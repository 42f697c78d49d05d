import type { AppLoadContext } from '@remix-run/cloudflare';
import { cancelStepLeadFor } from '@server/domain/cancellations/leads';
import { getCancellation } from '@server/domain/cancellations/service';
import { CANCEL_PERMISSION } from '@server/domain/cancellations/schema';
import type { CancelStepName } from '@server/domain/cancellations/steps';
import { followLead } from './imports.server';
import { langOf, requirePermissions } from './guards.server';

export * from '@server/domain/cancellations/service';

/**
 * The cancellation sheet a step works on, from `?import=` in the actor's own work. Opened without it, or
 * with a sheet in another state, the step leads on (workers/domain/cancellations/steps.ts) instead.
 */
export async function cancellationStep(request: Request, context: AppLoadContext, step: CancelStepName) {
  const ctx = requirePermissions(request, context, CANCEL_PERMISSION);
  const lang = langOf(request);
  const id = new URL(request.url).searchParams.get('import') || null;
  const lead = await cancelStepLeadFor(ctx, step, id);
  if (lead) throw followLead(context, lang, lead);
  return { ctx, view: await getCancellation(ctx, id!), lang };
}
export * from '@server/domain/cancellations/proceed';
