/**
 * The schema of "edit personal details" on the insured's page (the applicant rules of the order flow for
 * the person's own fields; trip dates, group and cancellation are amendments, not edits). Pure.
 */
import { z } from 'zod';
import { applicantCrossIssues, applicantFields } from '../enrollments/schema';
import { msg } from '../validation';
import { POLICY_DETAIL_FIELDS, type PolicyDetailField } from './tabs';

const detailFields = Object.fromEntries(POLICY_DETAIL_FIELDS.map((k) => [k, applicantFields[k]])) as {
  [K in PolicyDetailField]: (typeof applicantFields)[K];
};

/**
 * Edit personal details: the applicant's own fields and the rules between them (phone and its country,
 * residence and destination differ), a date of birth before today; `version` is the policy's version the
 * form was read at (a change meanwhile refuses the save).
 */
export const policyDetailsSchema = z
  .object({
    ...detailFields,
    version: z.coerce.number().int().min(1).optional(),
  })
  .superRefine((a, ctx) => {
    for (const issue of applicantCrossIssues(a))
      ctx.addIssue({ code: 'custom', path: [issue.path], message: issue.message });
    if (a.date_of_birth && a.date_of_birth >= new Date().toISOString().slice(0, 10))
      ctx.addIssue({ code: 'custom', path: ['date_of_birth'], message: msg('insureds.errors.birth_past') });
  });
export type PolicyDetailsInput = z.infer<typeof policyDetailsSchema>;
