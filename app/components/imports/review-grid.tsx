import { Link, useLocation, useNavigation, useSearchParams } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import type { EnrollmentError } from '@db/schema/ordering-enums';
import { type ApplicantField } from '@server/domain/enrollments/schema';
import { APPLICANT_DAY_FIELDS } from '@server/domain/enrollments/values';
import { APPLICANT_TYPES, GENDERS } from '@db/enums';
import { AppForm, inputClass } from '~/components/fields';
import { Button } from '~/components/ui/button';
import { ScrollBox } from '~/components/ui/data-table';
import { DateInput } from '~/components/ui/date-input';
import { useMessage } from '~/lib/messages';
import { britishDate } from '~/lib/dates';

export interface GridRow {
  id: string;
  position: number;
  type: string;
  values: Record<ApplicantField, string | null>;
  errors: EnrollmentError[];
  link_errors: EnrollmentError[];
}

const COUNTRY_FIELDS = new Set<ApplicantField>(['residence_country_id', 'destination_country_id']);

/** The text of a cell: dates as DD/MM/YYYY, types and genders in words. */
function useCellText() {
  const { t } = useTranslation();
  return (field: ApplicantField, value: string | null) => {
    if (value == null || value === '') return '';
    if (APPLICANT_DAY_FIELDS.has(field)) return britishDate(value);
    if (field === 'type' && (APPLICANT_TYPES as readonly string[]).includes(value))
      return t(`imports.types.${value}`);
    if (field === 'gender' && (GENDERS as readonly string[]).includes(value)) return value.replace(/_/g, ' ');
    return value;
  };
}

