/**
 * The steps' rules (steps.ts) applied to what the actor has: the import or batch a step was opened
 * with, read in the actor's scope (one not found counts as missing, so another tenant's id leads on
 * like no id at all), and the actor's own orders under way.
 */
import type { ActorCtx } from '../context';
import { findVisibleBatch } from '../enrollments/batches';
import { unfinishedOrders } from '../enrollments/order';
import { NotFound } from '../errors';
import { findImportBatch } from './review';
import { activeImports, getImport } from './service';
import {
  importStepLead,
  missingImportLead,
  missingOrderLead,
  orderStepLead,
  type ImportState,
  type ImportStepName,
  type Lead,
  type OrderStepName,
} from './steps';

/** The import and batch a step names (`import` first, else `batch`), or null when there is none to read. */
async function importStateOf(
  ctx: ActorCtx,
  ref: { import?: string | null; batch?: string | null },
): Promise<ImportState | null> {
  try {
    if (ref.import) {
      const v = await getImport(ctx, ref.import);
      const batch = v.batch_id ? await findVisibleBatch(ctx, v.batch_id) : null;
      return {
        import: { id: v.id, status: v.status },
        batch: batch ? { id: batch.public_id, status: batch.status } : null,
      };
    }
    if (ref.batch) {
      const { batch, imp } = await findImportBatch(ctx, { batch: ref.batch });
      return {
        import: imp ? { id: imp.public_id, status: imp.status } : null,
        batch: { id: batch.public_id, status: batch.status },
      };
    }
    return null;
  } catch (e) {
    if (e instanceof NotFound) return null;
    throw e;
  }
}

/** The actor's newest import under way (being matched, read, reviewed, or failed), as a step finds it. */
async function openImport(ctx: ActorCtx): Promise<ImportState | null> {
  const [newest] = await activeImports(ctx, {}, 1);
  if (!newest) return null;
  return {
    import: { id: newest.id, status: newest.status },
    batch: newest.batch_id ? { id: newest.batch_id, status: 'draft' } : null,
  };
}

/**
 * Where a step of ordering by spreadsheet leads instead of showing, for the import or batch it was
 * opened with; null when it shows it.
 */
export async function importStepLeadFor(
  ctx: ActorCtx,
  step: ImportStepName,
  ref: { import?: string | null; batch?: string | null },
): Promise<Lead | null> {
  const state = await importStateOf(ctx, ref);
  if (state) return importStepLead(step, state);
  return missingImportLead(step, step === 'success' ? null : await openImport(ctx));
}

/**
 * Where a step of ordering one by one (or the group leaders of either way) leads instead of showing,
 * for the batch it was opened with; null when it shows it.
 */
export async function orderStepLeadFor(
  ctx: ActorCtx,
  step: OrderStepName,
  batchId: string | null,
): Promise<Lead | null> {
  if (batchId) {
    try {
      return orderStepLead(step, await findVisibleBatch(ctx, batchId));
    } catch (e) {
      if (!(e instanceof NotFound)) throw e;
    }
  }
  const { drafts } = await unfinishedOrders(ctx);
  return missingOrderLead(drafts.find((d) => d.source === 'single') ?? null);
}
