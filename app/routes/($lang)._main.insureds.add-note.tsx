/**
 * /insureds/add-note: the list's bulk "add note". The list posts the selection here (intent
 * `add_note_select`: ids, or all matching with the filters); the page asks for the note, keeping the
 * selection in hidden fields, and saving adds one note to each selected insured in one batch.
 */
import {
  json,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/cloudflare';
import { useActionData, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { addPolicyNotes } from '@server/domain/policies/details';
import { policyListQuerySchema } from '@server/domain/policies/list-query';
import { selectedPolicyIds } from '@server/domain/policies/filters';
import { msg } from '@server/domain/messages';
import { bulkNoteSchema } from '~/lib/schemas.server';
import { noteConstraint } from '~/lib/notes.server';
import { intentAction } from '~/lib/actions.server';
import { answerOf, unreachable } from '~/lib/actions';
import { pageLoader } from '~/lib/loaders.server';
import { bulkSchema, lenientQuery } from '~/lib/lists.server';
import { pageTitle } from '~/lib/meta';
import { localePath } from '~/i18n/config';
import { AddNoteForm } from '~/components/notes/notes-panel';
import { ButtonLink } from '~/components/ui/button';
import { Card, PageHeader } from '~/components/ui/card';
import { useAnswerError } from '~/components/ui/snackbar';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'update_insured',
    load: ({ request, context }) =>
      json({
        title: pageTitle(context, request, 'insureds.add_note.title'),
        constraint: noteConstraint(),
      }),
  })(args);

export const action = (args: ActionFunctionArgs) =>
  intentAction({
    intents: {
      add_note_select: { schema: bulkSchema, permission: 'update_insured' },
      add_note: { schema: bulkNoteSchema, permission: 'update_insured' },
    },
    async handle(input, { ctx, redirect }) {
      switch (input.intent) {
        case 'add_note_select': {
          const query = lenientQuery(policyListQuerySchema, input.filters);
          const count = (await selectedPolicyIds(ctx, input.selection, query)).length;
          const raw = input.selection.all_matching
            ? { all_matching: 'true', filters: new URLSearchParams(input.filters).toString(), ids: [] }
            : { ids: input.selection.ids ?? [] };
          return { data: { selection: raw, count } };
        }
        case 'add_note': {
          const { ids, all_matching, filters, intent: _intent, ...note } = input;
          const selection = all_matching ? { all_matching: true as const } : { all_matching: false, ids };
          const query = lenientQuery(
            policyListQuerySchema,
            Object.fromEntries(new URLSearchParams(all_matching ? (filters ?? '') : '')),
          );
          const { added } = await addPolicyNotes(ctx, selection, query, note);
          return redirect('/insureds', msg('insureds.add_note.added', { count: added }));
        }
        default:
          return unreachable(input);
      }
    },
  })(args);

type Picked = { selection: { ids: string[]; all_matching?: string; filters?: string }; count: number };

export default function AddInsuredsNote() {
  const { t, i18n } = useTranslation();
  const { constraint } = useLoaderData<typeof loader>();
  const answer = answerOf<Picked>(useActionData<typeof action>());
  useAnswerError(answer);
  const picked = answer?.intent === 'add_note_select' && answer.ok ? answer.data : null;
  const lastResult = answer?.intent === 'add_note' ? answer.submission : null;
  // After a refused save the selection comes back from the posted form (Conform keeps the fields).
  const selection =
    picked?.selection ?? (lastResult?.initialValue as Picked['selection'] | undefined) ?? null;
  const ids = ([] as string[]).concat(selection?.ids ?? []);
  const count = picked?.count ?? ids.length;
  const back = localePath(i18n.language, '/insureds');
  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader
        title={t('insureds.add_note.title')}
        description={
          selection
            ? selection.all_matching
              ? t('insureds.add_note.for_all_matching', { count })
              : t('insureds.add_note.for_selected', { count })
            : undefined
        }
        actions={
          <ButtonLink to={back} variant="secondary">
            {t('insureds.back_to_list')}
          </ButtonLink>
        }
      />
      <Card>
        {selection && (selection.all_matching || ids.length) ? (
          <AddNoteForm
            lastResult={lastResult}
            constraint={constraint}
            withFile={false}
            extra={
              <>
                {selection.all_matching ? (
                  <>
                    <input type="hidden" name="all_matching" value="true" />
                    <input type="hidden" name="filters" value={selection.filters ?? ''} />
                  </>
                ) : (
                  ids.map((id) => <input key={id} type="hidden" name="ids" value={id} />)
                )}
              </>
            }
          />
        ) : (
          <p className="text-sm text-slate-600">{t('insureds.add_note.nothing_selected')}</p>
        )}
      </Card>
    </div>
  );
}
