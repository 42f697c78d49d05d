import { format, type Locale } from 'date-fns';
import { britishDate, britishDateTime } from '@server/domain/formats';
import { enGB } from 'date-fns/locale/en-GB';

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
