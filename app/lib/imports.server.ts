import type { AppLoadContext } from '@remix-run/cloudflare';
import { importStepLeadFor } from '@server/domain/imports/leads';
import { findImportBatch, type ImportBatch } from '@server/domain/imports/review';
import { getImport } from '@server/domain/imports/service';
import type { ImportStepName, Lead } from '@server/domain/imports/steps';
import type { ActorCtx } from '@server/domain/context';
import { redirectWithToast } from './actions.server';

/**
 * What a step of a flow reads from the kit's loader or action (`pageLoader`'s `load`, an action's
 * `handle`): the signed-in actor, whose permission the kit has checked, and the request.
 */
export interface StepArgs {
  ctx: ActorCtx;
  request: Request;
  context: AppLoadContext;
  lang: string;
}

/** A step's lead (workers/domain/imports/steps.ts) as a redirect, its message shown there once. */
export function followLead(context: AppLoadContext, lang: string, lead: Lead): Response {
  return redirectWithToast(context, lang, lead.path, lead.message ?? undefined, { type: 'info' });
}

/** The import or batch a step names: `?import=`/`?batch=` of its address, or the posted ones. */
function refOf(request: Request, formData?: FormData) {
  const url = new URL(request.url);
  const pick = (name: string) => String(formData?.get(name) ?? url.searchParams.get(name) ?? '') || null;
  return { import: pick('import'), batch: pick('batch') };
}

/**
 * The import a step before staging works on (matching its columns, its progress). Opened without it,
 * or with an import in another state, the step leads on (steps.ts) instead.
 */
export async function importStep(
  { ctx, request, context, lang }: StepArgs,
  step: Extract<ImportStepName, 'match' | 'format'>,
  formData?: FormData,
) {
  const ref = refOf(request, formData);
  const lead = await importStepLeadFor(ctx, step, { import: ref.import });
  if (lead) throw followLead(context, lang, lead);
  return { ctx, view: await getImport(ctx, ref.import!), lang };
}

/**
 * The draft batch a step after staging works on (review, family members, fees), from `?import=` or
 * `?batch=`. Opened without it, or with an import in another state, the step leads on (steps.ts).
 */
export async function importBatchStep(
  { ctx, request, context, lang }: StepArgs,
  step: Extract<ImportStepName, 'review' | 'link' | 'fees' | 'success'>,
  formData?: FormData,
): Promise<{ ctx: ActorCtx; ib: ImportBatch; lang: string }> {
  const ref = refOf(request, formData);
  const lead = await importStepLeadFor(ctx, step, ref);
  if (lead) throw followLead(context, lang, lead);
  return { ctx, ib: await findImportBatch(ctx, ref), lang };
}

/**
 * Where the flow goes after the review: family members, then group leaders, then the fees (a path
 * without the language prefix).
 */
export function nextAfterReview(
  batchId: string,
  counts: { family: number; leaders: number },
  from: 'review' | 'link' = 'review',
): string {
  if (from === 'review' && counts.family > 0) return `/insureds/new/link-dependents?batch=${batchId}`;
  if (counts.leaders > 0) return `/insureds/new/group-leader?batch=${batchId}`;
  return `/insureds/new/import-fees?batch=${batchId}`;
}

// The import services, for the pages' loaders and actions. Pages take them from here, never from
// workers/domain/imports directly: that module graph reaches exceljs (loaded with a dynamic import), and
// the browser build follows dynamic imports even where they are never called; a .server module is left
// out of the browser build altogether.
export { activeImports, confirmMapping, importProgress, uploadImport } from '@server/domain/imports/service';
export {
  addImportToCart,
  batchCounts,
  dependentsStep,
  erroredIds,
  feesStep,
  idsInBatch,
  importResult,
  reviewPage,
  type ImportBatch,
} from '@server/domain/imports/review';
