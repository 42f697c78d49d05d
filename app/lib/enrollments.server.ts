import type { AppLoadContext } from '@remix-run/cloudflare';
import { ORDER_PERMISSION } from '@server/domain/enrollments/service';
import { getBatch } from '@server/domain/enrollments/queries';
import { langOf, orNotFound, requirePermissions } from './guards.server';

/**
 * The batch a step of ordering works on, from `?batch=` (or the posted `batch`): in the actor's scope,
 * else the 404 page. Who may not order goes home.
 */
export async function orderStep(request: Request, context: AppLoadContext, formData?: FormData) {
  const ctx = requirePermissions(request, context, ORDER_PERMISSION);
  const id = String(formData?.get('batch') ?? new URL(request.url).searchParams.get('batch') ?? '');
  if (!id) throw new Response('Not Found', { status: 404 });
  const batch = await orNotFound(getBatch(ctx, id));
  return { ctx, batch, lang: langOf(request) };
}

// The order page's services. The page takes them from here: order.ts reaches the import services, whose
// module graph reaches exceljs, and only a .server module is left out of the browser build altogether.
export { orderChoices, startSingleOrder, unfinishedOrders } from '@server/domain/enrollments/order';
