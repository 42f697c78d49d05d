/**
 * Parts of an amendment's quote page: whom the change is for (the selected insureds with their current
 * trip dates, shown before the new dates are asked: a compact table from 640 px, cards below), and why a
 * quote costs nothing when the new trip length stays in its price band.
 */
import { useTranslation } from 'react-i18next';
import type { ListMeta } from '@server/domain/list-query';
import { tripDays } from '@server/domain/enrollments/values';
import { britishDate } from '~/lib/dates';
import { Pagination } from '~/components/ui/data-table';

interface CurrentLine {
  policy: { id: string; policy_number: string; first_name: string; last_name: string };
  old_start_date: string;
  old_end_date: string;
}

/** The selected insureds and their current trip dates (one page of the amendment's lines). */
export function SelectedInsureds({ lines, meta }: { lines: CurrentLine[]; meta: ListMeta }) {
  const { t } = useTranslation();
  const name = (l: CurrentLine) => `${l.policy.first_name} ${l.policy.last_name}`;
  return (
    <section aria-labelledby="selected-title" className="space-y-3" data-testid="selected-insureds">
      <h2 id="selected-title" className="text-base font-semibold text-slate-900">
        {t('amendments.current.title', { count: meta.total })}
      </h2>
      <table className="hidden w-full text-sm sm:table">
        <thead>
          <tr className="border-b border-slate-200 text-left text-xs font-medium uppercase text-slate-600">
            <th scope="col" className="py-2 pr-4">
              {t('amendments.lines.insured')}
            </th>
            <th scope="col" className="py-2 pr-4">
              {t('amendments.current.policy')}
            </th>
            <th scope="col" className="py-2 pr-4">
              {t('amendments.current.start')}
            </th>
            <th scope="col" className="py-2">
              {t('amendments.current.end')}
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {lines.map((l) => (
            <tr key={l.policy.id}>
              <th scope="row" className="whitespace-nowrap py-2 pr-4 text-left font-medium text-slate-900">
                {name(l)}
              </th>
              <td className="whitespace-nowrap py-2 pr-4 text-slate-600">{l.policy.policy_number}</td>
              <td className="whitespace-nowrap py-2 pr-4">{britishDate(l.old_start_date)}</td>
              <td className="whitespace-nowrap py-2">{britishDate(l.old_end_date)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <ul className="space-y-2 sm:hidden">
        {lines.map((l) => (
          <li key={l.policy.id} className="rounded-lg border border-slate-200 p-3 text-sm">
            <div className="font-medium text-slate-900">{name(l)}</div>
            <div className="text-xs text-slate-600">{l.policy.policy_number}</div>
            <dl className="mt-2 grid grid-cols-2 gap-2">
              <div>
                <dt className="text-xs text-slate-600">{t('amendments.current.start')}</dt>
                <dd>{britishDate(l.old_start_date)}</dd>
              </div>
              <div>
                <dt className="text-xs text-slate-600">{t('amendments.current.end')}</dt>
                <dd>{britishDate(l.old_end_date)}</dd>
              </div>
            </dl>
          </li>
        ))}
      </ul>
      <Pagination meta={meta} />
    </section>
  );
}

type Band = { min_days: number; max_days: number | null };

interface PricedLine {
  old_start_date: string;
  old_end_date: string;
  new_start_date: string | null;
  new_end_date: string | null;
  premium_diff_minor: number;
  price_band: Band | null;
}

/**
 * Why a quote of a new trip length costs nothing: the lines whose length changed at no price stay in
 * their price band; the band is named when they share one. Nothing when no length changed at no price.
 */
export function SameBandNote({ lines }: { lines: PricedLine[] }) {
  const { t } = useTranslation();
  const unchanged = lines.filter(
    (l) =>
      l.price_band &&
      l.new_start_date &&
      l.new_end_date &&
      l.premium_diff_minor === 0 &&
      tripDays(l.new_start_date, l.new_end_date) !== tripDays(l.old_start_date, l.old_end_date),
  );
  if (!unchanged.length) return null;
  const bands = new Set(unchanged.map((l) => `${l.price_band!.min_days}-${l.price_band!.max_days}`));
  const band = unchanged[0].price_band!;
  const text =
    bands.size > 1
      ? t('amendments.band.mixed')
      : band.max_days === null
        ? t('amendments.band.any')
        : band.min_days <= 1
          ? t('amendments.band.up_to', { max: band.max_days })
          : t('amendments.band.range', { min: band.min_days, max: band.max_days });
  return (
    <p className="mt-3 rounded-lg bg-blue-50 p-3 text-sm text-blue-900" data-testid="same-band">
      {text}
    </p>
  );
}
