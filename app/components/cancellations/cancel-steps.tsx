import { ImportSteps } from '~/components/imports/import-bits';

/** The cancellation sheet's wizard steps (spec 000 s.2): upload, match, prepare, review, confirm. */
export const CANCEL_STEPS = ['upload', 'match', 'prepare', 'review', 'confirm'] as const;
export type CancelStep = (typeof CANCEL_STEPS)[number];

/** The page an import in progress continues on. */
export function cancellationHref(i: { id: string; status: string; amended?: boolean }): string {
  if (i.amended || i.status === 'done') return `/insureds/cancel/confirm-cancellation?import=${i.id}`;
  switch (i.status) {
    case 'uploaded':
      return `/insureds/cancel/match-columns?import=${i.id}`;
    case 'staging':
    case 'failed':
      return `/insureds/cancel/format-data?import=${i.id}`;
    default:
      return `/insureds/cancel/review-applicants?import=${i.id}`;
  }
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
