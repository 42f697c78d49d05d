import type { AppLoadContext } from '@remix-run/cloudflare';
import type { ActorCtx } from '@server/domain/context';
import { insuredTabsFor, type InsuredTab } from '@server/domain/policies/tabs';
import { requirePermissions } from '~/lib/guards.server';

/** A tab of the insured's page: the user must be allowed to open it (tabs.ts), else 404 as the bar does not offer it. */
export function requireInsuredTab(request: Request, context: AppLoadContext, tab: InsuredTab): ActorCtx {
  const ctx = requirePermissions(request, context, 'read_policy');
  if (!insuredTabsFor(ctx.actor).includes(tab)) throw new Response('Not Found', { status: 404 });
  return ctx;
}

// The confirm-enrolment page's service, schema and limits (a module with zod at its top level, which a
// route's own import would keep in the page's scripts).
export {
  ENROLMENT_CHECK_PERMISSION,
  MAX_ENROLMENT_CHECKS,
  confirmEnrolment,
  enrolmentCheckFormSchema,
} from '@server/domain/policies/enrolment-check';
