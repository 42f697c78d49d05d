import { json } from '@remix-run/cloudflare';
import { parseWithZod } from '@conform-to/zod';
import { noteSchema, notesQuerySchema, type NoteInput } from '@server/domain/notes/schema';
import { z } from 'zod';
import { withFormErrors } from '~/lib/guards.server';
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
 * The `add_note` intent of a page's action: parses the NotesPanel form, runs `add` (the area's own
 * service call, which checks permission and scope) with the note and its file, and answers what
 * NotesPanel expects. Validation errors, including the file's, land on their fields.
 */
export async function addNoteAction(
  formData: FormData,
  add: (input: NoteInput, file: FormDataEntryValue | null) => Promise<unknown>,
) {
  const submission = parseWithZod(formData, { schema: noteSchema });
  if (submission.status !== 'success')
    return json({ intent: 'add_note' as const, result: submission.reply(), saved: false }, { status: 400 });
  const r = await withFormErrors(submission, () => add(submission.value, formData.get('file')));
  return json(
    {
      intent: 'add_note' as const,
      result: r.ok ? submission.reply({ resetForm: true }) : r.reply,
      saved: r.ok,
    },
    { status: r.ok ? 200 : r.status },
  );
}

/**
 * The NotesPanel form for the page kit (an `add_note` intent of intentAction): the note, and its file
 * unparsed (the notes service checks its kind and size).
 */
export const noteFormSchema = noteSchema.and(z.object({ file: z.unknown().optional() }));
