/**
 * The steps of cancelling by spreadsheet and where a step leads when its sheet is missing or has moved
 * on (the rule of imports/steps.ts for the cancellation wizard): opened without its `?import=`, or with a
 * sheet in another state, a step leads the person to where they can go on, with a message saying why.
 *
 * Pure (no database, no zod): the upload page's "continue" links read the same places; leads.ts reads
 * the state and applies these rules.
 */
import type { IMPORT_STATUSES } from '../../../drizzle/schema/ordering-enums';
import type { Lead } from '../imports/steps';
import { msg } from '../messages';

export type { Lead };

/** The first step: upload a sheet. */
export const CANCEL_START = '/insureds/cancel';

export type CancelStepName = 'match' | 'format' | 'review' | 'confirm';

export const CANCEL_STEP_PATHS: Record<CancelStepName, string> = {
  match: '/insureds/cancel/match-columns',
  format: '/insureds/cancel/format-data',
  review: '/insureds/cancel/review-applicants',
  confirm: '/insureds/cancel/confirm-cancellation',
};
const CANCEL_ORDER: CancelStepName[] = ['match', 'format', 'review', 'confirm'];

/** What a step finds: the sheet's status (a failed matching job is failed) and whether it was quoted. */
export interface CancellationState {
  id: string;
  status: (typeof IMPORT_STATUSES)[number];
  /** The user proceeded: the cancellation is quoted and waits for confirmation. */
  quoted: boolean;
}

/** Where a sheet stands: the step it goes on at. */
export function cancellationPlace(s: CancellationState): { step: CancelStepName; path: string } {
  const step: CancelStepName =
    s.status === 'done' || s.quoted
      ? 'confirm'
      : s.status === 'uploaded'
        ? 'match'
        : s.status === 'staging' || s.status === 'failed'
          ? 'format'
          : 'review';
  return { step, path: `${CANCEL_STEP_PATHS[step]}?import=${s.id}` };
}

function fits(step: CancelStepName, s: CancellationState): boolean {
  switch (step) {
    case 'match':
      return s.status === 'uploaded' || s.status === 'failed' || s.status === 'review';
    case 'format':
      return s.status === 'staging' || s.status === 'failed';
    case 'review':
      // A quoted sheet may still be reviewed and proceeded again until it is confirmed.
      return s.status === 'review';
    case 'confirm':
      return s.quoted || s.status === 'done';
  }
}

/**
 * Where a step leads for its sheet: null when the step shows it. A cancellation already confirmed leads
 * to its outcome; going forward on the wizard's own way says nothing; a sheet not that far yet leads to
 * where it stands.
 */
export function cancelStepLead(step: CancelStepName, s: CancellationState): Lead | null {
  if (fits(step, s)) return null;
  const place = cancellationPlace(s);
  if (s.status === 'done') return { path: place.path, message: msg('cancellations.leads.done') };
  const forward = CANCEL_ORDER.indexOf(place.step) > CANCEL_ORDER.indexOf(step);
  return { path: place.path, message: forward ? null : msg('cancellations.leads.not_ready') };
}

/** Where a step leads without its sheet: the person's newest sheet under way, else the upload. */
export function missingCancellationLead(open: CancellationState | null): Lead {
  if (open) return { path: cancellationPlace(open).path, message: msg('cancellations.leads.resumed') };
  return { path: CANCEL_START, message: msg('cancellations.leads.none') };
}
