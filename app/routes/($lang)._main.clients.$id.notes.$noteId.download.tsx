import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { clientNoteFile } from '@server/domain/clients/notes';
import { orNotFound, requirePermissions } from '~/lib/guards.server';

/** GET /clients/{id}/notes/{noteId}/download: a note's file from R2 (a resource route). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const ctx = requirePermissions(request, context, 'read_client');
  const noteId = Number(params.noteId);
  if (!Number.isInteger(noteId) || noteId <= 0) throw new Response('Not Found', { status: 404 });
  return orNotFound(clientNoteFile(ctx, params.id ?? '', noteId));
}
