import type { Actor } from './actor';
import { can } from './actor';

/**
 * Who may issue and revoke API keys and register webhooks (docs/decisions/api-and-partners.md, "API keys"):
 * company users who may edit users (`update_user`), and school users who may edit their school's users
 * (`update_school_user`, the master user). A request made with a key, or in the support view, may not:
 * a key never makes keys.
 */
export const MANAGE_PARTNER_ACCESS = 'update_user|update_school_user';

export function canManagePartnerAccess(actor: Actor): boolean {
  if (actor.api_key_id !== null || actor.support_admin_id !== null) return false;
  return actor.user_type === 'company'
    ? can(actor, 'update_user')
    : actor.user_type === 'school' && can(actor, 'update_school_user');
}

export interface KeyGrant {
  id: number;
  company_id: number;
  client_id: number | null;
  campus_id: number | null;
  permissions: readonly string[];
}

/**
 * The actor of a request made with an API key: its creator as they are now, narrowed to the key's
 * permissions (key ∩ creator's current ones) and to the key's company (and campus). Null when the
 * creator no longer reaches what the key names (left the company, lost the campus, changed client).
 */
export function narrowToApiKey(creator: Actor, key: KeyGrant): Actor | null {
  const company = creator.companies.find((c) => c.id === key.company_id);
  if (!company) return null;
  if (creator.user_type === 'company' && key.client_id !== null) return null;
  if (creator.user_type === 'school' && creator.client_id !== key.client_id) return null;
  if (creator.user_type === 'student') return null;
  let campusIds = creator.campus_ids;
  if (key.campus_id !== null) {
    if (campusIds !== null && !campusIds.includes(key.campus_id)) return null;
    campusIds = [key.campus_id];
  }
  const granted = new Set(key.permissions);
  return {
    ...creator,
    permissions: new Set([...creator.permissions].filter((p) => granted.has(p))),
    companies: [company],
    selected_company_id: company.id,
    campus_ids: campusIds,
    session_id: null,
    holds_other_region_token: false,
    api_key_id: key.id,
    support_admin_id: null,
  };
}
