/**
 * The notes tab of any entity (clients, campuses, policies): the list with a type filter and paging,
 * download links for files, and the add-note form. The form is a multipart post to the page's own route
 * with `intent=add_note`; the route's action parses it with `parseNoteSubmission` (notes-form.server.ts)
 * and returns `{ intent: 'add_note', result, saved }`. It works without JavaScript (a disclosure, not a
 * dialog) and keeps what was typed on a validation error (a chosen file must be picked again).
 *
 *   <NotesPanel notes={data.notes} lastResult={actionData?.intent === 'add_note' ? actionData.result : null}
 *     canAdd={can.update} downloadHref={(id) => `/clients/${id}/notes/${id}/download`} requesters={...} />
 */
import { getFormProps, getSelectProps, type SubmissionResult } from '@conform-to/react';
import { Link, useLocation, useNavigation, useSearchParams } from '@remix-run/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { NOTE_SOURCES, NOTE_TYPES } from '@db/enums';
import { REQUESTER_TYPES } from '@server/domain/notes/values';
import type { NoteRow } from '@server/domain/notes/service';
import type { ListMeta } from '@server/domain/list-query';
import { todayIso } from '@server/domain/formats';
import {
  AppForm,
  ErrorList,
  errorsOf,
  Field,
  FormErrors,
  Label,
  TextAreaField,
  inputClass,
} from '~/components/forms';
import { Button } from '~/components/ui/button';
import { Pagination } from '~/components/ui/data-table';
import { formatDate, formatDateTime } from '~/lib/dates';
import { useSchemaForm, type Constraints } from '~/lib/schema-form';

export const NOTE_TYPE_PARAM = 'note_type';

function TypeFilter() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const location = useLocation();
  const current = params.get(NOTE_TYPE_PARAM) ?? '';
  const link = (type: string) => {
    const next = new URLSearchParams(params);
    if (type) next.set(NOTE_TYPE_PARAM, type);
    else next.delete(NOTE_TYPE_PARAM);
    next.delete('page');
    return `${location.pathname}?${next}`;
  };
  const options = [
    { value: '', label: t('notes.all_types') },
    ...NOTE_TYPES.map((v) => ({ value: v, label: t(`notes.types.${v}`) })),
  ];
  return (
    <nav className="flex flex-wrap gap-2" aria-label={t('notes.fields.type')}>
      {options.map((o) => (
        <Link
          key={o.value || 'all'}
          to={link(o.value)}
          preventScrollReset
          aria-current={current === o.value ? 'page' : undefined}
          className={`rounded-full px-3 py-1 text-sm font-medium ring-1 ${
            current === o.value
              ? 'bg-primary-800 text-white ring-primary-800'
              : 'bg-white text-slate-700 ring-slate-300 hover:bg-slate-50'
          }`}
        >
          {o.label}
        </Link>
      ))}
    </nav>
  );
}

function NoteCard({ note, downloadHref }: { note: NoteRow; downloadHref: (noteId: number) => string }) {
  const { t } = useTranslation();
  return (
    <article className="rounded-lg bg-white p-4 ring-1 ring-slate-200" data-testid="note">
      <header className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <h3 className="font-semibold text-slate-900">{note.title}</h3>
          <p className="text-xs text-slate-500">
            {formatDate(note.date)} · {t(`notes.sources.${note.source}`)}
          </p>
        </div>
        <span
          className={`rounded-full px-2 py-0.5 text-xs font-medium ${
            note.type === 'communication' ? 'bg-amber-100 text-amber-900' : 'bg-slate-100 text-slate-700'
          }`}
        >
          {t(`notes.types.${note.type}`)}
        </span>
      </header>
      <p className="mt-2 whitespace-pre-line text-sm text-slate-800">{note.note}</p>
      <div className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-sm">
        {note.requested_by ? (
          <span className="text-slate-600">
            {t('notes.requested_by_line', {
              name: note.requested_by,
              type: note.requester_type ? t(`notes.requester_types.${note.requester_type}`) : '—',
            })}
          </span>
        ) : null}
        {note.message_link ? (
          <a
            href={note.message_link}
            className="font-medium text-primary-800 hover:underline"
            rel="noreferrer"
            target={note.message_link.startsWith('/') ? undefined : '_blank'}
          >
            {t('notes.open_message')}
          </a>
        ) : null}
        {note.has_file ? (
          <a href={downloadHref(note.id)} className="font-medium text-primary-800 hover:underline" download>
            {t('notes.download', { name: note.file_name })}
          </a>
        ) : null}
      </div>
      <p className="mt-2 text-xs text-slate-500">
        {note.created_by
          ? t('notes.written_by', { name: note.created_by, date: formatDateTime(note.created_at) })
          : t('notes.written_on', { date: formatDateTime(note.created_at) })}
      </p>
    </article>
  );
}