/** One editable cell of the row being fixed, bound to that row's form by `form=`. */
function EditCell({
  field,
  row,
  formId,
  countries,
  errors,
}: {
  field: ApplicantField;
  row: GridRow;
  formId: string;
  countries: { id: number; name: string }[];
  errors: string[];
}) {
  const { t } = useTranslation();
  const value = row.values[field];
  const common = {
    form: formId,
    name: field,
    id: `${formId}-${field}`,
    'aria-label': t(`imports.fields.${field}`),
    'aria-invalid': errors.length ? true : undefined,
    'aria-describedby': errors.length ? `row-${row.id}-errors` : undefined,
    className: `${inputClass} min-w-32 !py-1.5`,
  };
  if (field === 'type')
    return (
      <select
        {...common}
        defaultValue={(APPLICANT_TYPES as readonly string[]).includes(row.type) ? row.type : 'student'}
      >
        {APPLICANT_TYPES.map((x) => (
          <option key={x} value={x}>
            {t(`imports.types.${x}`)}
          </option>
        ))}
      </select>
    );
  if (field === 'gender')
    return (
      <select
        {...common}
        defaultValue={(GENDERS as readonly string[]).includes(value ?? '') ? (value ?? '') : ''}
      >
        <option value="">—</option>
        {GENDERS.map((g) => (
          <option key={g} value={g}>
            {g.replace(/_/g, ' ')}
          </option>
        ))}
      </select>
    );
  if (COUNTRY_FIELDS.has(field)) {
    const match = countries.find((c) => c.name === value);
    return (
      <select {...common} defaultValue={match ? String(match.id) : ''}>
        <option value="">—</option>
        {countries.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </select>
    );
  }
  if (APPLICANT_DAY_FIELDS.has(field))
    return (
      <DateInput
        {...common}
        defaultValue={value ?? ''}
        compact
        className="min-w-44"
        inputClassName="!py-1.5"
      />
    );
  return <input {...common} type={field.includes('email') ? 'email' : 'text'} defaultValue={value ?? ''} />;
}

/**
 * The review grid: one row per applicant in sheet order. A cell with an error is marked red, and every
 * error of the row (the cells' and the row-wide ones, such as duplicates) is listed under the row as
 * "field: message", in a list that stays at the left edge of the visible part of the grid: it can be read
 * on any screen without scrolling sideways, while the grid itself scrolls inside its own box. A row opens for fixing with its "Edit" link (the
 * `edit` query parameter, so it works without JavaScript); its inputs post to a form of its own. The
 * row checkboxes belong to the page's delete form (`deleteFormId`).
 */
export function ReviewGrid({
  rows,
  fields,
  editing,
  countries,
  deleteFormId,
  hidden,
  editErrors,
}: {
  rows: GridRow[];
  fields: ApplicantField[];
  editing: string | null;
  countries: { id: number; name: string }[];
  deleteFormId: string;
  hidden: Record<string, string>;
  editErrors?: Record<string, string[]> | null;
}) {
  const { t } = useTranslation();
  const m = useMessage();
  const text = useCellText();
  const [params] = useSearchParams();
  const location = useLocation();
  const busy = useNavigation().state === 'submitting';
  const link = (edit: string | null) => {
    const next = new URLSearchParams(params);
    if (edit) next.set('edit', edit);
    else next.delete('edit');
    return `${location.pathname}?${next}${edit ? `#row-${edit}` : ''}`;
  };
  return (
    <div className="overflow-hidden rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
      <ScrollBox label={t('imports.review.title')} className="@container">
        <table className="min-w-full divide-y divide-slate-200 text-sm">
          <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
            <tr>
              <th
                scope="col"
                className="sticky left-0 z-10 bg-slate-50 px-3 py-3 shadow-[1px_0_0_0_rgb(226_232_240)]"
              >
                {t('imports.review.row')}
              </th>
              {fields.map((f) => (
                <th key={f} scope="col" className="whitespace-nowrap px-3 py-3">
                  {t(`imports.fields.${f}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.map((row) => {
              const isEditing = editing === row.id;
              const formId = `edit-${row.id}`;
              const byField = new Map<string, EnrollmentError[]>();
              for (const e of row.errors) byField.set(e.field, [...(byField.get(e.field) ?? []), e]);
              const fieldName = (field: string) => t(`imports.fields.${field}`, { defaultValue: field });
              // Every error of the row once, as "field: message", the row-wide ones ("row") as the message alone.
              const listed = new Map<string, string>();
              for (const e of row.errors)
                listed.set(
                  `${e.field}|${m(errorText(e))}`,
                  `${e.field !== 'row' ? `${fieldName(e.field)}: ` : ''}${m(errorText(e))}`,
                );
              if (isEditing)
                for (const [f, messages] of Object.entries(editErrors ?? {}))
                  for (const x of messages) listed.set(`${f}|${m(x)}`, `${fieldName(f)}: ${m(x)}`);
              const hasErrors = row.errors.length > 0;
              return [
                <tr
                  key={row.id}
                  id={`row-${row.id}`}
                  data-row={row.position}
                  className={
                    isEditing ? 'bg-primary-50/60' : hasErrors ? 'bg-red-50/40' : 'hover:bg-slate-50'
                  }
                >
                  <th
                    scope="row"
                    className={`sticky left-0 z-10 px-3 py-2 text-left align-top font-medium text-slate-900 shadow-[1px_0_0_0_rgb(226_232_240)] ${
                      isEditing ? 'bg-primary-50' : hasErrors ? 'bg-red-50' : 'bg-white'
                    }`}
                  >
                    <div className="flex items-start gap-2.5">
                      <input
                        type="checkbox"
                        name="ids"
                        value={row.id}
                        form={deleteFormId}
                        aria-label={t('imports.review.select_row', { row: row.position })}
                        className="mt-0.5 h-4 w-4 rounded border-slate-300 text-primary-700"
                      />
                      <div className="flex flex-col gap-1">
                        <span>{row.position}</span>
                        {isEditing ? (
                          <>
                            <AppForm method="post" id={formId} preventScrollReset>
                              <input type="hidden" name="intent" value="update" />
                              <input type="hidden" name="enrollment_id" value={row.id} />
                              {Object.entries(hidden).map(([k, v]) => (
                                <input key={k} type="hidden" name={k} value={v} />
                              ))}
                            </AppForm>
                            <Button
                              type="submit"
                              form={formId}
                              disabled={busy}
                              className="whitespace-nowrap !px-2.5 !py-1 !text-xs"
                            >
                              {t('imports.review.save')}
                            </Button>
                            <Link
                              to={link(null)}
                              preventScrollReset
                              className="text-xs font-semibold text-slate-600 underline"
                            >
                              {t('imports.review.cancel')}
                            </Link>
                          </>
                        ) : (
                          <Link
                            to={link(row.id)}
                            preventScrollReset
                            aria-label={t('imports.review.edit_row', { row: row.position })}
                            className="text-xs font-semibold text-primary-800 underline hover:text-primary-700"
                          >
                            {t('imports.review.edit')}
                          </Link>
                        )}
                      </div>
                    </div>
                  </th>
                  {fields.map((f) => {
                    const cellErrors = (byField.get(f) ?? []).map((e) => m(errorText(e)));
                    const extra = isEditing ? (editErrors?.[f] ?? []) : [];
                    const all = [...new Set([...cellErrors, ...extra.map((x) => m(x))])];
                    const describedBy = all.length ? `row-${row.id}-errors` : undefined;
                    return (
                      <td
                        key={f}
                        data-field={f}
                        className={`px-3 py-2 align-top ${all.length ? 'text-red-800' : 'text-slate-700'}`}
                      >
                        {isEditing ? (
                          <EditCell field={f} row={row} formId={formId} countries={countries} errors={all} />
                        ) : (
                          <span
                            className={
                              all.length ? 'rounded bg-red-100 px-1 font-medium ring-1 ring-red-300' : ''
                            }
                            aria-describedby={describedBy}
                          >
                            {text(f, row.values[f]) || (all.length ? '∅' : '')}
                          </span>
                        )}
                        {f === 'type' && row.link_errors.some((e) => e.field === 'dependency_id') ? (
                          <span className="mt-0.5 block text-xs text-slate-500">
                            {t('imports.review.link_note')}
                          </span>
                        ) : null}
                      </td>
                    );
                  })}
                </tr>,
                listed.size ? (
                  <tr key={`${row.id}-errors`} className="bg-red-50/40" data-errors-of={row.position}>
                    <td colSpan={fields.length + 1} className="p-0">
                      <ul
                        id={`row-${row.id}-errors`}
                        role="list"
                        aria-label={t('imports.review.row_errors', { row: row.position })}
                        className="sticky left-0 max-w-[100cqw] space-y-0.5 px-3 pb-2 pt-1 text-xs text-red-800"
                      >
                        {[...listed.entries()].map(([key, line]) => (
                          <li key={key}>{line}</li>
                        ))}
                      </ul>
                    </td>
                  </tr>
                ) : null,
              ];
            })}
          </tbody>
        </table>
      </ScrollBox>
    </div>
  );
}

/** An enrollment error (key and parameters) as a message for useMessage. */
export function errorText(e: EnrollmentError): string {
  return e.params ? `${e.message}|${JSON.stringify(e.params)}` : e.message;
}
