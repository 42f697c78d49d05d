/**
 * `GET insureds/list` (spec 002 s.7): the insureds list as the order pages read it, one batch at a time
 * (`policy_batch`, 25 a page until a page is not full) or by type, in policy-number order by default. The
 * same filters, scope and rows as `GET policies`; a batch the user cannot see answers "not found" rather
 * than an empty page, as any other id of another tenant does.
 */
import { requirePermission } from '../access/actor';
import type { ActorCtx } from '../context';
import { findVisibleBatch } from '../enrollments/batches';
import type { Page } from '../list-query';
import type { PolicyListQuery } from './list-query';
import { listPolicies, READ, type PolicyListRow } from './service';

export async function listInsureds(ctx: ActorCtx, query: PolicyListQuery): Promise<Page<PolicyListRow>> {
  requirePermission(ctx.actor, READ);
  if (query.policy_batch) await findVisibleBatch(ctx, query.policy_batch);
  return listPolicies(ctx, query);
}
