/** A client's notes and its logs tab. */
import { activityFeed } from '../activity/feed';
import type { ActorCtx } from '../context';
import { addNote, listNotes, noteFileResponse, type NoteOwner } from '../notes/service';
import type { NoteInput, NotesQuery } from '../notes/schema';
import { findClient, type ClientRow } from '../access/finders';

const noteOwnerOf = (row: ClientRow): NoteOwner => ({
  type: 'client',
  id: row.id,
  company_id: row.company_id,
  client_id: row.id,
});

// ---------------------------------------------------------------- notes and logs

/** GET clients/{id}/notes with an optional type. */
export async function clientNotes(ctx: ActorCtx, id: string, query: Partial<NotesQuery> = {}) {
  const client = await findClient(ctx, id, 'read_client');
  return listNotes(ctx.db, noteOwnerOf(client), query);
}

/** POST clients/{id}/notes/add (multipart: the note and an optional file). */
export async function addClientNote(ctx: ActorCtx, id: string, input: NoteInput, file?: unknown) {
  const client = await findClient(ctx, id, 'update_client');
  return addNote(ctx, noteOwnerOf(client), input, file);
}

/** GET clients/{id}/notes/{noteId}/download. */
export async function clientNoteFile(ctx: ActorCtx, id: string, noteId: number) {
  const client = await findClient(ctx, id, 'read_client');
  return noteFileResponse(ctx, noteOwnerOf(client), noteId);
}

/** GET clients/{id}/activities: the client's logs tab. */
export async function clientActivities(ctx: ActorCtx, id: string, page = 1, perPage = 25) {
  const client = await findClient(ctx, id, 'read_client_log');
  return activityFeed(ctx.db, 'client', client.id, page, perPage);
}
