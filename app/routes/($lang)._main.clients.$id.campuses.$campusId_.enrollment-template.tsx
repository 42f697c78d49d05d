import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { enrollmentTemplateResponse } from '~/lib/campuses.server';
import { orNotFound, requirePermissions } from '~/lib/guards.server';

/** GET /clients/{id}/campuses/{campus_id}/enrollment-template: the campus's enrolment template (.xlsx). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const ctx = requirePermissions(request, context, 'read_campus');
  return orNotFound(enrollmentTemplateResponse(ctx, params.campusId ?? ''));
}
