/**
 * The clients list's tabs and the statuses each shows (spec 001 s.2): plain values, free of zod, so the
 * list page reads them without loading the schema library (schema.ts re-exports them).
 */
import type { CLIENT_STATUSES } from '../../../drizzle/enums';

type ClientStatus = (typeof CLIENT_STATUSES)[number];

/** The list tabs (spec 001 s.2): each shows a group of statuses. */
export const CLIENT_TABS = {
  active: ['active', 'suspended'],
  onboarding: ['pending_onboarding', 'draft', 'waiting_sa', 'waiting_for_approval', 'declined'],
  archived: ['archived'],
} as const satisfies Record<string, readonly ClientStatus[]>;
export type ClientTab = keyof typeof CLIENT_TABS;
export const CLIENT_TAB_NAMES = Object.keys(CLIENT_TABS) as ClientTab[];

export function tabOfStatus(status: ClientStatus): ClientTab {
  return (Object.keys(CLIENT_TABS) as ClientTab[]).find((t) =>
    (CLIENT_TABS[t] as readonly string[]).includes(status),
  )!;
}
