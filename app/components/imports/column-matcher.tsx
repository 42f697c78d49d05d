import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DateOrder } from '@server/domain/imports/values';
import { columnLetter, parseDate } from '@server/domain/imports/normalise';
import { ErrorList, inputClass } from '~/components/fields';
import { formatDateSpelled } from '~/lib/dates';

/** How a column's suggestion was made (a spreadsheet import says it under the select). */
export type MatchSource = 'previous' | 'exact' | 'fuzzy' | 'none';

export interface MatcherColumn {
  index: number;
  header: string;
  /** Its first values, as the sheet has them. */
  values: string[];
  /** What it is matched to (the suggestion, or what the person chose), null when it is ignored. */
  target: string | null;
  source?: MatchSource;
}

export interface MatcherDates {
  /** The targets whose values are dates: their first values show how they will be read. */
  targets: readonly string[];
  order: DateOrder;
  today: string;
  legend: string;
  hint?: string;
  orders: Record<DateOrder, string>;
}

const SOURCE_TONE: Record<MatchSource, string> = {
  previous: 'text-primary-800',
  exact: 'text-green-700',
  fuzzy: 'text-amber-700',
  none: 'text-slate-500',
};
const ORDERS: DateOrder[] = ['dmy', 'mdy', 'ymd'];

/**
 * The column matching of an uploaded file (applicants, a cancellation sheet, a bank statement): one row
 * per column of the file, its header, its first values and a select of what it holds (`columns[i]`, ''
 * to ignore it). With `dates`, date columns show how their first values will be read in the chosen
 * day/month order (`date_order`); with JavaScript the reading follows the selects and the order as they
 * change, without it a page offers a button that posts the form to preview.
 */
export function ColumnMatcher({
  columns,
  targets,
  labels,
  errors,
  dates,
}: {
  columns: MatcherColumn[];
  targets: { value: string; label: string }[];
  labels: { column: string; values: string; field: string; ignore: string };
  errors: Record<string, string[] | null | undefined>;
  dates?: MatcherDates;
}) {
  const { t } = useTranslation();
  const [chosen, setChosen] = useState<(string | null)[]>(() => columns.map((c) => c.target));
  const [order, setOrder] = useState<DateOrder>(dates?.order ?? 'dmy');
  const dateTargets = new Set<string>(dates?.targets ?? []);
  return (
    <div className="space-y-6">
      {/* A table from md up; below it each column of the file is a card of its own (header, values, select). */}
      <div className="rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
        <table className="w-full text-sm max-md:block md:divide-y md:divide-slate-200">
          <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600 max-md:hidden">
            <tr>
              <th scope="col" className="px-4 py-3">
                {labels.column}
              </th>
              <th scope="col" className="px-4 py-3">
                {labels.values}
              </th>
              <th scope="col" className="w-72 px-4 py-3">
                {labels.field}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 max-md:block">
            {columns.map((c, i) => {
              const target = chosen[i];
              const isDate = !!dates && !!target && dateTargets.has(target);
              const fieldErrors = errors[`columns[${c.index}]`] ?? errors[`columns.${c.index}`] ?? undefined;
              const id = `column-${c.index}`;
              const name = c.header || t('imports.match.column_letter', { letter: columnLetter(c.index) });
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
                    <span className="block">{name}</span>
                    <span className="text-xs font-normal text-slate-500">{columnLetter(c.index)}</span>
                  </th>
                  <td className="px-4 py-3 align-top text-slate-700 max-md:block max-md:px-0 max-md:py-2">
                    <span className="mb-0.5 block text-xs font-semibold text-slate-600 md:hidden">
                      {labels.values}
                    </span>
                    {c.values.length ? (
                      <ul className="space-y-0.5">
                        {c.values.map((v, n) => {
                          const read = isDate ? parseDate(v, order, dates.today) : null;
                          return (
                            <li key={n} className="break-words">
                              <span>{v}</span>
                              {isDate ? (
                                <span
                                  className={`ml-2 text-xs ${read ? 'text-green-700' : 'text-red-700'}`}
                                  data-date-preview
                                >
                                  {read
                                    ? t('imports.match.reads_as', { date: formatDateSpelled(read) })
                                    : t('imports.match.not_a_date')}
                                </span>
                              ) : null}
                            </li>
                          );
                        })}
                      </ul>
                    ) : (
                      <span className="text-slate-500">{t('imports.match.no_values')}</span>
                    )}
                  </td>
                  <td className="px-4 py-3 align-top max-md:block max-md:p-0">
                    <label
                      htmlFor={id}
                      className="sr-only max-md:not-sr-only max-md:mb-1 max-md:block max-md:text-xs max-md:font-semibold max-md:text-slate-600"
                    >
                      {labels.field}: {name}
                    </label>
                    <select
                      id={id}
                      name={`columns[${c.index}]`}
                      // Uncontrolled: the browser keeps what the person chose; the state follows it for the
                      // date previews.
                      defaultValue={c.target ?? ''}
                      onChange={(e) =>
                        setChosen((s) => s.map((x, n) => (n === i ? e.target.value || null : x)))
                      }
                      aria-invalid={fieldErrors?.length ? true : undefined}
                      aria-describedby={fieldErrors?.length ? `${id}-errors` : undefined}
                      className={inputClass}
                    >
                      <option value="">{labels.ignore}</option>
                      {targets.map((o) => (
                        <option key={o.value} value={o.value}>
                          {o.label}
                        </option>
                      ))}
                    </select>
                    {c.source ? (
                      <p className={`mt-1 text-xs ${SOURCE_TONE[c.source]}`}>
                        {t(`imports.match.source.${c.source}`)}
                      </p>
                    ) : null}
                    <ErrorList id={`${id}-errors`} errors={fieldErrors} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {dates ? (
        <fieldset className="rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
          <legend className="px-1 text-sm font-semibold text-slate-900">{dates.legend}</legend>
          {dates.hint ? <p className="mb-3 text-xs text-slate-500">{dates.hint}</p> : null}
          <div className="flex flex-wrap gap-x-6 gap-y-2">
            {ORDERS.map((o) => (
              <label key={o} className="flex items-center gap-2 text-sm text-slate-700">
                <input
                  type="radio"
                  name="date_order"
                  value={o}
                  checked={order === o}
                  onChange={() => setOrder(o)}
                  className="h-4 w-4 border-slate-300 text-primary-700"
                />
                {dates.orders[o]}
              </label>
            ))}
          </div>
        </fieldset>
      ) : null}
    </div>
  );
}
