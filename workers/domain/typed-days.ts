/**
 * The forms' reading of typed days. A person types a day as the pages write it, DD/MM/YYYY; the schemas
 * (shared with the JSON API, whose days are YYYY-MM-DD only) check the stored form. Before a form or a
 * list's address is parsed, the value of every field whose schema is a day (`isoDate`, however wrapped:
 * optional, preprocessed, piped, in an array of rows) is read with `readDay`. A value that is not a day
 * stays as typed, so the schema's message names it and the form shows it back as it was.
 *
 * The fields are found by walking the schema itself, so a new date field of any form is read without a
 * list to keep. Used by the form actions (app/lib/actions.server.ts), the forms' checks in the browser
 * (app/lib/schema-form.ts) and the lists' address (app/lib/lists.server.ts).
 */
import type { ZodTypeAny } from 'zod';
import { readDay } from './formats';
import { isoDate } from './validation';

interface Def {
  typeName?: string;
  [key: string]: unknown;
}

const paths = new WeakMap<ZodTypeAny, ReadonlySet<string>>();

/**
 * The names of a schema's day fields, as a form names them with the row numbers left out:
 * `start_date`, `rows[].start_date`, `links[].date`.
 */
export function dayFieldsOf(schema: ZodTypeAny): ReadonlySet<string> {
  let found = paths.get(schema);
  if (!found) {
    const out = new Set<string>();
    walk(schema, '', out, new Set());
    found = out;
    paths.set(schema, found);
  }
  return found;
}

function walk(schema: ZodTypeAny, path: string, out: Set<string>, seen: Set<ZodTypeAny>): void {
  if (schema === isoDate) {
    out.add(path);
    return;
  }
  // `seen` holds the schemas being walked, against a lazy schema that holds itself; the same schema
  // may well sit under several names (one `requiredDate` for three fields).
  if (seen.has(schema)) return;
  seen.add(schema);
  try {
    walkInside(schema, path, out, seen);
  } finally {
    seen.delete(schema);
  }
}

function walkInside(schema: ZodTypeAny, path: string, out: Set<string>, seen: Set<ZodTypeAny>): void {
  const def = schema._def as Def;
  const next = (s: unknown, p = path) => {
    if (s && typeof s === 'object' && '_def' in s) walk(s as ZodTypeAny, p, out, seen);
  };
  switch (def.typeName) {
    case 'ZodObject': {
      const shape = (def.shape as () => Record<string, ZodTypeAny>)();
      for (const [key, value] of Object.entries(shape)) next(value, path ? `${path}.${key}` : key);
      return;
    }
    case 'ZodArray':
      return next(def.type, `${path}[]`);
    case 'ZodEffects':
      return next(def.schema);
    case 'ZodPipeline':
      next(def.in);
      return next(def.out);
    case 'ZodUnion':
    case 'ZodDiscriminatedUnion':
      for (const option of def.options as Iterable<unknown>) next(option);
      return;
    case 'ZodIntersection':
      next(def.left);
      return next(def.right);
    case 'ZodLazy':
      return next((def.getter as () => unknown)());
    case 'ZodBranded':
      return next(def.type);
    default:
      // Optional, nullable, default, catch, readonly: one inner schema.
      return next(def.innerType);
  }
}

/** A field's name as its schema path: row numbers left out (`rows[2].end_date` → `rows[].end_date`). */
const pathOf = (name: string) => name.replace(/\[\d+\]/g, '[]');

/** A form's fields with each typed day read as YYYY-MM-DD (a copy; files and other fields as they are). */
export function readTypedDays(formData: FormData, schema: ZodTypeAny): FormData {
  const days = dayFieldsOf(schema);
  if (!days.size) return formData;
  const out = new FormData();
  for (const [name, value] of formData)
    out.append(name, typeof value === 'string' && days.has(pathOf(name)) ? (readDay(value) ?? value) : value);
  return out;
}

/** The same for a list's address parameters (the filters bar's days). */
export function readTypedDaysOf(query: Record<string, string>, schema: ZodTypeAny): Record<string, string> {
  const days = dayFieldsOf(schema);
  if (!days.size) return query;
  return Object.fromEntries(
    Object.entries(query).map(([name, value]) => [
      name,
      days.has(pathOf(name)) ? (readDay(value) ?? value) : value,
    ]),
  );
}
