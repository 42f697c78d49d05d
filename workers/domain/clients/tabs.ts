/**
 * The client page's tabs (spec 001 s.2) and which of them, and which status actions, a user gets; and
 * the bulk actions each tab of the client list offers. Pure rules over the actor and the client.
 */
import { can, type Actor } from '../access/actor';
import { ValidationFailed } from '../errors';
import type { BulkSelection } from '../list-query';
import { msg } from '../messages';
import {
  CLIENT_ACTION_RULES,
  CLIENT_ACTIONS,
  type ClientAction,
  type ClientStatus,
  type ClientTab,
} from './schema';
import { CLIENT_ACTION_PERMISSIONS } from './status';

/** The tabs of a client's page, in order; the first is the page's own address. */
export const CLIENT_DETAIL_TABS = [
  'profile',
  'contacts',
  'billing',
  'addresses',
  'users',
  'campuses',
  'service_agreements',
  'logs',
  'notes',
  'receivables',
  'payments',
  'invoices',
  'transactions',
] as const;
export type ClientDetailTab = (typeof CLIENT_DETAIL_TABS)[number];

/** Whether the user may open a tab of a client's page (the client itself they may read). */
export function canOpenClientTab(actor: Actor, tab: ClientDetailTab): boolean {
  switch (tab) {
    case 'users':
      return can(actor, 'read_client_user') || can(actor, 'read_user');
    case 'campuses':
      return can(actor, 'read_campus');
    case 'service_agreements':
      return can(actor, 'read_service_agreement');
    case 'logs':
      return can(actor, 'read_client_log');
    // The money tabs: the client's billing, or its invoices.
    case 'receivables':
    case 'payments':
    case 'invoices':
    case 'transactions':
      return can(actor, 'read_client_billing') || can(actor, 'read_invoice');
    default:
      return true;
  }
}

/** The tabs a user sees on a client's page, in order. */
export function clientTabsFor(actor: Actor): ClientDetailTab[] {
  return CLIENT_DETAIL_TABS.filter((tab) => canOpenClientTab(actor, tab));
}

/** The status actions a user may take on a client in its present status (delete always shows). */
export function clientActionsFor(actor: Actor, status: ClientStatus): ClientAction[] {
  return CLIENT_ACTIONS.filter(
    (a) =>
      can(actor, CLIENT_ACTION_PERMISSIONS[a]) &&
      (a === 'delete' || CLIENT_ACTION_RULES[a].from.includes(status)),
  );
}

/** Which bulk actions make sense on each tab of the client list. */
export const CLIENT_LIST_TAB_ACTIONS: Record<ClientTab, readonly ClientAction[]> = {
  active: ['archive', 'delete'],
  onboarding: ['activate', 'request_onboarding', 'archive', 'delete'],
  archived: ['reactivate', 'delete'],
};

/** The bulk actions a user gets on a tab of the client list: the tab's, those they are allowed. */
export function clientBulkActionsFor(actor: Actor, tab: ClientTab): ClientAction[] {
  return CLIENT_LIST_TAB_ACTIONS[tab].filter((a) => can(actor, CLIENT_ACTION_PERMISSIONS[a]));
}

/**
 * "Add contract…" from the client list opens the new service agreement of one client: the one selected.
 * Any other selection (none, several, all matching) is refused with a message saying to choose one.
 */
export function contractClientOf(selection: BulkSelection): string {
  if (!selection.all_matching && selection.ids.length === 1) return selection.ids[0];
  throw ValidationFailed.field('ids', msg('clients.bulk.add_contract_one'));
}
