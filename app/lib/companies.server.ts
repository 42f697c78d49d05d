import type { Submission } from '@conform-to/dom';
import type { SubmissionResult } from '@conform-to/react';
import { SAVE_FAILED } from '@server/domain/companies/service';
import { withFormErrors } from '~/lib/guards.server';

/**
 * Runs a company save for a form. On failure the reply carries the field errors and, above the form,
 * 'Unable to save the company!' (spec 001 s.8); what was typed comes back, so nothing is lost.
 */
export async function saveCompany<T>(
  submission: Submission<unknown>,
  run: () => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; reply: SubmissionResult<string[]>; status: number }> {
  const r = await withFormErrors(submission, run);
  if (r.ok) return r;
  const others = (r.reply.error?.[''] ?? []).filter((e) => e !== SAVE_FAILED);
  return { ...r, reply: { ...r.reply, error: { ...r.reply.error, '': [SAVE_FAILED, ...others] } } };
}

/** The reply of a company form that did not parse: its field errors and 'Unable to save the company!'. */
export function failedCompanyReply(submission: Submission<unknown>): SubmissionResult<string[]> {
  return submission.reply({ formErrors: [SAVE_FAILED] });
}
