import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  DATE_TARGETS,
  IMPORT_TARGETS,
  type DateOrder,
  type ImportTarget,
} from '@server/domain/imports/values';
import { columnLetter, parseDate } from '@server/domain/imports/normalise';
import { ErrorList, inputClass } from '~/components/fields';
import { formatDate } from '~/lib/dates';

export interface MatcherColumn {
  index: number;
  header: string;
  values: string[];
  target: ImportTarget | null;
  source: 'previous' | 'exact' | 'fuzzy' | 'none';
}

const DATE_SET = new Set<string>(DATE_TARGETS);
const SOURCE_TONE: Record<MatcherColumn['source'], string> = {
  previous: 'text-primary-800',
  exact: 'text-green-700',
  fuzzy: 'text-amber-700',
  none: 'text-slate-500',
};

/**
 * One row per column of the sheet: its header, its first values and a select of the applicant detail
 * it holds (or "ignore"). Date columns show how their first values will be read in the chosen day/month
 * order; with JavaScript the reading follows the selects and the order as they change, without it the
 * "Show how dates are read" button posts the form to preview.
 */
export function ColumnMatcher({
  columns,
  dateOrder,
  today,
  errors,
}: {
  columns: MatcherColumn[];
  dateOrder: DateOrder;
  today: string;
  errors: Record<string, string[]>;
}) {
  const { t } = useTranslation();
  const [targets, setTargets] = useState<(ImportTarget | null)[]>(() => columns.map((c) => c.target));
  const [order, setOrder] = useState<DateOrder>(dateOrder);
  return (
    <div className="space-y-6">
      {/* A table from md up; below it each column of the sheet is a card of its own (header, values, select). */}
      <div className="rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
        <table className="w-full text-sm max-md:block md:divide-y md:divide-slate-200">
          <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600 max-md:hidden">
            <tr>
              <th scope="col" className="px-4 py-3">
                {t('imports.match.column')}
              </th>
              <th scope="col" className="px-4 py-3">
                {t('imports.match.values')}
              </th>
              <th scope="col" className="w-72 px-4 py-3">
                {t('imports.match.field')}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 max-md:block">
            {columns.map((c, i) => {
              const target = targets[i];
              const isDate = !!target && DATE_SET.has(target);
              const fieldErrors = errors[`columns[${c.index}]`] ?? errors[`columns.${c.index}`];
              const id = `column-${c.index}`;
              return (
                <tr
                  key={c.index}
                  className={`max-md:block max-md:px-4 max-md:py-3 ${target ? '' : 'bg-slate-50/60'}`}
                  data-column={c.index}
                >
                  <th
                    scope="row"
                    className="px-4 py-3 text-left align-top font-medium break-words text-slate-900 max-md:block max-md:p-0"
                  >
                    <span className="block">
                      {c.header || t('imports.match.column_letter', { letter: columnLetter(c.index) })}
                    </span>
                    <span className="text-xs font-normal text-slate-500">{columnLetter(c.index)}</span>
                  </th>
                  <td className="px-4 py-3 align-top text-slate-700 max-md:block max-md:px-0 max-md:py-2">
                    <span className="mb-0.5 block text-xs font-semibold text-slate-600 md:hidden">
                      {t('imports.match.values')}
                    </span>
                    <ul className="space-y-0.5">
                      {c.values.map((v, n) => {
                        const read = isDate ? parseDate(v, order, today) : null;
                        return (
                          <li key={n} className="break-words">
                            <span>{v}</span>
                            {isDate ? (
                              <span
                                className={`ml-2 text-xs ${read ? 'text-green-700' : 'text-red-700'}`}
                                data-date-preview
                              >
                                {read
                                  ? t('imports.match.reads_as', { date: formatDate(read) })
                                  : t('imports.match.not_a_date')}
                              </span>
                            ) : null}
                          </li>
                        );
                      })}
                    </ul>
                  </td>
                  <td className="px-4 py-3 align-top max-md:block max-md:p-0">
                    <label
                      htmlFor={id}
                      className="sr-only max-md:not-sr-only max-md:mb-1 max-md:block max-md:text-xs max-md:font-semibold max-md:text-slate-600"
                    >
                      {t('imports.match.field')}: {c.header}
                    </label>
                    <select
                      id={id}
                      name={`columns[${c.index}]`}
                      value={target ?? ''}
                      onChange={(e) =>
                        setTargets((s) =>
                          s.map((x, n) => (n === i ? ((e.target.value || null) as ImportTarget | null) : x)),
                        )
                      }
                      aria-invalid={fieldErrors?.length ? true : undefined}
                      className={inputClass}
                    >
                      <option value="">{t('imports.match.ignore')}</option>
                      {IMPORT_TARGETS.map((f) => (
                        <option key={f} value={f}>
                          {t(`imports.fields.${f}`)}
                        </option>
                      ))}
                    </select>
                    <p className={`mt-1 text-xs ${SOURCE_TONE[c.source]}`}>
                      {t(`imports.match.source.${c.source}`)}
                    </p>
                    <ErrorList errors={fieldErrors} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <fieldset className="rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
        <legend className="px-1 text-sm font-semibold text-slate-900">{t('imports.match.date_order')}</legend>
        <p className="mb-3 text-xs text-slate-500">{t('imports.match.date_order_hint')}</p>
        <div className="flex flex-wrap gap-x-6 gap-y-2">
          {(['dmy', 'mdy', 'ymd'] as const).map((o) => (
            <label key={o} className="flex items-center gap-2 text-sm text-slate-700">
              <input
                type="radio"
                name="date_order"
                value={o}
                checked={order === o}
                onChange={() => setOrder(o)}
                className="h-4 w-4 border-slate-300 text-primary-700"
              />
              {t(`imports.match.date_orders.${o}`)}
            </label>
          ))}
        </div>
      </fieldset>
    </div>
  );
}
