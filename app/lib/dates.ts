import { format } from 'date-fns';
import { de, enGB, es, fr, it, pt, zhCN, zhHK } from 'date-fns/locale';

/** date-fns locale for relative times in each interface language. Dates themselves are shown en-GB. */
export function dateLocale(lang: string) {
  return { de, es, fr, it, pt, cn: zhCN, ca: zhHK }[lang] ?? enGB;
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
export { britishDate } from '@server/domain/validation';
