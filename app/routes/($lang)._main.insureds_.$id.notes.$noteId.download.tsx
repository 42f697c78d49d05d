import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { policyNoteFile } from '@server/domain/policies/details';
import { idSchema, rowNumber } from '~/lib/schemas.server';
import { pageLoader } from '~/lib/loaders.server';

/** GET /insureds/{id}/notes/{noteId}/download: a note's file from R2 (a resource route). */
export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_policy',
    params: idSchema.extend({ noteId: rowNumber }),
    load({ ctx, params }) {
      return policyNoteFile(ctx, params.id, params.noteId);
    },
  })(args);
