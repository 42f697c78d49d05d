import type { ActorCtx } from '@server/domain/context';
import { NotFound } from '@server/domain/errors';
import { insuredTabsFor, type InsuredTab } from '@server/domain/policies/tabs';

/**
 * A tab of the insured's page, checked in its page loader (which requires read_policy): the user must be
 * allowed to open it (tabs.ts), else the 404 page, as the bar does not offer it.
 */
export function requireInsuredTab(ctx: ActorCtx, tab: InsuredTab): void {
  if (!insuredTabsFor(ctx.actor).includes(tab)) throw new NotFound();
}

// The confirm-enrolment page's service, schema and limits (a module with zod at its top level, which a
// route's own import would keep in the page's scripts).
export {
  ENROLMENT_CHECK_PERMISSION,
  MAX_ENROLMENT_CHECKS,
  confirmEnrolment,
  enrolmentCheckFormSchema,
} from '@server/domain/policies/enrolment-check';
