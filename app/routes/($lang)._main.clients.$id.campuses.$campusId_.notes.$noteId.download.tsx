import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { campusNoteFile } from '@server/domain/campuses/service';
import { orNotFound, requirePermissions } from '~/lib/guards.server';

/** GET /clients/{id}/campuses/{campus_id}/notes/{noteId}/download: a campus note's file (a resource route). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const ctx = requirePermissions(request, context, 'read_campus');
  const noteId = Number(params.noteId);
  if (!Number.isInteger(noteId) || noteId <= 0) throw new Response('Not Found', { status: 404 });
  return orNotFound(campusNoteFile(ctx, params.campusId ?? '', noteId));
}
