/** The insured page's notes tab: the notes kept on this insured, and adding one (with a file). */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/cloudflare';
import { useActionData, useLoaderData, useLocation } from '@remix-run/react';
import { can } from '@server/domain/access/actor';
import { addPolicyNote, policyNotes } from '@server/domain/policies/details';
import { requireInsuredTab } from '~/lib/insureds.server';
import { noteConstraint, noteFormSchema, notesQueryOf } from '~/lib/notes.server';
import { intentAction } from '~/lib/actions.server';
import { answerOf, unreachable } from '~/lib/actions';
import { useAnswerError } from '~/components/ui/snackbar';
import { NotesPanel } from '~/components/notes/notes-panel';
import { useInsured } from '~/components/insureds/insured-page';
import { pageLoader } from '~/lib/loaders.server';
import { idSchema } from '~/lib/schemas.server';

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_policy',
    params: idSchema,
    async load({ ctx, request, params }) {
      requireInsuredTab(ctx, 'notes');
      const notes = await policyNotes(ctx, params.id, notesQueryOf(request));
      return json({ notes, canAdd: can(ctx.actor, 'update_insured'), constraint: noteConstraint() });
    },
  })(args);

export const action = (args: ActionFunctionArgs) =>
  intentAction({
    params: idSchema,
    intents: { add_note: { schema: noteFormSchema, permission: 'update_insured' } },
    async handle(input, { ctx, params, redirect }) {
      switch (input.intent) {
        case 'add_note': {
          const { intent: _intent, file, ...note } = input;
          await addPolicyNote(ctx, params.id, note, file);
          return redirect(`/insureds/${params.id}/insured_details/notes`, 'notes.added');
        }
        default:
          return unreachable(input.intent);
      }
    },
  })(args);

export default function InsuredNotesTab() {
  const { policy } = useInsured();
  const { notes, canAdd, constraint } = useLoaderData<typeof loader>();
  const data = answerOf(useActionData<typeof action>());
  useAnswerError(data);
  const location = useLocation();
  return (
    <NotesPanel
      key={location.key}
      notes={notes}
      constraint={constraint}
      canAdd={canAdd}
      lastResult={data?.submission ?? null}
      downloadHref={(noteId) => `/insureds/${policy.id}/notes/${noteId}/download`}
    />
  );
}
