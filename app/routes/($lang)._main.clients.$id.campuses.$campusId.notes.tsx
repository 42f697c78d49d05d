/** A campus's notes tab: the notes kept on the campus, and adding one (with a file). */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/cloudflare';
import { useActionData, useLoaderData, useLocation } from '@remix-run/react';
import { addCampusNote, campusNotes } from '@server/domain/campuses/service';
import { requireCampusTab } from '~/lib/campuses.server';
import { noteConstraint, noteFormSchema, notesQueryOf } from '~/lib/notes.server';
import { intentAction } from '~/lib/actions.server';
import { answerOf, unreachable } from '~/lib/actions';
import { localePath } from '~/i18n/config';
import { useTranslation } from 'react-i18next';
import { useAnswerError } from '~/components/ui/snackbar';
import { NotesPanel } from '~/components/notes/notes-panel';
import { campusBase, useCampus } from '~/components/campuses/campus-page';
import { pageLoader } from '~/lib/loaders.server';
import { idsSchema } from '~/lib/schemas.server';

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_campus',
    params: idsSchema('campusId'),
    async load({ ctx, request, params }) {
      requireCampusTab(ctx, 'notes');
      return json({
        notes: await campusNotes(ctx, params.campusId, notesQueryOf(request)),
        constraint: noteConstraint(),
      });
    },
  })(args);

export const action = (args: ActionFunctionArgs) =>
  intentAction({
    params: idsSchema('id', 'campusId'),
    intents: { add_note: { schema: noteFormSchema, permission: 'update_campus' } },
    async handle(input, { ctx, params, redirect }) {
      switch (input.intent) {
        case 'add_note': {
          const { intent: _intent, file, ...note } = input;
          await addCampusNote(ctx, params.campusId, note, file);
          return redirect(`/clients/${params.id}/campuses/${params.campusId}/notes`, 'notes.added');
        }
        default:
          return unreachable(input.intent);
      }
    },
  })(args);

export default function CampusNotesTab() {
  const { i18n } = useTranslation();
  const { campus, can: allowed } = useCampus();
  const { notes, constraint } = useLoaderData<typeof loader>();
  const data = answerOf(useActionData<typeof action>());
  useAnswerError(data);
  const location = useLocation();
  return (
    <NotesPanel
      // A new address (after a note is added) starts the form again, closed and empty.
      key={location.key}
      notes={notes}
      constraint={constraint}
      canAdd={allowed.update}
      lastResult={data?.submission ?? null}
      downloadHref={(noteId) => localePath(i18n.language, `${campusBase(campus)}/notes/${noteId}/download`)}
    />
  );
}
