/**
 * The insured's page (spec 001 s.2 "Insured detail"): its tabs, which of them a user may open, what the
 * header offers, and the fields of "edit personal details" (its schema is in ./schema.ts). Pure, free of zod: the
 * insured page's layout reads it in the browser.
 */
import type { Actor } from '../access/actor';
import type { PolicyListStatus } from './list-query';

/** The tabs in order; the first (`policy`) is the page's own address. */
export const INSURED_TABS = [
  'policy',
  'documents',
  'notes',
  'logs',
  'mfa_logs',
  'active_policies',
  'previous_policies',
  'cancelled_policies',
] as const;
export type InsuredTab = (typeof INSURED_TABS)[number];

/** The permission each tab needs on top of `read_policy` (null: none more). */
export const INSURED_TAB_PERMISSIONS: Record<InsuredTab, string | null> = {
  policy: null,
  documents: 'download_policy_document',
  notes: null,
  logs: null,
  mfa_logs: null,
  active_policies: 'read_active_policy',
  previous_policies: 'read_past_policy',
  cancelled_policies: 'read_cancelled_policy',
};

const holds = (actor: Actor, permission: string | null) =>
  !permission || actor.permissions.has(permission as never);

/** The tabs an actor may open on an insured's page. */
export function insuredTabsFor(actor: Actor): InsuredTab[] {
  if (!actor.permissions.has('read_policy' as never)) return [];
  return INSURED_TABS.filter((tab) => holds(actor, INSURED_TAB_PERMISSIONS[tab]));
}

/** What the header offers for a policy in a given status. Amendments are never offered on a cancelled policy. */
export function insuredActionsFor(actor: Actor, status: PolicyListStatus) {
  const live = status !== 'cancelled';
  const p = (name: string) => actor.permissions.has(name as never);
  return {
    edit_details: live && p('update_insured'),
    add_note: p('update_insured'),
    download_card: live && p('download_policy_document'),
    extend: live && p('update_policy'),
    trip_dates: live && p('update_policy'),
    // Only a policy that has not started can be cancelled (spec 001 s.4).
    cancel: status === 'not_started' && p('update_policy'),
    add_policy: p('create_insured'),
  };
}

/** The fields "edit personal details" changes, in the form's order. */
export const POLICY_DETAIL_FIELDS = [
  'first_name',
  'last_name',
  'date_of_birth',
  'gender',
  'email',
  'personal_email',
  'phone_country',
  'phone_number',
  'passport_number',
  'residence_country_id',
  'destination_country_id',
  'destination_address',
  'student_number',
  'plan',
  'year_of_study',
] as const;
export type PolicyDetailField = (typeof POLICY_DETAIL_FIELDS)[number];

/** A note for many insureds at once (the list's bulk "add note"): the ids and the note's fields. */
export const POLICY_NOTE_LIMIT = 1000;
