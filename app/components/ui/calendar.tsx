/**
 * The calendar of a date field (date-input.tsx), rendered only where scripts run: a button beside the
 * field opens a month grid, Monday first, named in the page's language, following the WAI-ARIA date
 * picker dialog pattern.
 *
 * - Opening shows the month of the day in the field (today's when it holds none) and puts focus on that
 *   day. Arrows move a day or a week, Page Up and Page Down a month (with Shift a year), Home and End to
 *   the week's first and last day; Enter or Space picks the day, Escape closes; focus returns to the field.
 * - Picking writes DD/MM/YYYY into the field and tells the form (an `input` and a `change` event), as if
 *   typed, so the form's checks run as they do for typing.
 * - The grid floats over the page (fixed, placed under the field or above it when there is no room
 *   below), so a field inside a scrolling table is not clipped.
 *
 * Our own rather than a date-picker library: about 200 lines for what those bring with their own styling
 * and focus machinery (docs/performance.md, "Page weight").
 */
import {
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type RefObject,
} from 'react';
import { useTranslation } from 'react-i18next';
import { readDay } from '@server/domain/formats';
import { britishDate, calendarNames } from '~/lib/dates';

const WIDTH = 288;

/** A day's number from 1 Jan 1970, and back: day arithmetic without time zones. */
const dayNumber = (day: string) =>
  Date.UTC(+day.slice(0, 4), +day.slice(5, 7) - 1, +day.slice(8, 10)) / 864e5;
const dayOf = (n: number) => new Date(n * 864e5).toISOString().slice(0, 10);
const addDays = (day: string, n: number) => dayOf(dayNumber(day) + n);

/** The same day `n` months on, or the month's last day when it has fewer (31 Jan + 1 month: 28 or 29 Feb). */
function addMonths(day: string, n: number): string {
  const y = +day.slice(0, 4);
  const m = +day.slice(5, 7) - 1 + n;
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return new Date(Date.UTC(y, m, Math.min(+day.slice(8, 10), last))).toISOString().slice(0, 10);
}

/** The weeks of a day's month, Monday first; days of other months are null. */
function weeksOf(day: string): (string | null)[][] {
  const first = `${day.slice(0, 8)}01`;
  const lead = (new Date(`${first}T00:00:00Z`).getUTCDay() + 6) % 7;
  const length = new Date(Date.UTC(+day.slice(0, 4), +day.slice(5, 7), 0)).getUTCDate();
  const cells: (string | null)[] = [
    ...Array<null>(lead).fill(null),
    ...Array.from({ length }, (_, i) => addDays(first, i)),
  ];
  while (cells.length % 7) cells.push(null);
  return Array.from({ length: cells.length / 7 }, (_, w) => cells.slice(w * 7, w * 7 + 7));
}

/** Today on the portal's clock (London), as YYYY-MM-DD. */
const today = () => readDay(britishDate(new Date())) ?? new Date().toISOString().slice(0, 10);

/** Writes a value into a field as typing would, so the form (Conform, a filters bar) sees it. */
function typeInto(input: HTMLInputElement, value: string) {
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(input, value);
  input.dispatchEvent(new Event('input', { bubbles: true }));
  input.dispatchEvent(new Event('change', { bubbles: true }));
}

