/**
 * Policy status from its dates (spec 000 s.4, 001 s.4): active when the start is before now and the end
 * after now; expired when the end is before now; not_started when the start is after now; cancelled when
 * either date is missing (or the policy was cancelled). Dates are compared as calendar days: a policy is
 * active on its first and last day.
 */
export type PolicyStatus = 'active' | 'expired' | 'not_started' | 'cancelled';

/** The statuses the insureds list shows and filters by, in its order (pure: list pages read it). */
export const POLICY_LIST_STATUSES = ['active', 'not_started', 'expired', 'cancelled'] as const;
export type PolicyListStatus = (typeof POLICY_LIST_STATUSES)[number];

export function policyStatus(
  p: { start_date: string | null; end_date: string | null; status?: string | null },
  today: string,
): PolicyStatus {
  if (p.status === 'cancelled' || !p.start_date || !p.end_date) return 'cancelled';
  if (p.end_date < today) return 'expired';
  if (p.start_date > today) return 'not_started';
  return 'active';
}
