/**
 * The cancellation steps' rules (steps.ts) applied to what the actor has: the sheet a step was opened
 * with (one not found counts as missing) and the actor's own sheets under way.
 */
import type { ActorCtx } from '../context';
import { NotFound } from '../errors';
import { getCancellation, recentCancellations } from './service';
import { cancelStepLead, missingCancellationLead, type CancelStepName, type Lead } from './steps';

/** Where a cancellation step leads instead of showing the sheet `id`; null when it shows it. */
export async function cancelStepLeadFor(
  ctx: ActorCtx,
  step: CancelStepName,
  id: string | null,
): Promise<Lead | null> {
  if (id) {
    try {
      const v = await getCancellation(ctx, id);
      return cancelStepLead(step, { id: v.id, status: v.status, quoted: !!v.amendment_id });
    } catch (e) {
      if (!(e instanceof NotFound)) throw e;
    }
  }
  const open = (await recentCancellations(ctx, 5)).find((c) => c.status !== 'done');
  return missingCancellationLead(open ? { id: open.id, status: open.status, quoted: open.amended } : null);
}
