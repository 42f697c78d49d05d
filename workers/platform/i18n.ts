import { localeResources } from '../../app/locales';
import { parseMessage } from '../domain/validation';
import { LANGUAGES } from '../../drizzle/enums';

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
 * Translates a key outside React (emails, API messages), with {{name}} interpolation like i18next.
 * A missing key falls back to English, then to the key itself.
 */
export function translate(lang: string, key: string, params: Record<string, string | number> = {}): string {
  const language = isLanguage(lang) ? lang : DEFAULT_LANGUAGE;
  const text = lookup(resources[language], key) ?? lookup(resources.en, key) ?? key;
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name) =>
    name in params ? String(params[name]) : `{{${name}}}`,
  );
}

/** Renders a domain message (a key, maybe with parameters) as text; the API uses English. */
export function formatMessage(message: string, lang: string = DEFAULT_LANGUAGE): string {
  const { key, params } = parseMessage(message);
  return translate(lang, key, params);
}
