import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMinor } from '~/lib/money';
import { ScrollBox } from '~/components/ui/data-table';

export interface ChartMonth {
  month: string;
  invoiced_minor: number;
  collected_minor: number;
}

const W = 640;
const H = 260;
const PAD = { top: 16, right: 12, bottom: 36, left: 64 };

/** A round step for the axis: 1, 2 or 5 times a power of ten, so that about four steps reach `max`. */
function niceStep(max: number): number {
  const raw = max / 4;
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? raw;
}

const shortAmount = (minor: number) => {
  const v = minor / 100;
  if (Math.abs(v) >= 1_000_000) return `${+(v / 1_000_000).toFixed(1)}M`;
  if (Math.abs(v) >= 1_000) return `${+(v / 1_000).toFixed(1)}k`;
  return String(Math.round(v));
};

/**
 * The last twelve months' invoiced and collected amounts as bars, drawn as SVG in the page's HTML (it
 * shows without JavaScript). An image with a title and a description for screen readers, whose figures
 * are also in the table beside it.
 */
export function InvoicedCollectedChart({ currency, months }: { currency: string; months: ChartMonth[] }) {
  const { t } = useTranslation();
  const id = useId();
  const max = Math.max(1, ...months.flatMap((m) => [m.invoiced_minor, m.collected_minor]));
  const step = niceStep(max);
  const top = Math.ceil(max / step) * step;
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const y = (v: number) => PAD.top + plotH - (Math.max(0, v) / top) * plotH;
  const slot = plotW / months.length;
  const bar = Math.max(4, slot * 0.32);
  const sum = (k: 'invoiced_minor' | 'collected_minor') => months.reduce((s, m) => s + m[k], 0);
  const title = t('billing.chart.title', { currency });
  const label = (m: string) => `${m.slice(5, 7)}/${m.slice(2, 4)}`;
  return (
    <figure className="min-w-0">
      <ScrollBox label={title}>
        <svg
          viewBox={`0 0 ${W} ${H}`}
          role="img"
          aria-labelledby={`${id}-t ${id}-d`}
          className="h-auto w-full min-w-[520px]"
          data-chart="invoiced-collected"
        >
          <title id={`${id}-t`}>{title}</title>
          <desc id={`${id}-d`}>
            {t('billing.chart.desc', {
              invoiced: formatMinor(sum('invoiced_minor'), currency),
              collected: formatMinor(sum('collected_minor'), currency),
            })}
          </desc>
          {Array.from({ length: Math.round(top / step) + 1 }, (_, i) => i * step).map((v) => (
            <g key={v}>
              <line x1={PAD.left} x2={W - PAD.right} y1={y(v)} y2={y(v)} stroke="#e2e8f0" />
              <text x={PAD.left - 8} y={y(v) + 4} textAnchor="end" fontSize="12" fill="#475569">
                {shortAmount(v)}
              </text>
            </g>
          ))}
          {months.map((m, i) => {
            const x = PAD.left + i * slot + slot / 2;
            return (
              <g key={m.month}>
                <rect
                  x={x - bar - 1}
                  y={y(m.invoiced_minor)}
                  width={bar}
                  height={PAD.top + plotH - y(m.invoiced_minor)}
                  fill="#1e4e8c"
                  rx="2"
                />
                <rect
                  x={x + 1}
                  y={y(m.collected_minor)}
                  width={bar}
                  height={PAD.top + plotH - y(m.collected_minor)}
                  fill="#16a34a"
                  rx="2"
                />
                <text x={x} y={H - PAD.bottom + 18} textAnchor="middle" fontSize="12" fill="#475569">
                  {label(m.month)}
                </text>
              </g>
            );
          })}
          <line x1={PAD.left} x2={W - PAD.right} y1={PAD.top + plotH} y2={PAD.top + plotH} stroke="#94a3b8" />
        </svg>
      </ScrollBox>
      <figcaption className="mt-2 flex flex-wrap gap-4 text-sm text-slate-700" aria-hidden="true">
        <span className="inline-flex items-center gap-2">
          <span className="inline-block h-3 w-3 rounded-sm bg-[#1e4e8c]" />
          {t('billing.chart.invoiced')}
        </span>
        <span className="inline-flex items-center gap-2">
          <span className="inline-block h-3 w-3 rounded-sm bg-[#16a34a]" />
          {t('billing.chart.collected')}
        </span>
      </figcaption>
      {/* A table ignores `width: 1px` and grows to its text, which widened the page on a phone: the
          sr-only box is a div around it. */}
      <div className="sr-only">
        <table>
          <caption>{title}</caption>
          <thead>
            <tr>
              <th scope="col">{t('billing.chart.month')}</th>
              <th scope="col">{t('billing.chart.invoiced')}</th>
              <th scope="col">{t('billing.chart.collected')}</th>
            </tr>
          </thead>
          <tbody>
            {months.map((m) => (
              <tr key={m.month}>
                <th scope="row">{label(m.month)}</th>
                <td>{formatMinor(m.invoiced_minor, currency)}</td>
                <td>{formatMinor(m.collected_minor, currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
