import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { campusNoteFile } from '@server/domain/campuses/service';
import { idsSchema, rowNumber } from '~/lib/schemas.server';
import { pageLoader } from '~/lib/loaders.server';

/** GET /clients/{id}/campuses/{campus_id}/notes/{noteId}/download: a campus note's file (a resource route). */
export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_campus',
    params: idsSchema('id', 'campusId').extend({ noteId: rowNumber }),
    load({ ctx, params }) {
      return campusNoteFile(ctx, params.campusId, params.noteId);
    },
  })(args);
