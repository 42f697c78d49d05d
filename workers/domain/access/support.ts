import { Forbidden } from '../errors';
import { msg } from '../validation';
import { hasRole, type Actor } from './actor';

/**
 * The support view: a senior admin views the portal as one school user of their own companies' clients
 * (spec 000 s.4, the other-user token). Who may open one, and what may not be done in one, is decided
 * here (docs/decisions/sign-in.md, "Support view").
 */

/** The role that may open a support view (spec 000 s.6: a check by role name exists). */
export const SUPPORT_ROLE = 'senior_admin';

/** True when `admin`, signed in as themselves, may open a support view at all. */
export function mayOpenSupportView(admin: Actor | null | undefined): boolean {
  return (
    !!admin &&
    admin.user_type === 'company' &&
    !admin.support_admin_id &&
    !admin.api_key_id &&
    hasRole(admin, SUPPORT_ROLE)
  );
}

/**
 * True when `admin` may view the portal as `target`: a school user (never a company or student user)
 * whose client belongs to one of the admin's companies (all of them, whatever the top bar shows).
 */
export function maySupportView(
  admin: Actor,
  target: Pick<Actor, 'user_id' | 'user_type' | 'companies'>,
): boolean {
  return (
    mayOpenSupportView(admin) &&
    target.user_id !== admin.user_id &&
    target.user_type === 'school' &&
    target.companies.some((c) => admin.companies.some((a) => a.id === c.id))
  );
}

/** True when the actor is a senior admin viewing the portal as someone else. */
export function inSupportView(actor: Actor | null | undefined): boolean {
  return !!actor?.support_admin_id;
}

/**
 * What the support view may not do (the user's password, profile and sessions, card payments, the region
 * hand-over, API keys): those services call this first.
 */
export function refuseInSupportView(actor: Actor | null | undefined): void {
  if (inSupportView(actor)) throw new Forbidden(msg('support.not_in_support_view'));
}
