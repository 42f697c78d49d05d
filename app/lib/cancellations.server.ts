import type { AppLoadContext } from '@remix-run/cloudflare';
import { getCancellation } from '@server/domain/cancellations/service';
import { CANCEL_PERMISSION } from '@server/domain/cancellations/schema';
import { langOf, orNotFound, requirePermissions } from './guards.server';

export * from '@server/domain/cancellations/service';

/** The cancellation import of `?import=` in the actor's own work; else the 404 page. */
export async function cancellationFromRequest(request: Request, context: AppLoadContext) {
  const ctx = requirePermissions(request, context, CANCEL_PERMISSION);
  const id = new URL(request.url).searchParams.get('import') ?? '';
  if (!id) throw new Response('Not Found', { status: 404 });
  const view = await orNotFound(getCancellation(ctx, id));
  return { ctx, view, lang: langOf(request) };
}
export * from '@server/domain/cancellations/proceed';
