/**
 * A list's summary by status that filters it: a chip per status with its count, the open one marked
 * (`aria-current`). On a phone the chips are a tidy grid of two columns, "all" across the top, each
 * chip's label on the left (wrapping when a language's word is long) and its count on the right; from
 * 640 px they are one row of pills.
 */
import { Link } from '@remix-run/react';

export interface CountChip {
  /** The status the chip filters by; '' for all. */
  key: string;
  label: string;
  count: number;
  /** The list's address with that filter. */
  to: string;
}

export function CountChips({
  chips,
  current,
  label,
  testId,
}: {
  chips: CountChip[];
  current: string;
  /** What the chips summarise, for assistive technology. */
  label: string;
  testId?: string;
}) {
  return (
    <nav
      className="grid grid-cols-2 gap-2 text-sm sm:flex sm:flex-wrap"
      aria-label={label}
      data-testid={testId}
    >
      {chips.map((c) => {
        const open = current === c.key;
        return (
          <Link
            key={c.key || 'all'}
            to={c.to}
            aria-current={open ? 'page' : undefined}
            preventScrollReset
            className={`flex min-w-0 items-center justify-between gap-2 rounded-lg px-3 py-1.5 font-medium ring-1 sm:justify-start sm:rounded-full ${
              c.key ? '' : 'col-span-2'
            } ${open ? 'bg-primary-800 text-white ring-primary-800' : 'bg-white text-slate-700 ring-slate-300 hover:bg-slate-50'}`}
          >
            <span className="min-w-0">{c.label}</span>
            <span
              className={`shrink-0 rounded-full px-2 text-xs tabular-nums ${open ? 'bg-white/20' : 'bg-slate-100 text-slate-700'}`}
            >
              {c.count.toLocaleString('en-GB')}
            </span>
          </Link>
        );
      })}
    </nav>
  );
}
