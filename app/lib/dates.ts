import { format, type Locale } from 'date-fns';
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
 * en-GB, already here for dates). Dates themselves are shown en-GB.
 */
export async function loadDateLocale(lang: string): Promise<Locale> {
  return (await LOCALES[lang]?.()) ?? enGB;
}

/** Dates are displayed in the British English locale (spec 000 s.1): 21 Nov 2026. */
export function formatDate(value: Date | string | null | undefined): string {
  if (!value) return 'N/A';
  const d = typeof value === 'string' ? new Date(value) : value;
  return format(d, 'dd MMM yyyy', { locale: enGB });
}

export function formatDateTime(value: Date | string | null | undefined): string {
  if (!value) return 'N/A';
  const d = typeof value === 'string' ? new Date(value) : value;
  return format(d, 'dd MMM yyyy, HH:mm', { locale: enGB });
}

/** DD/MM/YYYY from YYYY-MM-DD: the one rule, shared with the server's messages. */
export { britishDate } from '@server/domain/formats';
