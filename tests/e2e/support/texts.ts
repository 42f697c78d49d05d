/**
 * No translation key on screen, ever: every page the browser tests visit is read for text a person
 * should never see, and a find fails the test, as axe's findings do (axe.ts), from the same two hooks:
 * `hydrated()` (browser.ts) checks at once and throws, and `watchTexts()` (called by `newPage()`) checks
 * every document that loads once it has hydrated and keeps what it finds for the setup file
 * (accessibility-setup.ts) to throw after the test.
 *
 * What is looked for, in the visible text and in the texts a person reads on controls (placeholder,
 * aria-label, title, alt, a button's value):
 * - a raw key: a dotted token whose first part is a namespace of the interface texts (a file of
 *   app/locales/en), such as `roles.verbs.read_monthly_policy` or `invoices.status.part_paid`, which is
 *   what i18next prints for a key it lacks. An address or a file name is not a key: a token touching `@`,
 *   `/` or `:` (an e-mail address, a URL) or ending in a top-level domain or a file extension is left alone;
 * - a placeholder left unfilled: `{{name}}`.
 * Unlike axe, the check runs on every visit: texts are data, and one page's state says nothing of another's.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { inject } from 'vitest';
import { isHydrated } from './ready';

let namespaces: string[] | null = null;

/** The top-level namespaces of the interface texts: the files of app/locales/en. */
function localeNamespaces(): string[] {
  namespaces ??= readdirSync(join(inject('appDir'), 'app', 'locales', 'en'))
    .filter((name) => name.endsWith('.json'))
    .map((name) => name.slice(0, -'.json'.length));
  return namespaces;
}

/** Last parts that make a dotted token an address or a file name rather than a key. */
const NOT_KEY_ENDINGS = [
  'com',
  'org',
  'net',
  'io',
  'uk',
  'ie',
  'eu',
  'de',
  'fr',
  'es',
  'it',
  'pt',
  'cn',
  'test',
  'example',
  'local',
  'localhost',
  'pdf',
  'csv',
  'xlsx',
  'xls',
  'zip',
  'json',
  'xml',
  'png',
  'jpg',
  'jpeg',
  'txt',
];

/** Reads the page's texts, in the page: visible text and the texts controls show or announce. */
function readTexts(): string[] {
  if (!document.body) return [];
  const texts = [document.body.innerText];
  for (const el of Array.from(
    document.querySelectorAll('[placeholder], [aria-label], [title], [alt], input[value]'),
  )) {
    if (el.closest('[hidden], template, script, style')) continue;
    for (const name of ['placeholder', 'aria-label', 'title', 'alt']) {
      const value = el.getAttribute(name);
      if (value) texts.push(value);
    }
    if (el instanceof HTMLInputElement && /^(submit|button|reset)$/.test(el.type)) texts.push(el.value);
  }
  return texts;
}

/** The raw keys and unfilled placeholders in `texts`, each once. */
export function findRawTexts(texts: string[], keyNamespaces: string[]): string[] {
  const key = new RegExp(
    `(?<![\\w@/:.-])(?:${keyNamespaces.join('|')})(?:\\.[A-Za-z0-9_]+)+(?![\\w@/:-]|\\.\\w)`,
    'g',
  );
  const found = new Set<string>();
  for (const text of texts) {
    for (const [match] of text.matchAll(key)) {
      const last = match.slice(match.lastIndexOf('.') + 1);
      if (!NOT_KEY_ENDINGS.includes(last)) found.add(match);
    }
    for (const [match] of text.matchAll(/\{\{\s*[\w.]+\s*\}\}/g)) found.add(match);
  }
  return [...found];
}

/** A readable report of what one page shows that it should not. */
function report(url: string, found: string[]): string {
  return `Untranslated text on ${url}: ${found.join(', ')}`;
}

function isGone(e: unknown): boolean {
  return /Target .*closed|Execution context was destroyed|navigat|Frame was detached|has been closed/i.test(
    String(e),
  );
}

/** What the page shows now that no person should see, or null. */
async function check(page: Page): Promise<string | null> {
  try {
    const found = findRawTexts(await page.evaluate(readTexts), localeNamespaces());
    return found.length ? report(page.url(), found) : null;
  } catch (e) {
    if (isGone(e)) return null;
    throw e;
  }
}

/** Checks the page as it is now; throws when it shows a raw key or an unfilled placeholder. */
export async function expectTranslated(page: Page): Promise<void> {
  const failure = await check(page);
  if (failure) throw new Error(failure);
}

const pending = new Set<Promise<void>>();
const failures: string[] = [];

/** Checks every document the page loads once it has hydrated (see takeTextFailures()). */
export function watchTexts(page: Page): void {
  page.on('load', () => {
    if (!/^https?:/.test(page.url())) return;
    const task = (async () => {
      try {
        await page.waitForFunction(isHydrated, undefined, { timeout: 15_000 });
        const failure = await check(page);
        if (failure) failures.push(failure);
      } catch (e) {
        if (!isGone(e) && !/Timeout/i.test(String(e))) failures.push(`Texts of ${page.url()}: ${String(e)}`);
      }
    })();
    pending.add(task);
    void task.finally(() => pending.delete(task));
  });
}

/** Waits for the background checks and returns (and forgets) what they found, or null. */
export async function takeTextFailures(): Promise<string | null> {
  while (pending.size) await Promise.allSettled([...pending]);
  if (!failures.length) return null;
  const found = [...new Set(failures)].join('\n');
  failures.length = 0;
  return found;
}
