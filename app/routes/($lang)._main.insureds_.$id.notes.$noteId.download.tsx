import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { policyNoteFile } from '@server/domain/policies/details';
import { orNotFound, requirePermissions } from '~/lib/guards.server';

/** GET /insureds/{id}/notes/{noteId}/download: a note's file from R2 (a resource route). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const ctx = requirePermissions(request, context, 'read_policy');
  const noteId = Number(params.noteId);
  if (!Number.isInteger(noteId) || noteId <= 0) throw new Response('Not Found', { status: 404 });
  return orNotFound(policyNoteFile(ctx, params.id ?? '', noteId));
}
