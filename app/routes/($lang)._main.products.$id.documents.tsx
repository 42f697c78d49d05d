/** A product's documents tab: its documents, the upload form, and the edit form of one (`?document=`). */
import { json, type LoaderFunctionArgs, type ActionFunctionArgs } from '@remix-run/cloudflare';
import {
  Link,
  useActionData,
  useLoaderData,
  useLocation,
  useNavigation,
  useSearchParams,
} from '@remix-run/react';
import { getFormProps } from '@conform-to/react';
import type { ZodTypeAny } from 'zod';
import { useTranslation } from 'react-i18next';
import {
  addDocument,
  deleteDocument,
  listDocuments,
  updateDocument,
} from '@server/domain/products/documents';
import { pageLoader } from '~/lib/loaders.server';
import {
  constraintsOf,
  documentAddSchema,
  documentIdSchema,
  documentUpdateSchema,
  idSchema,
} from '~/lib/schemas.server';
import { useSchemaForm } from '~/lib/schema-form';
import { intentAction } from '~/lib/actions.server';
import { answerOf, unreachable } from '~/lib/actions';
import { formatDate, formatDateTime } from '~/lib/dates';
import { useMessage } from '~/lib/messages';
import { AppForm, FormErrors } from '~/components/fields';
import { Button, ButtonLink } from '~/components/ui/button';
import { Alert, Card } from '~/components/ui/card';
import { useAnswerError } from '~/components/ui/snackbar';
import { DocumentFields, FileField } from '~/components/products/product-fields';
import { DeleteRowButton, str, useProduct } from '~/components/products/product-page';

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_product',
    params: idSchema,
    async load({ ctx, params }) {
      return json({
        documents: await listDocuments(ctx, params.id),
        constraints: { add: constraintsOf(documentAddSchema), update: constraintsOf(documentUpdateSchema) },
      });
    },
  })(args);

export const action = (args: ActionFunctionArgs) =>
  intentAction({
    params: idSchema,
    intents: {
      document_add: { schema: documentAddSchema, permission: 'update_product' },
      document_update: { schema: documentUpdateSchema, permission: 'update_product' },
      document_delete: {
        schema: documentIdSchema,
        permission: 'update_product',
        confirm: { question: 'products.documents.delete_confirm', button: 'products.delete' },
      },
    },
    async handle(input, { ctx, params: { id }, redirect }) {
      switch (input.intent) {
        case 'document_add': {
          const { intent: _intent, file, ...details } = input;
          await addDocument(ctx, id, details, file);
          return redirect(`/products/${id}/documents`, 'products.messages.document_added');
        }
        case 'document_update': {
          const { intent: _intent, document_id, file, ...details } = input;
          await updateDocument(ctx, id, document_id, details, file);
          return redirect(`/products/${id}/documents`, 'products.messages.document_updated');
        }
        case 'document_delete':
          await deleteDocument(ctx, id, input.document_id);
          return { toast: 'products.messages.document_deleted' };
        default:
          return unreachable(input);
      }
    },
  })(args);

type DocumentRow = ReturnType<typeof useLoaderData<typeof loader>>['documents']['items'][number];
const th =
  'whitespace-nowrap px-4 py-3 text-left text-xs font-semibold uppercase tracking-wide text-slate-600';

