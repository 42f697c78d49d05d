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

/**
 * A day as a person types it, read into the stored form YYYY-MM-DD: DD/MM/YYYY as every page writes it
 * (also D/M/YYYY, and with `-` or `.` between the parts, as people type them), or YYYY-MM-DD as it is.
 * Null when the text is not a day or the day does not exist (31/02/2027, 29/02/2027), or its year is
 * outside 1900-3000 (spec 000 s.5). The day always comes first: MM/DD/YYYY is never read, so 03/04/2027
 * is the 3rd of April and 12/31/2027 is no day.
 */
export function readDay(text: string | null | undefined): string | null {
  const v = (text ?? '').trim();
  const british = BRITISH_DAY.exec(v);
  if (british) return existingDay(Number(british[3]), Number(british[2]), Number(british[1]));
  const iso = ISO_DAY.exec(v);
  return iso ? existingDay(Number(iso[1]), Number(iso[2]), Number(iso[3])) : null;
}

/** Whether text has the shape of a typed day (DD/MM/YYYY or YYYY-MM-DD), existing or not. */
export function looksLikeDay(text: string): boolean {
  const v = text.trim();
  return BRITISH_DAY.test(v) || ISO_DAY.test(v);
}

/**
 * The shape a date field takes, as an HTML `pattern` (the browser's own check before posting):
 * D/M/YYYY with `/`, `-` or `.`, or YYYY-MM-DD. Whether the day exists is the server's and the form
 * schema's to say.
 */
export const DAY_INPUT_PATTERN = String.raw`\s*\d{1,2}\s*[\/.\-]\s*\d{1,2}\s*[\/.\-]\s*\d{4}\s*|\s*\d{4}-\d{2}-\d{2}\s*`;

const BRITISH_DAY = /^(\d{1,2})\s*[/.-]\s*(\d{1,2})\s*[/.-]\s*(\d{4})$/;
const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

function existingDay(year: number, month: number, day: number): string | null {
  if (year < 1900 || year > 3000 || month < 1 || month > 12 || day < 1) return null;
  if (day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return null;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
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
