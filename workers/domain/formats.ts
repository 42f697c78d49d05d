/**
 * Plain formatting of days and money shared by both doors and the browser. Pure and free of zod, so
 * pages that only show dates do not load the schema library (validation.ts re-exports these).
 */

/** Integer minor units (pence, cents) as major units: 1250 → 12.5; none stays none. */
export function major(minor: number | null | undefined): number | null {
  return minor == null ? null : minor / 100;
}

/**
 * The one way a date reads, everywhere (pages, PDFs, e-mails, exports, messages): British English,
 * DD/MM/YYYY (spec 000 s.1), the form a British date field shows too. A calendar day (YYYY-MM-DD) is
 * written as it is, never moved by a time zone; an instant (a timestamp or a Date) is read on the
 * portal's clock, Europe/London, so the server and the browser write the same day. `empty` for none;
 * text that is no date as it is.
 */
export function britishDate(value: string | Date | null | undefined, empty = ''): string {
  if (!value) return empty;
  if (typeof value === 'string') {
    const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
    if (day) return `${day[3]}/${day[2]}/${day[1]}`;
  }
  const parts = londonParts(value);
  return parts ? `${parts.day}/${parts.month}/${parts.year}` : String(value);
}

/** Date and time, where the time matters (logs, payments, sessions): 21/11/2026, 14:05, London time. */
export function britishDateTime(value: string | Date | null | undefined, empty = ''): string {
  if (!value) return empty;
  const parts = londonParts(value);
  return parts ? `${parts.day}/${parts.month}/${parts.year}, ${parts.hour}:${parts.minute}` : String(value);
}

const LONDON = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** A day or a stored time without a zone ("2026-11-21", "2026-11-21 14:05:00") is UTC. */
function utcText(value: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return `${value}T00:00:00Z`;
  const plain = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(:\d{2}(\.\d+)?)?)$/.exec(value);
  return plain ? `${plain[1]}T${plain[2]}Z` : value;
}

function londonParts(
  value: string | Date,
): Record<'day' | 'month' | 'year' | 'hour' | 'minute', string> | null {
  const d = typeof value === 'string' ? new Date(utcText(value)) : value;
  if (Number.isNaN(d.getTime())) return null;
  const parts = Object.fromEntries(LONDON.formatToParts(d).map((p) => [p.type, p.value]));
  return {
    day: parts.day,
    month: parts.month,
    year: parts.year,
    hour: parts.hour,
    minute: parts.minute,
  };
}

export function todayIso(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}
