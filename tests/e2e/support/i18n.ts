/**
 * The interface texts, read from app/locales of the code the Workers run (global-setup.ts), so the
 * tests find buttons and labels by what the page says without copying copy that may still change.
 * `t('auth.sign_in')`, `t('shell.language', 'de')`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';

const cache = new Map<string, Record<string, unknown>>();

function area(lang: string, name: string): Record<string, unknown> {
  const key = `${lang}/${name}`;
  let data = cache.get(key);
  if (!data) {
    data = JSON.parse(readFileSync(join(inject('appDir'), 'app', 'locales', lang, `${name}.json`), 'utf8'));
    cache.set(key, data!);
  }
  return data!;
}

export function t(key: string, lang = 'en', params: Record<string, string | number> = {}): string {
  const [name, ...path] = key.split('.');
  let value: unknown = area(lang, name);
  for (const part of path) value = (value as Record<string, unknown> | undefined)?.[part];
  if (typeof value !== 'string') throw new Error(`No text ${key} in app/locales/${lang}`);
  return value.replace(/\{\{(\w+)\}\}/g, (_, p: string) => String(params[p] ?? `{{${p}}}`));
}
