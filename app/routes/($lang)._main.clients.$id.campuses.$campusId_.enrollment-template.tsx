import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { enrollmentTemplateResponse } from '~/lib/campuses.server';
import { pageLoader } from '~/lib/loaders.server';
import { idsSchema } from '~/lib/schemas.server';

/** GET /clients/{id}/campuses/{campus_id}/enrollment-template: the campus's enrolment template (.xlsx). */
export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_campus',
    params: idsSchema('campusId'),
    load({ ctx, params }) {
      return enrollmentTemplateResponse(ctx, params.campusId);
    },
  })(args);
