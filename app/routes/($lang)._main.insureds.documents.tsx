/**
 * /insureds/documents: the bulk action "download documents" (spec 001 s.2, s.8). The insureds list posts
 * its selection here (intent `documents`, ids or "all matching" with the filters); a link may name ids in
 * the address (`?ids=…`). The user chooses the document types; the selection travels on in the form. A
 * choice starts the ZIP job and goes to its progress page (/insureds/documents/{job}).
 */
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare';
import { Link, useActionData, useLoaderData } from '@remix-run/react';
import { useForm } from '@conform-to/react';
import { useTranslation } from 'react-i18next';
import { documentTypesFormSchema } from '~/lib/schemas.server';
import {
  documentChoices,
  policyIdsOf,
  startDocumentsZip,
  DOCUMENT_PERMISSION,
} from '~/lib/policy-documents.server';
import { intentAction } from '~/lib/actions.server';
import { answerOf, unreachable } from '~/lib/actions';
import { bulkSchema } from '~/lib/lists.server';
import { pageTitle } from '~/lib/meta';
import { localePath } from '~/i18n/config';
import { useMessage } from '~/lib/messages';
import { AppForm, Checkbox, ErrorList } from '~/components/forms';
import { Button, ButtonLink } from '~/components/ui/button';
import { Alert, Card, PageHeader } from '~/components/ui/card';
import type { ActorCtx } from '@server/domain/context';
import type { BulkSelection } from '@server/domain/list-query';
import { pageLoader } from '~/lib/loaders.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

/** The selection as hidden fields carry it: ids, or all_matching with the list's filters. */
interface Carried {
  ids: string[];
  all_matching: boolean;
  filters: string;
}

async function choicesFor(
  ctx: ActorCtx,
  selection: BulkSelection,
  filters: Record<string, string>,
): Promise<{ carried: Carried; choices: Awaited<ReturnType<typeof documentChoices>> }> {
  const ids = await policyIdsOf(ctx, selection, filters);
  return {
    carried: {
      ids: selection.all_matching ? [] : (selection.ids ?? []),
      all_matching: !!selection.all_matching,
      filters: new URLSearchParams(filters).toString(),
    },
    choices: await documentChoices(ctx, ids),
  };
}

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: DOCUMENT_PERMISSION,
    otherwise: '/insureds',
    async load({ ctx, request, context }) {
      const url = new URL(request.url);
      const ids = url.searchParams.getAll('ids').filter(Boolean).slice(0, 1000);
      return {
        title: pageTitle(context, request, 'policy_documents.bulk.title'),
        initial: ids.length ? await choicesFor(ctx, { all_matching: false, ids }, {}) : null,
      };
    },
  })(args);

export const action = (args: ActionFunctionArgs) =>
  intentAction({
    intents: {
      documents: { schema: bulkSchema, permission: DOCUMENT_PERMISSION },
      // Built here, not at the top: bulkSchema is server-only, and the browser build drops the action.
      download: { schema: bulkSchema.and(documentTypesFormSchema), permission: DOCUMENT_PERMISSION },
    },
    async handle(input, { ctx, redirect }) {
      switch (input.intent) {
        case 'documents':
          return { data: await choicesFor(ctx, input.selection, input.filters) };
        case 'download': {
          const ids = await policyIdsOf(ctx, input.selection, input.filters);
          const job = await startDocumentsZip(ctx, ids, input.document_types);
          return redirect(`/insureds/documents/${job.id}`);
        }
        default:
          return unreachable(input);
      }
    },
  })(args);

