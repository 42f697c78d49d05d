/** i18next settings shared by server and browser. English has no path prefix; the others do. */
export const LANGUAGES = ['en', 'ca', 'cn', 'de', 'es', 'fr', 'it', 'pt'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

/** What each language is called in itself, for the switcher. "ca" is Cantonese and "cn" Mandarin (spec 000 s.1). */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  ca: '廣東話',
  cn: '普通话',
  de: 'Deutsch',
  es: 'Español',
  fr: 'Français',
  it: 'Italiano',
  pt: 'Português',
};

/** The HTML lang attribute of each interface language. */
export const HTML_LANG: Record<Language, string> = {
  en: 'en-GB',
  ca: 'zh-HK',
  cn: 'zh-CN',
  de: 'de',
  es: 'es',
  fr: 'fr',
  it: 'it',
  pt: 'pt',
};

export function isLanguage(value: string | null | undefined): value is Language {
  return !!value && (LANGUAGES as readonly string[]).includes(value);
}

export const i18nConfig = {
  supportedLngs: [...LANGUAGES],
  fallbackLng: DEFAULT_LANGUAGE,
  defaultNS: 'translation',
  interpolation: { escapeValue: false },
  react: { useSuspense: false },
};

/** `/de/clients` for German, `/clients` for English. */
export function localePath(lang: string, path: string): string {
  const clean = path.startsWith('/') ? path : `/${path}`;
  if (!isLanguage(lang) || lang === DEFAULT_LANGUAGE) return clean;
  return clean === '/' ? `/${lang}` : `/${lang}${clean}`;
}

/** Splits a pathname into its language and the path without the prefix. */
export function splitLocale(pathname: string): { lang: Language; path: string } {
  const [, first, ...rest] = pathname.split('/');
  if (isLanguage(first) && first !== DEFAULT_LANGUAGE) return { lang: first, path: `/${rest.join('/')}` };
  return { lang: DEFAULT_LANGUAGE, path: pathname || '/' };
}
