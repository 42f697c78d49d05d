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

/**
 * The fact-find questionnaire: the short fixed set of questions a broker asks a new client, kept in
 * clients.fact_find as `{ question: answer }`.
 */
export const FACT_FIND_QUESTIONS = [
  { key: 'international_students_per_year', kind: 'number' },
  {
    key: 'typical_trip_length',
    kind: 'choice',
    options: ['under_1_month', '1_to_3_months', '3_to_6_months', '6_to_12_months', 'over_12_months'],
  },
  { key: 'countries_of_origin', kind: 'text', max: 500 },
  { key: 'current_insurer', kind: 'text', max: 100 },
  {
    key: 'renewal_month',
    kind: 'choice',
    options: ['01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '11', '12'],
  },
  { key: 'group_trips_abroad', kind: 'choice', options: ['yes', 'no'] },
  { key: 'additional_requirements', kind: 'text', max: 1000 },
] as const;
export type FactFindKey = (typeof FACT_FIND_QUESTIONS)[number]['key'];
