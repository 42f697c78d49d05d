/** The campus page's tabs (spec 001 s.2) and which of them a user gets. Pure rules over the actor. */
import { can, type Actor } from '../access/actor';

/** The tabs of a campus page, in order; the first is the page's own address. */
export const CAMPUS_TABS = [
  'details',
  'contacts',
  'addresses',
  'contracts',
  'users',
  'invoices',
  'notes',
  'logs',
] as const;
export type CampusTab = (typeof CAMPUS_TABS)[number];

/** Whether the user may open a tab of a campus page (the campus itself they may read). */
export function canOpenCampusTab(actor: Actor, tab: CampusTab): boolean {
  if (tab === 'contracts') return can(actor, 'read_contract');
  if (tab === 'invoices') return can(actor, 'read_invoice');
  // The campus's users are the school users who reach it: whoever may read school users (users/service.ts).
  if (tab === 'users') return can(actor, 'read_client_user') || can(actor, 'read_school_user');
  return true;
}

/** The tabs a user sees on a campus page, in order. */
export function campusTabsFor(actor: Actor): CampusTab[] {
  return CAMPUS_TABS.filter((tab) => canOpenCampusTab(actor, tab));
}
