/**
 * /insureds/confirm-enrolment (docs/decisions/after-the-sale.md "Confirm enrolment"): confirms whether people are
 * enrolled, by the policy ids on their insurance cards (and their last names, to be sure it is the right
 * person), as a school confirms a student's cover to a host family, a visa office or a trip organiser.
 * Each policy is looked up in the actor's scope (one that is not theirs is "not found", as one that does
 * not exist) and answered with its state today: enrolled and covered now, enrolled with cover to come,
 * cover ended, or cancelled.
 */
import { z } from 'zod';
import { requirePermission } from '../access/actor';
import type { ActorCtx } from '../context';
import { msg, todayIso } from '../validation';
import { simplify } from '../imports/normalise';
import { policiesByNumber, policyNumberOf } from './by-number';

/** At most this many policies are confirmed at once. */
export const MAX_ENROLMENT_CHECKS = 200;
export const ENROLMENT_CHECK_PERMISSION = 'read_policy';

const item = z.object({
  policy_id: z.string().trim().min(1, msg('validation.required')).max(40),
  last_name: z.string().trim().max(100).optional(),
});

/** The API's body: the policy ids with, optionally, the last names to check. */
export const enrolmentCheckSchema = z.object({
  items: z
    .array(item)
    .min(1, msg('reminders.enrolment.errors.required'))
    .max(MAX_ENROLMENT_CHECKS, msg('reminders.enrolment.errors.too_many', { max: MAX_ENROLMENT_CHECKS })),
});
export type EnrolmentCheckInput = z.infer<typeof enrolmentCheckSchema>;

/** The page's form: one policy id per line, a last name after a comma, semicolon or tab. */
export const enrolmentCheckFormSchema = z.object({
  policies: z
    .string({ required_error: msg('reminders.enrolment.errors.required') })
    .max(20_000)
    .transform((text, c) => {
      const items = text
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter(Boolean)
        .map((line) => {
          const [policy_id, last_name] = line.split(/\s*[,;\t]\s*/);
          return { policy_id: policy_id ?? '', last_name: last_name || undefined };
        });
      if (!items.length) c.addIssue({ code: 'custom', message: msg('reminders.enrolment.errors.required') });
      if (items.length > MAX_ENROLMENT_CHECKS)
        c.addIssue({
          code: 'custom',
          message: msg('reminders.enrolment.errors.too_many', { max: MAX_ENROLMENT_CHECKS }),
        });
      return items;
    }),
});

export type EnrolmentState = 'enrolled' | 'upcoming' | 'ended' | 'cancelled' | 'not_found' | 'name_mismatch';

export interface EnrolmentResult {
  line: number;
  policy_id: string;
  state: EnrolmentState;
  insured: {
    first_name: string;
    last_name: string;
    start_date: string;
    end_date: string;
    client: string;
    campus: string;
  } | null;
}

/** Confirms the enrolment of each policy named, in order. */
export async function confirmEnrolment(
  ctx: ActorCtx,
  input: EnrolmentCheckInput,
): Promise<{ results: EnrolmentResult[]; enrolled: number; total: number }> {
  requirePermission(ctx.actor, ENROLMENT_CHECK_PERMISSION);
  const today = todayIso(ctx.now);
  const numbers = input.items.map((i) => policyNumberOf(i.policy_id));
  const found = await policiesByNumber(ctx, numbers, today);
  const results = input.items.map((i, index): EnrolmentResult => {
    const number = numbers[index]!;
    const p = found.get(number);
    if (!p) return { line: index + 1, policy_id: number, state: 'not_found', insured: null };
    // A wrong last name says nothing about the policy named.
    if (i.last_name && simplify(i.last_name) !== simplify(p.last_name))
      return { line: index + 1, policy_id: number, state: 'name_mismatch', insured: null };
    const state: EnrolmentState =
      p.status === 'active'
        ? 'enrolled'
        : p.status === 'not_started'
          ? 'upcoming'
          : p.status === 'expired'
            ? 'ended'
            : 'cancelled';
    return {
      line: index + 1,
      policy_id: number,
      state,
      insured: {
        first_name: p.first_name,
        last_name: p.last_name,
        start_date: p.start_date,
        end_date: p.end_date,
        client: p.client_name,
        campus: p.campus_name,
      },
    };
  });
  return {
    results,
    enrolled: results.filter((r) => r.state === 'enrolled' || r.state === 'upcoming').length,
    total: results.length,
  };
}
