/**
 * Policies named by their policy number (the "policy id" people read on an insurance card and write
 * in a spreadsheet), in the actor's scope: what a cancellation sheet and the enrolment check look up.
 */
import { and, eq } from 'drizzle-orm';
import { campuses, clients, policies } from '../../../drizzle/schema';
import { inJson } from '../../platform/db';
import { visiblePolicies } from '../access/scope';
import type { ActorCtx } from '../context';
import { policyStatus, type PolicyStatus } from './status';

/**
 * A policy number as people write it: spaces and case do not matter, and a number without its letter
 * ("123", "00000123") is the policy's number with it ("P00000123").
 */
export function policyNumberOf(text: string | null | undefined): string {
  const v = (text ?? '').replace(/\s+/g, '').toUpperCase();
  if (/^\d{1,8}$/.test(v)) return `P${v.padStart(8, '0')}`;
  return v;
}

export interface NumberedPolicy {
  id: number;
  public_id: string;
  policy_number: string;
  first_name: string;
  last_name: string;
  start_date: string;
  end_date: string;
  type: string;
  dependency_id: number | null;
  status: PolicyStatus;
  client_name: string;
  campus_name: string;
}

/** The policies in the actor's scope with these numbers (normalised), by number; the others are absent. */
export async function policiesByNumber(
  ctx: ActorCtx,
  numbers: readonly string[],
  today: string,
): Promise<Map<string, NumberedPolicy>> {
  const wanted = [...new Set(numbers.filter(Boolean))];
  const out = new Map<string, NumberedPolicy>();
  if (!wanted.length) return out;
  const rows = await ctx.db
    .select({
      id: policies.id,
      public_id: policies.public_id,
      policy_number: policies.policy_number,
      first_name: policies.first_name,
      last_name: policies.last_name,
      start_date: policies.start_date,
      end_date: policies.end_date,
      type: policies.type,
      dependency_id: policies.dependency_id,
      status: policies.status,
      client_name: clients.name,
      campus_name: campuses.name,
    })
    .from(policies)
    .innerJoin(clients, eq(clients.id, policies.client_id))
    .innerJoin(campuses, eq(campuses.id, policies.campus_id))
    .where(and(inJson(policies.policy_number, wanted), visiblePolicies(ctx.actor)));
  for (const r of rows) out.set(r.policy_number, { ...r, status: policyStatus(r, today) });
  return out;
}
