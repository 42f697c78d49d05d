import { cancellationPlace, type CancellationState } from '@server/domain/cancellations/steps';
import { ImportSteps } from '~/components/imports/import-bits';

/** The cancellation sheet's wizard steps (spec 000 s.2): upload, match, prepare, review, confirm. */
export const CANCEL_STEPS = ['upload', 'match', 'prepare', 'review', 'confirm'] as const;
export type CancelStep = (typeof CANCEL_STEPS)[number];

/** The page a sheet in progress continues on (the wizard's rule, workers/domain/cancellations/steps.ts). */
export function cancellationHref(i: {
  id: string;
  status: CancellationState['status'];
  amended?: boolean;
}): string {
  return cancellationPlace({ id: i.id, status: i.status, quoted: !!i.amended }).path;
}

export function CancelSteps({ current, id }: { current: CancelStep; id?: string }) {
  return (
    <ImportSteps
      steps={CANCEL_STEPS}
      labels="cancellations.steps"
      current={current}
      links={
        id
          ? {
              upload: '/insureds/cancel',
              match: `/insureds/cancel/match-columns?import=${id}`,
              review: `/insureds/cancel/review-applicants?import=${id}`,
            }
          : { upload: '/insureds/cancel' }
      }
    />
  );
}
