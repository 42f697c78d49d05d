import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { clientNoteFile } from '@server/domain/clients/notes';
import { idSchema, rowNumber } from '~/lib/schemas.server';
import { pageLoader } from '~/lib/loaders.server';

/** GET /clients/{id}/notes/{noteId}/download: a note's file from R2 (a resource route). */
export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_client',
    params: idSchema.extend({ noteId: rowNumber }),
    load({ ctx, params }) {
      return clientNoteFile(ctx, params.id, params.noteId);
    },
  })(args);