export function Calendar({
  input,
  disabled,
}: {
  input: RefObject<HTMLInputElement | null>;
  disabled?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const names = useMemo(() => calendarNames(i18n.language), [i18n.language]);
  const [open, setOpen] = useState(false);
  const [focused, setFocused] = useState('');
  const [place, setPlace] = useState<{ top: number; left: number } | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  const dialog = useRef<HTMLDivElement>(null);
  const grid = useRef<HTMLTableElement>(null);
  const titleId = useId();
  const dialogId = useId();
  const picked = open ? readDay(input.current?.value) : null;
  const now = useMemo(() => (open ? today() : ''), [open]);

  const close = useCallback(
    (refocus: 'field' | 'button' | null) => {
      setOpen(false);
      if (refocus === 'field') input.current?.focus();
      if (refocus === 'button') button.current?.focus();
    },
    [input],
  );

  const show = () => {
    setFocused(readDay(input.current?.value) ?? today());
    setOpen(true);
  };

  // Under the field, or above it when the window has no room below; kept in view as the page scrolls.
  const placeDialog = useCallback(() => {
    const field = input.current?.parentElement;
    const box = dialog.current;
    if (!field || !box) return;
    const r = field.getBoundingClientRect();
    const height = box.offsetHeight;
    const below = r.bottom + 4;
    const top = below + height > window.innerHeight && r.top - 4 - height > 0 ? r.top - 4 - height : below;
    const left = Math.max(8, Math.min(r.left, window.innerWidth - WIDTH - 8));
    setPlace({ top, left });
  }, [input]);

  useLayoutEffect(() => {
    if (open) placeDialog();
    else setPlace(null);
  }, [open, placeDialog]);

  useEffect(() => {
    if (!open) return;
    const outside = (e: PointerEvent) => {
      const target = e.target as Node;
      if (!dialog.current?.contains(target) && !button.current?.contains(target)) close(null);
    };
    document.addEventListener('pointerdown', outside);
    window.addEventListener('scroll', placeDialog, true);
    window.addEventListener('resize', placeDialog);
    return () => {
      document.removeEventListener('pointerdown', outside);
      window.removeEventListener('scroll', placeDialog, true);
      window.removeEventListener('resize', placeDialog);
    };
  }, [open, close, placeDialog]);

  // Focus follows the day moved to, once the grid is placed (the grid re-renders on a month change first).
  const placed = place !== null;
  useEffect(() => {
    if (placed) grid.current?.querySelector<HTMLButtonElement>(`button[data-day="${focused}"]`)?.focus();
  }, [placed, focused]);

  const pick = (day: string) => {
    if (input.current) typeInto(input.current, britishDate(day));
    close('field');
  };

  const onGridKey = (e: KeyboardEvent) => {
    const moves: Record<string, () => string> = {
      ArrowLeft: () => addDays(focused, -1),
      ArrowRight: () => addDays(focused, 1),
      ArrowUp: () => addDays(focused, -7),
      ArrowDown: () => addDays(focused, 7),
      PageUp: () => addMonths(focused, e.shiftKey ? -12 : -1),
      PageDown: () => addMonths(focused, e.shiftKey ? 12 : 1),
      Home: () => addDays(focused, -((new Date(`${focused}T00:00:00Z`).getUTCDay() + 6) % 7)),
      End: () => addDays(focused, 6 - ((new Date(`${focused}T00:00:00Z`).getUTCDay() + 6) % 7)),
    };
    const move = moves[e.key];
    if (!move) return;
    e.preventDefault();
    setFocused(move());
  };

  const navButton =
    'grid h-9 w-9 place-items-center rounded-lg text-slate-700 hover:bg-slate-100 focus-visible:outline focus-visible:outline-2 focus-visible:outline-primary-600';

  return (
    <>
      <button
        ref={button}
        type="button"
        disabled={disabled}
        aria-label={t('common.date.choose')}
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open ? dialogId : undefined}
        onClick={() => (open ? close(null) : show())}
        className="grid shrink-0 place-items-center rounded-lg bg-white px-3 text-slate-600 shadow-sm ring-1 ring-inset ring-slate-300 hover:bg-slate-50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-primary-600 disabled:opacity-50"
      >
        <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="h-5 w-5">
          <path
            fillRule="evenodd"
            d="M5.75 2a.75.75 0 0 1 .75.75V4h7V2.75a.75.75 0 0 1 1.5 0V4h.25A2.75 2.75 0 0 1 18 6.75v8.5A2.75 2.75 0 0 1 15.25 18H4.75A2.75 2.75 0 0 1 2 15.25v-8.5A2.75 2.75 0 0 1 4.75 4H5V2.75A.75.75 0 0 1 5.75 2Zm-1 5.5c-.69 0-1.25.56-1.25 1.25v6.5c0 .69.56 1.25 1.25 1.25h10.5c.69 0 1.25-.56 1.25-1.25v-6.5c0-.69-.56-1.25-1.25-1.25H4.75Z"
            clipRule="evenodd"
          />
        </svg>
      </button>
      {open ? (
        <div
          ref={dialog}
          id={dialogId}
          role="dialog"
          aria-modal="false"
          aria-labelledby={titleId}
          data-testid="calendar"
          style={{
            width: WIDTH,
            top: place?.top ?? 0,
            left: place?.left ?? 0,
            visibility: place ? 'visible' : 'hidden',
          }}
          className="fixed z-50 rounded-xl bg-white p-3 shadow-lg ring-1 ring-slate-200"
          onBlur={(e) => {
            const to = e.relatedTarget as Node | null;
            if (to && !dialog.current?.contains(to) && !button.current?.contains(to)) close(null);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.preventDefault();
              e.stopPropagation();
              close('field');
            }
          }}
        >
          <div className="flex items-center justify-between">
            <button
              type="button"
              className={navButton}
              aria-label={t('common.date.previous_month')}
              onClick={() => setFocused(addMonths(focused, -1))}
            >
              <span aria-hidden="true" className="text-lg leading-none">
                ‹
              </span>
            </button>
            <p id={titleId} aria-live="polite" className="text-sm font-semibold text-slate-900">
              {names.monthTitle(focused)}
            </p>
            <button
              type="button"
              className={navButton}
              aria-label={t('common.date.next_month')}
              onClick={() => setFocused(addMonths(focused, 1))}
            >
              <span aria-hidden="true" className="text-lg leading-none">
                ›
              </span>
            </button>
          </div>
          <table
            ref={grid}
            role="grid"
            aria-labelledby={titleId}
            className="mt-2 w-full text-center text-sm"
            onKeyDown={onGridKey}
          >
            <thead>
              <tr>
                {names.weekdays.map((w) => (
                  <th
                    key={w.long}
                    scope="col"
                    abbr={w.long}
                    className="pb-1 text-xs font-medium text-slate-500"
                  >
                    {w.short}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {weeksOf(focused).map((week, i) => (
                <tr key={i}>
                  {week.map((day, j) => (
                    <td
                      key={day ?? `blank-${j}`}
                      aria-selected={day ? day === picked : undefined}
                      className="p-0.5"
                    >
                      {day ? (
                        <button
                          type="button"
                          data-day={day}
                          tabIndex={day === focused ? 0 : -1}
                          aria-label={names.dayLabel(day)}
                          aria-current={day === now ? 'date' : undefined}
                          onClick={() => pick(day)}
                          className={`h-9 w-9 rounded-lg focus-visible:outline focus-visible:outline-2 focus-visible:outline-primary-600 ${
                            day === picked
                              ? 'bg-primary-700 font-semibold text-white'
                              : day === now
                                ? 'font-semibold text-primary-700 ring-1 ring-inset ring-primary-600 hover:bg-slate-100'
                                : 'text-slate-800 hover:bg-slate-100'
                          }`}
                        >
                          {Number(day.slice(8, 10))}
                        </button>
                      ) : null}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
          <div className="mt-2 flex justify-end">
            <button
              type="button"
              className="rounded-lg px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-100"
              onClick={() => close('button')}
            >
              {t('common.close')}
            </button>
          </div>
        </div>
      ) : null}
    </>
  );
}
