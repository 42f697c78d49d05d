import { localeResources } from '../../app/locales';
import { parseMessage } from '../domain/validation';
import { LANGUAGES } from '../../drizzle/enums';
import { pluralRules } from '../../app/i18n/config';

/** Every interface language; English is the default and has no path prefix. */
export { LANGUAGES };
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

type Tree = { [key: string]: string | Tree };
export const resources: Record<Language, Tree> = localeResources;

export function isLanguage(value: string | null | undefined): value is Language {
  return !!value && (LANGUAGES as readonly string[]).includes(value);
}

function lookup(tree: Tree, key: string): string | undefined {
  let node: string | Tree | undefined = tree;
  for (const part of key.split('.')) {
    if (!node || typeof node === 'string') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/**
 * A text of one language: with a numeric `count`, first its plural form as i18next picks it
 * (`key_one`, `key_few`, `key_other`... by the language's plural rules), then the key itself.
 */
function textOf(language: Language, key: string, count: unknown): string | undefined {
  if (typeof count === 'number') {
    const counted = lookup(resources[language], `${key}_${pluralRules(language).select(count)}`);
    if (counted !== undefined) return counted;
  }
  return lookup(resources[language], key);
}

/**
 * Translates a key outside React (emails, PDFs, spreadsheets, API messages), with {{name}}
 * interpolation and counted texts (`count`) like i18next. A missing key falls back to English, then to
 * the key itself.
 */
export function translate(lang: string, key: string, params: Record<string, string | number> = {}): string {
  const language = isLanguage(lang) ? lang : DEFAULT_LANGUAGE;
  const text = textOf(language, key, params.count) ?? textOf(DEFAULT_LANGUAGE, key, params.count) ?? key;
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name) =>
    name in params ? String(params[name]) : `{{${name}}}`,
  );
}

/** Renders a domain message (a key, maybe with parameters) as text; the API uses English. */
export function formatMessage(message: string, lang: string = DEFAULT_LANGUAGE): string {
  const { key, params } = parseMessage(message);
  return translate(lang, key, params);
}
