import type { AppLoadContext } from '@remix-run/cloudflare';
import { ORDER_PERMISSION, assignGroupLeader } from '@server/domain/enrollments/service';
import { getBatch } from '@server/domain/enrollments/queries';
import { isDomainError, ValidationFailed } from '@server/domain/errors';
import type { ActorCtx } from '@server/domain/context';
import type { GroupLeaderErrors } from '~/components/enrollments/group-leader-form';
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

/**
 * The action half of the group-leader form (GroupLeaderForm): gives the ticked applicants the chosen
 * group leader, or takes it away. Errors come back for the form's fields.
 */
export async function groupLeaderAction(
  ctx: ActorCtx,
  formData: FormData,
): Promise<{ ok: true; updated: number } | { ok: false; errors: GroupLeaderErrors }> {
  const leader = String(formData.get('group_leader_id') ?? '');
  const ids = formData.getAll('enrollment_ids').map(String).filter(Boolean);
  if (!ids.length) return { ok: false, errors: { enrollment_ids: ['cart.errors.select_one'] } };
  try {
    const r = await assignGroupLeader(ctx, { group_leader_id: leader || null, enrollment_ids: ids });
    return { ok: true, updated: r.updated };
  } catch (e) {
    if (e instanceof ValidationFailed) {
      const errors: GroupLeaderErrors = {};
      for (const { key, message } of e.errors) {
        const field =
          key === 'group_leader_id' ? 'group_leader_id' : key === 'policies' ? 'enrollment_ids' : 'form';
        (errors[field] ??= []).push(message);
      }
      return { ok: false, errors };
    }
    if (isDomainError(e)) return { ok: false, errors: { form: [e.message] } };
    throw e;
  }
}

/**
 * A service's ValidationFailed as Conform field errors: `row` problems (a duplicate) and anything not
 * tied to a field of the form become form errors.
 */
export function conformErrors(e: ValidationFailed, fields: readonly string[]) {
  const fieldErrors: Record<string, string[]> = {};
  const formErrors: string[] = [];
  for (const { key, message } of e.errors) {
    if (fields.includes(key)) (fieldErrors[key] ??= []).push(message);
    else formErrors.push(message);
  }
  return { fieldErrors, formErrors };
}

// The order page's services. The page takes them from here: order.ts reaches the import services, whose
// module graph reaches exceljs, and only a .server module is left out of the browser build altogether.
export { orderChoices, startSingleOrder, unfinishedOrders } from '@server/domain/enrollments/order';
