import { noteSchema, notesQuerySchema } from '@server/domain/notes/schema';
import { getZodConstraint } from '@conform-to/zod';
import { z } from 'zod';
import { NOTE_TYPE_PARAM } from '~/components/notes/notes-panel';

/** The notes list query of a page (`?note_type=` and `?page=`), for listNotes. */
export function notesQueryOf(request: Request) {
  const params = new URL(request.url).searchParams;
  return notesQuerySchema.parse({
    type: params.get(NOTE_TYPE_PARAM) ?? undefined,
    page: params.get('page') ?? undefined,
  });
}

/**
 * The NotesPanel form for the page kit (an `add_note` intent of intentAction): the note, and its file
 * unparsed (the notes service checks its kind and size).
 */
export const noteFormSchema = noteSchema.and(z.object({ file: z.unknown().optional() }));

/** The add-note form's browser checks (NotesPanel's and AddNoteForm's `constraint`), for a loader to send. */
export const noteConstraint = () => getZodConstraint(noteSchema);
