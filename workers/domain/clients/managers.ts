/** The account managers a client may have: the form's choices, the one a form names, names for logs. */
import { and, eq } from 'drizzle-orm';
import { roles, userCompanies, userRoles, users } from '../../../drizzle/schema';
import type { DB } from '../../platform/db';
import { ACCOUNT_MANAGER_ROLE } from '../access/scope';
import { ValidationFailed } from '../errors';
import { msg } from '../validation';

// ---------------------------------------------------------------- account managers

export interface AccountManagerOption {
  id: string;
  name: string;
  email: string;
  company_id: number;
}

/** Active company users with the account manager role, of the given companies (for the form's select). */
export async function accountManagersOf(db: DB, companyIds: number[]): Promise<AccountManagerOption[]> {
  if (!companyIds.length) return [];
  const rows = await db
    .selectDistinct({
      id: users.public_id,
      first_name: users.first_name,
      last_name: users.last_name,
      email: users.email,
      company_id: userCompanies.company_id,
    })
    .from(users)
    .innerJoin(userCompanies, eq(userCompanies.user_id, users.id))
    .innerJoin(userRoles, eq(userRoles.user_id, users.id))
    .innerJoin(roles, eq(roles.id, userRoles.role_id))
    .where(
      and(eq(users.user_type, 'company'), eq(users.status, 'active'), eq(roles.slug, ACCOUNT_MANAGER_ROLE)),
    )
    .orderBy(users.first_name, users.last_name);
  return rows
    .filter((r) => companyIds.includes(r.company_id))
    .map((r) => ({
      id: r.id,
      name: `${r.first_name} ${r.last_name}`,
      email: r.email,
      company_id: r.company_id,
    }));
}

/**
 * The account manager a form names (a public id): an active company user of the client's company with
 * the account manager role. Empty means none.
 */
export async function resolveAccountManager(
  db: DB,
  companyId: number,
  id: string | undefined | null,
): Promise<{ id: number; name: string } | null> {
  if (!id) return null;
  const [row] = await db
    .select({ id: users.id, first_name: users.first_name, last_name: users.last_name })
    .from(users)
    .innerJoin(
      userCompanies,
      and(eq(userCompanies.user_id, users.id), eq(userCompanies.company_id, companyId)),
    )
    .innerJoin(userRoles, eq(userRoles.user_id, users.id))
    .innerJoin(roles, and(eq(roles.id, userRoles.role_id), eq(roles.slug, ACCOUNT_MANAGER_ROLE)))
    .where(and(eq(users.public_id, id), eq(users.user_type, 'company'), eq(users.status, 'active')))
    .limit(1);
  if (!row) throw ValidationFailed.field('account_manager_id', msg('clients.errors.account_manager_invalid'));
  return { id: row.id, name: `${row.first_name} ${row.last_name}` };
}

export async function userName(
  db: DB,
  id: number | null,
): Promise<{ id: string; name: string; email: string } | null> {
  if (!id) return null;
  const [u] = await db
    .select({
      id: users.public_id,
      first_name: users.first_name,
      last_name: users.last_name,
      email: users.email,
    })
    .from(users)
    .where(eq(users.id, id))
    .limit(1);
  return u ? { id: u.id, name: `${u.first_name} ${u.last_name}`, email: u.email } : null;
}
