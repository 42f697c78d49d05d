/**
 * The interface texts, read from app/locales of the code the Workers run (global-setup.ts), so the
 * tests find buttons and labels by what the page says without copying copy that may still change.
 * `t('auth.sign_in')`, `t('shell.language', 'de')`. A numeric `count` picks the counted text's form
 * as the pages do (`t('invoices.summary.invoices_hint', 'fr', { count: 1 })` is `invoices_hint_one`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import { pluralRules } from '../../../app/i18n/config';

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
  for (const part of path.slice(0, -1)) value = (value as Record<string, unknown> | undefined)?.[part];
  const parent = value as Record<string, unknown> | undefined;
  const last = path[path.length - 1];
  const form = typeof params.count === 'number' ? `${last}_${pluralRules(lang).select(params.count)}` : null;
  value = (form !== null ? parent?.[form] : undefined) ?? parent?.[last];
  if (typeof value !== 'string') throw new Error(`No text ${key} in app/locales/${lang}`);
  return value.replace(/\{\{(\w+)\}\}/g, (_, p: string) => String(params[p] ?? `{{${p}}}`));
}
