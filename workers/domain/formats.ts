/**
 * Plain formatting of days and money shared by both doors and the browser. Pure and free of zod, so
 * pages that only show dates do not load the schema library (validation.ts re-exports these).
 */

/** Integer minor units (pence, cents) as major units: 1250 → 12.5; none stays none. */
export function major(minor: number | null | undefined): number | null {
  return minor == null ? null : minor / 100;
}

/**
 * DD/MM/YYYY from a YYYY-MM-DD day, the way dates read in British English (spec 000 s.1), for messages
 * and pages alike; `empty` for none; anything else as it is.
 */
export function britishDate(iso: string | null | undefined, empty = ''): string {
  if (!iso) return empty;
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  return m ? `${m[3]}/${m[2]}/${m[1]}` : iso;
}

export function todayIso(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}
