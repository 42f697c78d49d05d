import { redirect, type AppLoadContext } from '@remix-run/cloudflare';
import { ORDER_PERMISSION } from '@server/domain/enrollments/batches';
import { NotFound, ValidationFailed, isDomainError } from '@server/domain/errors';
import { findImportBatch, type ImportBatch } from '@server/domain/imports/review';
import { getImport } from '@server/domain/imports/service';
import type { ActorCtx } from '@server/domain/context';
import { localePath } from '~/i18n/config';
import { fieldErrorsOf, langOf, orNotFound, requirePermissions } from './guards.server';

/** The import of `?import=` (or a posted `import`) in the actor's scope; else the 404 page. */
export async function importFromRequest(request: Request, context: AppLoadContext, formData?: FormData) {
  const ctx = requirePermissions(request, context, ORDER_PERMISSION);
  const id = String(formData?.get('import') ?? new URL(request.url).searchParams.get('import') ?? '');
  if (!id) throw new Response('Not Found', { status: 404 });
  const view = await orNotFound(getImport(ctx, id));
  return { ctx, view, lang: langOf(request) };
}

/**
 * The draft batch a step after staging works on, from `?import=` or `?batch=` (or the posted ones). An
 * import not staged yet goes to its progress page; anything out of scope is the 404 page.
 */
export async function importBatchFromRequest(
  request: Request,
  context: AppLoadContext,
  formData?: FormData,
): Promise<{ ctx: ActorCtx; ib: ImportBatch; lang: string }> {
  const ctx = requirePermissions(request, context, ORDER_PERMISSION);
  const url = new URL(request.url);
  const pick = (name: string) => String(formData?.get(name) ?? url.searchParams.get(name) ?? '') || null;
  const ref = { import: pick('import'), batch: pick('batch') };
  const lang = langOf(request);
  if (!ref.import && !ref.batch) throw new Response('Not Found', { status: 404 });
  try {
    return { ctx, ib: await findImportBatch(ctx, ref), lang };
  } catch (e) {
    if (e instanceof NotFound && ref.import) {
      // Staging not finished: its progress page (an unknown import, or one whose order was discarded,
      // is the 404 page).
      const view = await orNotFound(getImport(ctx, ref.import));
      if (view.status === 'uploaded' || view.status === 'staging' || view.status === 'failed')
        throw redirect(localePath(lang, `/insureds/format-data?import=${ref.import}`));
    }
    if (e instanceof NotFound) throw new Response('Not Found', { status: 404 });
    throw e;
  }
}

/** Where the flow goes after the review: family members, then group leaders, then the fees. */
export function nextAfterReview(
  lang: string,
  batchId: string,
  counts: { family: number; leaders: number },
  from: 'review' | 'link' = 'review',
): string {
  if (from === 'review' && counts.family > 0)
    return localePath(lang, `/insureds/new/link-dependents?batch=${batchId}`);
  if (counts.leaders > 0) return localePath(lang, `/insureds/new/group-leader?batch=${batchId}`);
  return localePath(lang, `/insureds/new/import-fees?batch=${batchId}`);
}

/** A service call for an action: validation errors come back as `{ key: messages }`, other domain errors as `form`. */
export async function withErrors<T>(
  run: () => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; errors: Record<string, string[]> }> {
  try {
    return { ok: true, value: await run() };
  } catch (e) {
    if (e instanceof ValidationFailed) return { ok: false, errors: fieldErrorsOf(e) };
    if (isDomainError(e) && !(e instanceof NotFound)) return { ok: false, errors: { form: [e.message] } };
    if (e instanceof NotFound) throw new Response('Not Found', { status: 404 });
    throw e;
  }
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