export default function ProductDocumentsTab() {
  const { t } = useTranslation();
  const m = useMessage();
  const location = useLocation();
  const [params] = useSearchParams();
  const { product, canUpdate } = useProduct();
  const { documents } = useLoaderData<typeof loader>();
  const data = answerOf(useActionData<typeof action>());
  useAnswerError(data);
  const editingId = Number(params.get('document'));
  const editing = documents.items.find((d) => d.id === editingId);
  const deleteError = data?.intent === 'document_delete' ? data.error : null;
  const validity = (d: DocumentRow) =>
    d.valid_from || d.valid_to
      ? `${d.valid_from ? formatDate(d.valid_from) : '…'} – ${d.valid_to ? formatDate(d.valid_to) : '…'}`
      : t('products.documents.always_valid');
  return (
    <div className="space-y-6">
      {deleteError ? <Alert>{m(deleteError)}</Alert> : null}
      <div className="overflow-hidden rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
        <div className="overflow-x-auto">
          <table className="min-w-full divide-y divide-slate-200 text-sm">
            <caption className="sr-only">{t('products.tabs.documents')}</caption>
            <thead className="bg-slate-50">
              <tr>
                <th className={th}>{t('products.documents.title')}</th>
                <th className={th}>{t('products.documents.type')}</th>
                <th className={th}>{t('products.documents.language')}</th>
                <th className={th}>{t('products.documents.visibility')}</th>
                <th className={th}>{t('products.documents.validity')}</th>
                <th className={th}>
                  <span className="sr-only">{t('products.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {documents.items.length === 0 ? (
                <tr>
                  <td colSpan={6} className="px-4 py-10 text-center text-slate-500">
                    {t('products.documents.empty')}
                  </td>
                </tr>
              ) : (
                documents.items.map((d) => (
                  <tr key={d.id} data-testid="document-row">
                    <td className="px-4 py-3">
                      <p className="font-medium text-slate-900">{d.title}</p>
                      <p className="text-xs text-slate-500">
                        {d.file_name} · {Math.max(1, Math.round(d.size / 1024))} KB ·{' '}
                        {formatDateTime(d.updated_at)}
                      </p>
                    </td>
                    <td className="px-4 py-3">
                      {t(`products.document_types.${d.type}`, { defaultValue: d.type })}
                    </td>
                    <td className="px-4 py-3">{t(`products.languages.${d.language}`)}</td>
                    <td className="px-4 py-3">{t(`products.visibilities.${d.visibility}`)}</td>
                    <td className="whitespace-nowrap px-4 py-3">{validity(d)}</td>
                    <td className="px-4 py-3">
                      <div className="flex justify-end gap-3">
                        <a
                          href={`/products/${product.id}/documents/${d.id}/download`}
                          className="font-medium text-primary-800 hover:underline"
                          download
                        >
                          {t('products.documents.download')}
                        </a>
                        {canUpdate ? (
                          <>
                            <Link
                              to={`${location.pathname}?document=${d.id}`}
                              preventScrollReset
                              className="font-medium text-primary-800 hover:underline"
                            >
                              {t('products.edit')}
                            </Link>
                            <DeleteRowButton
                              intent="document_delete"
                              idName="document_id"
                              id={d.id}
                              label={t('products.delete')}
                              confirm={t('products.documents.delete_confirm')}
                            />
                          </>
                        ) : null}
                      </div>
                    </td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
      </div>
      {/* A new address (after a save) starts the upload form again empty. */}
      {canUpdate ? <DocumentForm key={editing?.id ?? `new-${location.key}`} editing={editing} /> : null}
    </div>
  );
}

function DocumentForm({ editing }: { editing?: DocumentRow }) {
  const { t } = useTranslation();
  const location = useLocation();
  const busy = useNavigation().state === 'submitting';
  const { constraints } = useLoaderData<typeof loader>();
  const data = answerOf(useActionData<typeof action>());
  const intent = editing ? 'document_update' : 'document_add';
  const [form, fields] = useSchemaForm({
    // Either form's schema, by whether a row is edited (Conform types the fields loosely, as before).
    schema: (): Promise<ZodTypeAny> =>
      import('@server/domain/products/tabs').then((m) =>
        editing ? m.documentUpdateSchema : m.documentAddSchema,
      ),
    id: editing ? `document-${editing.id}` : 'document-new',
    lastResult: data?.intent === intent ? data.submission : undefined,
    defaultValue: editing
      ? {
          type: editing.type,
          language: editing.language,
          title: editing.title,
          description: str(editing.description),
          visibility: editing.visibility,
          valid_from: str(editing.valid_from),
          valid_to: str(editing.valid_to),
        }
      : { language: 'en', visibility: 'clients' },
    constraint: editing ? constraints.update : constraints.add,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  return (
    <Card>
      <h2 className="mb-4 text-base font-semibold">
        {editing
          ? t('products.documents.edit_title', { title: editing.title })
          : t('products.documents.add_title')}
      </h2>
      <AppForm
        method="post"
        encType="multipart/form-data"
        {...getFormProps(form)}
        className="space-y-6"
        preventScrollReset
      >
        <input type="hidden" name="intent" value={intent} />
        {editing ? <input type="hidden" name="document_id" value={editing.id} /> : null}
        <FormErrors errors={form.errors} />
        <DocumentFields fields={fields} />
        {/* The schema loads lazily (useSchemaForm), so Conform cannot type the fields; `file` is documentAddSchema's. */}
        <FileField
          field={(fields as unknown as Record<string, Parameters<typeof FileField>[0]['field']>).file}
          label={editing ? t('products.documents.replace_file') : t('products.documents.file')}
          hint={
            editing
              ? t('products.documents.replace_hint', { name: editing.file_name })
              : t('products.documents.file_hint')
          }
          required={!editing}
        />
        <div className="flex flex-wrap gap-3">
          <Button type="submit" disabled={busy}>
            {editing ? t('common.save') : t('products.documents.upload')}
          </Button>
          {editing ? (
            <ButtonLink to={location.pathname} variant="secondary">
              {t('common.cancel')}
            </ButtonLink>
          ) : null}
        </div>
      </AppForm>
    </Card>
  );
}
