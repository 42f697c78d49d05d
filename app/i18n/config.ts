import type { ThirdPartyModule } from 'i18next';

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

/**
 * The plural rules a language follows are those of its BCP 47 locale (HTML_LANG): "ca" and "cn" are
 * Chinese, whose only category is `other`. i18next would read the code itself: "ca" as Catalan (one,
 * many, other) and "cn" as no language at all (English's one/other), so a count of 1 would look for a
 * `_one` text Chinese does not have and fall back to English. One cache of rules for both doors: the
 * pages (this plugin, on every i18next instance) and the server's own `translate` (workers/platform/i18n.ts).
 */
const pluralRulesCache = new Map<string, Intl.PluralRules>();
export function pluralRules(lang: string): Intl.PluralRules {
  const locale = isLanguage(lang) ? HTML_LANG[lang] : lang;
  let rules = pluralRulesCache.get(locale);
  if (!rules) pluralRulesCache.set(locale, (rules = new Intl.PluralRules(locale)));
  return rules;
}

/** An i18next plugin: counted texts (`key_one`, `key_other`...) chosen by `pluralRules`. */
export const pluralRulesPlugin: ThirdPartyModule = {
  type: '3rdParty',
  init(instance) {
    const resolver = instance.services.pluralResolver;
    const ownRule = resolver.getRule.bind(resolver);
    resolver.getRule = (code: string, options: { ordinal?: boolean } = {}) =>
      isLanguage(code) && !options.ordinal ? pluralRules(code) : ownRule(code, options);
  },
};

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