/** The add-note form; `extra` adds hidden fields (a bulk note's selection), `withFile` false leaves out the file. */
export function AddNoteForm({
  lastResult,
  requesters,
  extra,
  withFile = true,
  constraint,
}: {
  lastResult?: SubmissionResult<string[]> | null;
  /** The browser checks: `noteConstraint()` (app/lib/notes.server.ts) from the page's loader. */
  constraint?: Constraints;
  requesters?: Partial<Record<(typeof REQUESTER_TYPES)[number], string[]>>;
  extra?: ReactNode;
  withFile?: boolean;
}) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'add_note';
  const [form, fields] = useSchemaForm({
    id: 'add-note',
    schema: () => import('@server/domain/notes/schema').then((m) => m.noteSchema),
    lastResult: lastResult ?? undefined,
    defaultValue: { date: todayIso(), type: 'admin_note', source: 'email' },
    constraint,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  const fileErrors = errorsOf(fields, 'file');
  const names = [...new Set(Object.values(requesters ?? {}).flat())].sort();
  const select = (
    name: 'source' | 'type' | 'requester_type',
    values: readonly string[],
    prefix: string,
    blank: boolean,
  ) => (
    <div>
      <Label htmlFor={fields[name].id}>{t(`notes.fields.${name}`)}</Label>
      <select {...getSelectProps(fields[name])} className={inputClass}>
        {blank ? <option value="">{t('notes.choose')}</option> : null}
        {values.map((v) => (
          <option key={v} value={v}>
            {t(`${prefix}.${v}`)}
          </option>
        ))}
      </select>
      <ErrorList id={fields[name].errorId} errors={fields[name].errors} />
    </div>
  );
  return (
    <AppForm
      method="post"
      encType={withFile ? 'multipart/form-data' : undefined}
      {...getFormProps(form)}
      className="space-y-4"
    >
      <FormErrors errors={form.errors} />
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="sm:col-span-2">
          <Field label={t('notes.fields.title')} field={fields.title} />
        </div>
        <div className="sm:col-span-2">
          <TextAreaField label={t('notes.fields.note')} field={fields.note} rows={4} />
        </div>
        <Field label={t('notes.fields.date')} field={fields.date} type="date" />
        {select('type', NOTE_TYPES, 'notes.types', false)}
        {select('source', NOTE_SOURCES, 'notes.sources', false)}
        {select('requester_type', REQUESTER_TYPES, 'notes.requester_types', true)}
        <div>
          <Field
            label={t('notes.fields.requested_by')}
            field={fields.requested_by}
            inputProps={{ list: `${form.id}-requesters`, autoComplete: 'off' }}
          />
          <datalist id={`${form.id}-requesters`}>
            {names.map((n) => (
              <option key={n} value={n} />
            ))}
          </datalist>
        </div>
        <Field
          label={t('notes.fields.message_link')}
          field={fields.message_link}
          hint={t('notes.fields.message_link_hint')}
        />
        {withFile ? (
          <div className="sm:col-span-2">
            <Label htmlFor={`${form.id}-file`}>{t('notes.fields.file')}</Label>
            <input
              id={`${form.id}-file`}
              type="file"
              name="file"
              accept=".pdf,.png,.jpg,.jpeg,.gif,.webp,.docx,.xlsx,.csv"
              aria-invalid={fileErrors?.length ? true : undefined}
              className="block w-full text-sm text-slate-700 file:mr-3 file:rounded-lg file:border-0 file:bg-primary-50 file:px-3 file:py-2 file:font-semibold file:text-primary-800"
            />
            <p className="mt-1 text-xs text-slate-500">{t('notes.fields.file_hint')}</p>
            <ErrorList errors={fileErrors} />
          </div>
        ) : null}
      </div>
      {extra}
      <p className="text-xs text-slate-500">{t('notes.conversation_hint')}</p>
      <Button type="submit" name="intent" value="add_note" disabled={busy}>
        {t('notes.add')}
      </Button>
    </AppForm>
  );
}

export function NotesPanel({
  notes,
  canAdd,
  downloadHref,
  lastResult,
  requesters,
  constraint,
}: {
  notes: { items: NoteRow[]; meta: ListMeta };
  /** The add-note form's browser checks: `noteConstraint()` from the page's loader. */
  constraint?: Constraints;
  canAdd: boolean;
  downloadHref: (noteId: number) => string;
  lastResult?: SubmissionResult<string[]> | null;
  requesters?: Partial<Record<(typeof REQUESTER_TYPES)[number], string[]>>;
}) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const failed = lastResult?.status === 'error';
  return (
    <div className="space-y-4">
      {canAdd ? (
        <details
          open={failed || undefined}
          className="rounded-xl bg-white shadow-sm ring-1 ring-slate-200 [&_summary::-webkit-details-marker]:hidden"
        >
          <summary className="cursor-pointer list-none px-6 py-4 text-sm font-semibold text-primary-800">
            + {t('notes.add')}
          </summary>
          <div className="border-t border-slate-200 px-6 py-5">
            <AddNoteForm lastResult={lastResult} requesters={requesters} constraint={constraint} />
          </div>
        </details>
      ) : null}
      <TypeFilter />
      {notes.items.length ? (
        <div className="space-y-3">
          {notes.items.map((n) => (
            <NoteCard key={n.id} note={n} downloadHref={downloadHref} />
          ))}
        </div>
      ) : (
        <p className="rounded-xl bg-white px-6 py-10 text-center text-sm text-slate-500 ring-1 ring-slate-200">
          {params.get(NOTE_TYPE_PARAM) ? t('notes.empty_type') : t('notes.empty')}
        </p>
      )}
      {notes.meta.total > notes.meta.per_page ? (
        <div className="overflow-hidden rounded-xl bg-white ring-1 ring-slate-200">
          <Pagination meta={notes.meta} />
        </div>
      ) : null}
    </div>
  );
}