export default function DownloadDocuments() {
  const { t, i18n } = useTranslation();
  const m = useMessage();
  const { initial } = useLoaderData<typeof loader>();
  const answer = answerOf<Awaited<ReturnType<typeof choicesFor>>>(useActionData<typeof action>());
  const shown = (answer?.intent === 'documents' ? answer.data : null) ?? initial ?? lastShown(answer);
  const [form, fields] = useForm({
    lastResult: answer?.intent === 'download' ? answer.submission : undefined,
    shouldValidate: 'onSubmit',
  });
  const to = (path: string) => localePath(i18n.language, path);
  const back = to('/insureds');
  if (!shown || !shown.choices.count) {
    return (
      <div className="mx-auto max-w-3xl">
        <PageHeader title={t('policy_documents.bulk.title')} />
        <Card>
          <p className="text-sm text-slate-700">{t('policy_documents.bulk.nothing')}</p>
          <div className="mt-5">
            <ButtonLink to={back} variant="secondary">
              {t('policy_documents.bulk.back')}
            </ButtonLink>
          </div>
        </Card>
      </div>
    );
  }
  const { carried, choices } = shown;
  const typeErrors = fields.document_types.errors;
  const selectionErrors = answer?.intent === 'download' ? answer.submission?.error?.policies : undefined;
  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader
        title={t('policy_documents.bulk.title')}
        description={t('policy_documents.bulk.description', { count: choices.count })}
      />
      <Card>
        <AppForm method="post" id={form.id} onSubmit={form.onSubmit} noValidate className="space-y-5">
          {carried.all_matching ? (
            <>
              <input type="hidden" name="all_matching" value="true" />
              <input type="hidden" name="filters" value={carried.filters} />
            </>
          ) : (
            carried.ids.map((id) => <input key={id} type="hidden" name="ids" value={id} />)
          )}
          <input type="hidden" name="__choices" value={JSON.stringify(shown)} />
          <div>
            <h2 className="mb-2 text-sm font-semibold text-slate-900">
              {t('policy_documents.bulk.selected')}
            </h2>
            <ul className="flex flex-wrap gap-2 text-sm" data-testid="selected-insureds">
              {choices.sample.map((p) => (
                <li key={p.id}>
                  <Link
                    to={to(`/insureds/${p.id}/insured_details/documents`)}
                    className={`inline-flex rounded-full px-2.5 py-1 ring-1 ring-inset ${p.inactive ? 'bg-red-50 text-red-800 ring-red-200' : 'bg-slate-50 text-slate-800 ring-slate-200 hover:bg-slate-100'}`}
                  >
                    {p.policy_number} · {p.name}
                  </Link>
                </li>
              ))}
              {choices.count > choices.sample.length ? (
                <li className="px-1 py-1 text-slate-600">
                  {t('policy_documents.bulk.more', { count: choices.count - choices.sample.length })}
                </li>
              ) : null}
            </ul>
          </div>
          {choices.inactive ? (
            <Alert>{t('policy_documents.bulk.inactive_notice', { count: choices.inactive })}</Alert>
          ) : null}
          {selectionErrors?.length ? <Alert>{selectionErrors.map((e) => m(e)).join(' ')}</Alert> : null}
          <fieldset aria-describedby={typeErrors?.length ? fields.document_types.errorId : undefined}>
            <legend className="mb-3 text-sm font-semibold text-slate-900">
              {t('policy_documents.bulk.types')}
            </legend>
            <div className="space-y-3">
              {choices.types.map((type) => (
                <Checkbox
                  key={type.value}
                  id={`type-${type.value}`}
                  name="document_types"
                  value={type.value}
                  defaultChecked={type.kind !== 'product'}
                  label={
                    type.kind === 'product'
                      ? t('policy_documents.kinds.product', { type: type.label })
                      : t(`policy_documents.kinds.${type.kind}`)
                  }
                />
              ))}
            </div>
            <ErrorList id={fields.document_types.errorId} errors={typeErrors} />
          </fieldset>
          <div className="flex flex-wrap gap-3 border-t border-slate-100 pt-5">
            <Button type="submit" name="intent" value="download">
              {t('policy_documents.bulk.start')}
            </Button>
            <ButtonLink to={back} variant="secondary">
              {t('policy_documents.bulk.back')}
            </ButtonLink>
          </div>
        </AppForm>
      </Card>
    </div>
  );
}

/**
 * After a refused choice the page shows the same choices again: the form carries them (display only: the
 * server reads the selection and the types anew), and Conform's answer gives back the fields it was sent.
 */
function lastShown(answer: ReturnType<typeof answerOf>): Awaited<ReturnType<typeof choicesFor>> | null {
  const initialValue = (answer?.submission as { initialValue?: Record<string, unknown> } | null)
    ?.initialValue;
  const restored = initialValue?.__choices;
  return typeof restored === 'string'
    ? (JSON.parse(restored) as Awaited<ReturnType<typeof choicesFor>>)
    : null;
}
