import { format, type Locale } from 'date-fns';
import { britishDate, britishDateTime } from '@server/domain/formats';
import { enGB } from 'date-fns/locale/en-GB';
import { HTML_LANG, isLanguage } from '~/i18n/config';

// One chunk per language: a page loads the date-fns locale of its own language only.
const LOCALES: Record<string, () => Promise<Locale>> = {
  de: () => import('date-fns/locale/de').then((m) => m.de),
  es: () => import('date-fns/locale/es').then((m) => m.es),
  fr: () => import('date-fns/locale/fr').then((m) => m.fr),
  it: () => import('date-fns/locale/it').then((m) => m.it),
  pt: () => import('date-fns/locale/pt').then((m) => m.pt),
  cn: () => import('date-fns/locale/zh-CN').then((m) => m.zhCN),
  ca: () => import('date-fns/locale/zh-HK').then((m) => m.zhHK),
};

/**
 * The date-fns locale for relative times in an interface language, loaded on demand (English is
 * en-GB). Dates themselves are shown in British English (formatDate).
 */
export async function loadDateLocale(lang: string): Promise<Locale> {
  return (await LOCALES[lang]?.()) ?? enGB;
}

/** A date on a page: 21/11/2026 (britishDate, the one format of every page, PDF, e-mail and export); 'N/A' for none. */
export function formatDate(value: Date | string | null | undefined): string {
  return britishDate(value, 'N/A');
}

/** A date and time on a page, where the time matters: 21/11/2026, 14:05 (London time); 'N/A' for none. */
export function formatDateTime(value: Date | string | null | undefined): string {
  return britishDateTime(value, 'N/A');
}

/**
 * A day with its month spelled (03 Apr 1980), only where the digits themselves are in question: the
 * import shows how it reads an ambiguous spreadsheet date (03/04/1980 read as 03 Apr 1980).
 */
export function formatDateSpelled(day: string): string {
  return format(new Date(`${day}T12:00:00`), 'dd MMM yyyy', { locale: enGB });
}

export { britishDate, britishDateTime };

/**
 * What a date field's calendar writes, in the page's language (`lang` is the interface language): the
 * month shown ("March 2027", "März 2027", "2027年3月"), the days of the week from Monday, and each day
 * in full for a screen reader ("Saturday 27 March 2027"). The field itself keeps DD/MM/YYYY.
 */
export function calendarNames(lang: string) {
  const locale = HTML_LANG[isLanguage(lang) ? lang : 'en'];
  const utc = { timeZone: 'UTC' } as const;
  const month = new Intl.DateTimeFormat(locale, { ...utc, month: 'long', year: 'numeric' });
  const short = new Intl.DateTimeFormat(locale, { ...utc, weekday: 'short' });
  const long = new Intl.DateTimeFormat(locale, { ...utc, weekday: 'long' });
  const full = new Intl.DateTimeFormat(locale, { ...utc, dateStyle: 'full' });
  const at = (day: string) => new Date(`${day}T12:00:00Z`);
  // 2024-01-01 was a Monday.
  const weekdays = Array.from({ length: 7 }, (_, i) => {
    const d = new Date(Date.UTC(2024, 0, 1 + i, 12));
    return { short: short.format(d), long: long.format(d) };
  });
  return {
    monthTitle: (day: string) => month.format(at(day)),
    weekdays,
    dayLabel: (day: string) => full.format(at(day)),
  };
}
