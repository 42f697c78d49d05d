import { parseMessage } from '../domain/validation';
import { LANGUAGES } from '../../drizzle/enums';
import { pluralRules } from '../../app/i18n/config';

/** Every interface language; English is the default and has no path prefix. */
export { LANGUAGES };
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

export type Tree = { [key: string]: string | Tree };

export function isLanguage(value: string | null | undefined): value is Language {
  return !!value && (LANGUAGES as readonly string[]).includes(value);
}

/*
 * The server's translations are static assets (public/locales/<lang>.json, written by
 * scripts/locales-index.mjs), read through the ASSETS binding the first time an isolate needs a
 * language and kept for the isolate's life. They are not in the Worker's JavaScript, which a cold start
 * parses whole: eight languages were 1.5 MB of it.
 *
 * Reading them is asynchronous and translating is not, so whoever translates loads first: the Worker's
 * doors name the static assets (`readTranslationsFrom`) and load English and the request's language
 * (workers/http.ts) or every language (jobs and cron tasks, which write for many recipients), and a
 * service that writes in someone else's language (an email in the recipient's, a document in its own)
 * awaits `loadLanguages` for it. Translating into a language not loaded is a programming error and throws.
 */
const loaded = new Map<Language, Tree>();
const loading = new Map<Language, Promise<void>>();
let assets: Fetcher | undefined;

/** Where translations are read: the Worker's ASSETS binding (the same for every request of an isolate). */
export function readTranslationsFrom(binding: Fetcher | undefined): void {
  if (binding) assets = binding;
}

async function fetchLanguage(lang: Language): Promise<void> {
  if (!assets) throw new Error('The ASSETS binding is missing: translations cannot be read.');
  const response = await assets.fetch(`https://assets.local/locales/${lang}.json`);
  if (!response.ok) throw new Error(`Translations of "${lang}": ${response.status} ${response.statusText}`);
  loaded.set(lang, (await response.json()) as Tree);
}

/**
 * Loads these languages' translations and English's (the fallback of a missing text), once per isolate;
 * an unknown code stands for English.
 */
export async function loadLanguages(langs: readonly (string | null | undefined)[]): Promise<void> {
  const wanted = new Set<Language>([
    DEFAULT_LANGUAGE,
    ...langs.map((l) => (isLanguage(l) ? l : DEFAULT_LANGUAGE)),
  ]);
  await Promise.all(
    [...wanted].map((lang) => {
      if (loaded.has(lang)) return undefined;
      let pending = loading.get(lang);
      if (!pending) {
        pending = fetchLanguage(lang).finally(() => loading.delete(lang));
        loading.set(lang, pending);
      }
      return pending;
    }),
  );
}

/** Loads every language (the doors of background work, which writes for many recipients at once). */
export function loadAllLanguages(): Promise<void> {
  return loadLanguages(LANGUAGES);
}

/** Forgets what was loaded, so that a test sees what a fresh isolate would. */
export function forgetLanguages(): void {
  loaded.clear();
}

/** A loaded language's whole tree (the pages' i18next reads it); throws when it is not loaded. */
export function translationsOf(lang: string): Tree {
  const language = isLanguage(lang) ? lang : DEFAULT_LANGUAGE;
  const tree = loaded.get(language);
  if (!tree)
    throw new Error(
      `The translations of "${language}" are not loaded: await loadLanguages(["${language}"]) first.`,
    );
  return tree;
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
  const tree = translationsOf(language);
  if (typeof count === 'number') {
    const counted = lookup(tree, `${key}_${pluralRules(language).select(count)}`);
    if (counted !== undefined) return counted;
  }
  return lookup(tree, key);
}

/**
 * Translates a key outside React (emails, PDFs, spreadsheets, API messages), with {{name}}
 * interpolation and counted texts (`count`) like i18next. A missing key falls back to English, then to
 * the key itself. The language and English must be loaded (`loadLanguages`).
 */
export function translate(lang: string, key: string, params: Record<string, string | number> = {}): string {
  const language = isLanguage(lang) ? lang : DEFAULT_LANGUAGE;
  const text = textOf(language, key, params.count) ?? textOf(DEFAULT_LANGUAGE, key, params.count) ?? key;
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name) =>
    name in params ? String(params[name]) : `{{${name}}}`,
  );
}

/** Renders a domain message (a key, maybe with parameters) as text, in English unless told. */
export function formatMessage(message: string, lang: string = DEFAULT_LANGUAGE): string {
  const { key, params } = parseMessage(message);
  return translate(lang, key, params);
}

/** Language tags of other spellings that name one of ours (Chinese is `cn` here). */
const TAG_ALIASES: Record<string, Language> = { zh: 'cn' };

/**
 * The language an `Accept-Language` header asks for: its preferences by weight (`q`), the first one
 * that names (by its primary subtag) one of our languages; English when none does or there is no header.
 */
export function preferredLanguage(acceptLanguage: string | null | undefined): Language {
  if (!acceptLanguage) return DEFAULT_LANGUAGE;
  const ranked = acceptLanguage
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q\s*=\s*([\d.]+)\s*$/i.exec(p)).find(Boolean);
      return { tag: tag.trim().toLowerCase(), q: q ? Number(q[1]) : 1, index };
    })
    .filter((p) => p.tag && p.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of ranked) {
    const primary = tag.split('-')[0];
    if (isLanguage(primary)) return primary;
    if (TAG_ALIASES[primary]) return TAG_ALIASES[primary];
  }
  return DEFAULT_LANGUAGE;
}
