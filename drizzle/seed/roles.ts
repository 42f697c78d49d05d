/**
 * Demo roles made the way a senior admin makes them on /user-privileges (the roles service, so the
 * activity log and the audit trail have their "copied" and "updated" entries): "Finance (read only)",
 * a copy of Finance without its changes, for every company, held by a demo account; and "Britannia
 * Finance", a copy of Finance for the second company only.
 */
import type { DB } from '../../workers/platform/db';
import type { Env } from '../../workers/env';
import { loadActor } from '../../workers/domain/access/actor';
import { createRole, updateRoles } from '../../workers/domain/roles/service';

export const FINANCE_READ_ONLY = 'Finance (read only)';

export async function seedDemoRoles(
  db: DB,
  opts: { seniorAdminId: number; secondCompanyId: number },
): Promise<{ financeReadOnlySlug: string }> {
  const actor = await loadActor(db, opts.seniorAdminId, { selectedCompanyId: 0 });
  if (!actor) throw new Error('The demo senior admin cannot act');
  const ctx = { db, env: {} as Env, now: new Date(), actor };
  const second = actor.companies.find((c) => c.id === opts.secondCompanyId);
  if (!second) throw new Error('The demo senior admin does not belong to the second company');
  const copy = await createRole(ctx, 'company', {
    title: FINANCE_READ_ONLY,
    company_id: null,
    reference_role_id: 'finance',
    permissions: undefined,
  });
  // Read only: the copy keeps what Finance may see and drops what it may change.
  await updateRoles(ctx, 'company', {
    roles: [
      {
        id: copy.id,
        permissions: copy.permissions.filter(
          (p) => p.startsWith('read_') || p === 'download_policy_document',
        ),
      },
    ],
  });
  await createRole(ctx, 'company', {
    title: 'Britannia Finance',
    company_id: second.public_id,
    reference_role_id: 'finance',
    permissions: undefined,
  });
  return { financeReadOnlySlug: copy.id };
}
