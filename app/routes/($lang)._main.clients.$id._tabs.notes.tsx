/** A client's notes tab: the notes kept on the client, and adding one (with a file). */
import { json, type LoaderFunctionArgs, type ActionFunctionArgs } from '@remix-run/cloudflare';
import { useActionData, useLoaderData, useLocation } from '@remix-run/react';
import { can, type Actor } from '@server/domain/access/actor';
import { clientRequesters } from '@server/domain/clients/tab-lists';
import { addClientNote, clientNotes } from '@server/domain/clients/notes';
import { getClient } from '@server/domain/clients/service';
import { requireClientTab } from '~/lib/clients.server';
import { noteConstraint, noteFormSchema, notesQueryOf } from '~/lib/notes.server';
import { intentAction } from '~/lib/actions.server';
import { answerOf, unreachable } from '~/lib/actions';
import { useAnswerError } from '~/components/ui/snackbar';
import { NotesPanel } from '~/components/notes/notes-panel';
import { useClient } from '~/components/clients/client-page';
import { pageLoader } from '~/lib/loaders.server';
import { idSchema } from '~/lib/schemas.server';

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_client',
    params: idSchema,
    async load({ ctx, request, params }) {
      requireClientTab(ctx, 'notes');
      const id = params.id;
      const canAdd = can(ctx.actor, 'update_client');
      const [notes, requesters] = await Promise.all([
        clientNotes(ctx, id, notesQueryOf(request)),
        canAdd
          ? getClient(ctx, id).then((client) =>
              clientRequesters(ctx, client.id_numeric, companyIdOf(ctx.actor, client.company.id)),
            )
          : null,
      ]);
      return json({ notes, requesters, canAdd, constraint: noteConstraint() });
    },
  })(args);

function companyIdOf(actor: Actor, publicId: string): number {
  return actor.companies.find((c) => c.public_id === publicId)?.id ?? 0;
}

export const action = (args: ActionFunctionArgs) =>
  intentAction({
    params: idSchema,
    intents: { add_note: { schema: noteFormSchema, permission: 'update_client' } },
    async handle(input, { ctx, params, redirect }) {
      switch (input.intent) {
        case 'add_note': {
          const { intent: _intent, file, ...note } = input;
          await addClientNote(ctx, params.id, note, file);
          return redirect(`/clients/${params.id}/notes`, 'notes.added');
        }
        default:
          return unreachable(input.intent);
      }
    },
  })(args);

export default function ClientNotesTab() {
  const { client } = useClient();
  const { notes, requesters, canAdd, constraint } = useLoaderData<typeof loader>();
  const data = answerOf(useActionData<typeof action>());
  useAnswerError(data);
  const location = useLocation();
  return (
    <NotesPanel
      // A new address (after a note is added) starts the form again, closed and empty.
      key={location.key}
      notes={notes}
      constraint={constraint}
      canAdd={canAdd}
      lastResult={data?.submission ?? null}
      requesters={requesters ?? undefined}
      downloadHref={(noteId) => `/clients/${client.id}/notes/${noteId}/download`}
    />
  );
}
