/**
 * The one way the API reads a request body. Each operation declares what it takes (JSON, multipart, both,
 * or nothing) through the middleware that reads it (`valid('json' | 'form')`, `accepts(...)`); a body of
 * any other kind is refused before the handler runs, so a malformed request never reaches a service:
 *
 * - not the declared kind (XML, text/plain, form-urlencoded, a body to an operation that takes none): 415;
 * - the declared kind but unreadable (JSON that does not parse or nests too deep, an empty body sent as
 *   JSON, multipart without a boundary or cut off): 400.
 *
 * Both answer the API's error envelope with one error under the key `body`. A readable body none of whose
 * fields the operation knows (an operation that takes no body knows none; `{}` is no body) is a 422 naming
 * each field, never read as "nothing to change".
 */
import type { Context, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import { z } from 'zod';
import { ValidationFailed } from '../domain/errors';
import { msg } from '../domain/validation';

export type BodyKind = 'json' | 'multipart';

/** Deeper JSON than this is refused before it is parsed (a 5000-deep body would overflow the stack). */
export const MAX_JSON_DEPTH = 32;

const BODY_KEY = 'body';
/** The schema of an operation that takes no body. */
const NO_FIELDS = z.object({});

/** A request body the operation cannot take (415) or cannot read (400). Mapped in errors.ts. */
export class BodyRefused extends Error {
  readonly key = BODY_KEY;
  constructor(
    readonly status: 400 | 415,
    message: string,
  ) {
    super(message);
  }
}

const KIND_MESSAGES: Record<string, string> = {
  json: 'errors.body.json',
  multipart: 'errors.body.multipart',
  'json,multipart': 'errors.body.json_or_multipart',
  '': 'errors.body.none',
};
const malformed = () => new BodyRefused(400, msg('errors.body.malformed'));
const wrongKind = (kinds: readonly BodyKind[]) =>
  new BodyRefused(415, KIND_MESSAGES[[...kinds].sort().join(',')]);

const JSON_TYPE = /^application\/([\w.-]+\+)?json$/i;

function mediaType(c: Context): string {
  return (c.req.header('content-type') ?? '').split(';')[0].trim().toLowerCase();
}

/** The kind of body the request says it carries, `null` for none, `'other'` for anything else. */
function sentKind(c: Context): BodyKind | 'other' | null {
  const type = mediaType(c);
  if (!type) return null;
  if (JSON_TYPE.test(type)) return 'json';
  if (type === 'multipart/form-data') return 'multipart';
  return 'other';
}

/** True when a request without a content type still carries bytes. */
async function carriesBytes(c: Context): Promise<boolean> {
  if (c.req.raw.body === null) return false;
  return (await c.req.arrayBuffer()).byteLength > 0;
}

/** Whether JSON text nests arrays and objects deeper than `max`, found without parsing it. */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c) i++;
      else if (ch === 0x22) inString = false;
    } else if (ch === 0x22) inString = true;
    else if (ch === 0x7b || ch === 0x5b) {
      if (++depth > max) return true;
    } else if (ch === 0x7d || ch === 0x5d) depth--;
  }
  return false;
}

const parsedJson = new WeakMap<Request, unknown>();

/**
 * The JSON body: `undefined` when the request carries none (the schema then decides whether the body is
 * required), 415 when it is not JSON, 400 when it does not parse or nests deeper than MAX_JSON_DEPTH.
 */
export async function readJson(c: Context): Promise<unknown> {
  if (parsedJson.has(c.req.raw)) return parsedJson.get(c.req.raw);
  const kind = sentKind(c);
  if (kind === null) {
    if (await carriesBytes(c)) throw wrongKind(['json']);
    return undefined;
  }
  if (kind !== 'json') throw wrongKind(['json']);
  const text = await c.req.text().catch(() => {
    throw malformed();
  });
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) throw new BodyRefused(400, msg('errors.body.too_deep'));
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw malformed();
  }
  parsedJson.set(c.req.raw, value);
  return value;
}

/** The multipart body: 415 unless the request is multipart/form-data, 400 without a boundary or cut off. */
export async function readMultipart(c: Context): Promise<FormData> {
  if (sentKind(c) !== 'multipart') throw wrongKind(['multipart']);
  if (!/;\s*boundary=("?)[^";]+\1/i.test(c.req.header('content-type') ?? '')) throw malformed();
  return c.req.formData().catch(() => {
    throw malformed();
  });
}

/** A body that may be JSON or multipart (operations that also take files). */
export async function readJsonOrMultipart(
  c: Context,
): Promise<{ kind: 'json'; value: unknown } | { kind: 'multipart'; form: FormData }> {
  const kind = sentKind(c);
  if (kind === 'multipart') return { kind, form: await readMultipart(c) };
  if (kind === 'other') throw wrongKind(['json', 'multipart']);
  return { kind: 'json', value: await readJson(c) };
}

/** A multipart form as an object, as Hono's form validator builds it: repeated and `[]` names as arrays. */
export function formObject(form: FormData): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null);
  form.forEach((value, key) => {
    const current = out[key];
    if (key.endsWith('[]')) ((out[key] ??= []) as unknown[]).push(value);
    else if (Array.isArray(current)) current.push(value);
    else if (Object.hasOwn(out, key)) out[key] = [current, value];
    else out[key] = value;
  });
  return out;
}

// ------------------------------------------------------------------ declarations

const declared = new WeakMap<object, readonly BodyKind[]>();

/** Marks a middleware as the reader of its operation's body, of these kinds. */
export function declareBody<H extends object>(handler: H, kinds: readonly BodyKind[]): H {
  declared.set(handler, kinds);
  return handler;
}

/**
 * For operations whose handler reads the body itself: refuses a body of another kind (or an unreadable
 * one) before the handler runs. The handler then reads it with readMultipart / readJsonOrMultipart.
 */
export function accepts(...kinds: BodyKind[]): MiddlewareHandler {
  return declareBody(async (c, next) => {
    if (kinds.includes('json') && kinds.includes('multipart')) await readJsonOrMultipart(c);
    else if (kinds.includes('multipart')) await readMultipart(c);
    else await readJson(c);
    await next();
  }, kinds);
}

/** Hono marks a sub-app's handler wrapped in its error handler with this (hono/utils/constants). */
const COMPOSED_HANDLER = '__COMPOSED_HANDLER';
const unwrap = (h: object): object => (h as Record<string, object>)[COMPOSED_HANDLER] ?? h;

/**
 * An operation that declares no body takes none: a JSON body must be an empty object `{}` (what many
 * clients send with every POST), anything else is refused like a body with fields the operation does not
 * know (422), cannot be read (400) or is of another kind (415). Unknown paths pass on to their 404.
 * Runs before every API operation.
 */
export const refuseUndeclaredBody: MiddlewareHandler = async (c, next) => {
  const method = c.req.method;
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return next();
  const operations = matchedRoutes(c).filter((r) => r.method !== 'ALL');
  if (!operations.length) return next();
  if (operations.some((r) => declared.has(unwrap(r.handler)))) return next();
  const kind = sentKind(c);
  if (kind === 'json') {
    const value = await readJson(c);
    if (!value || typeof value !== 'object' || Array.isArray(value))
      throw new ValidationFailed([{ key: BODY_KEY, message: msg('errors.body.none') }]);
    refuseUnknownFields(NO_FIELDS, value);
  } else if (kind !== null || (await carriesBytes(c))) throw wrongKind([]);
  return next();
};

// ------------------------------------------------------------------ fields

type ZodNode = { _def?: Record<string, unknown> & { typeName?: string }; shape?: Record<string, unknown> };

/**
 * The top-level field names a body schema knows, or `null` when it takes any (not an object, or an
 * object that passes unknown keys through).
 */
export function knownFields(schema: unknown): Set<string> | null {
  const node = schema as ZodNode;
  const def = node?._def;
  switch (def?.typeName) {
    case 'ZodObject': {
      const catchall = (def.catchall as ZodNode | undefined)?._def?.typeName;
      if (def.unknownKeys === 'passthrough' || (catchall && catchall !== 'ZodNever')) return null;
      return new Set(Object.keys((def.shape as () => Record<string, unknown>)()));
    }
    case 'ZodEffects':
      return knownFields(def.schema);
    case 'ZodDefault':
    case 'ZodOptional':
    case 'ZodNullable':
    case 'ZodCatch':
    case 'ZodReadonly':
      return knownFields(def.innerType);
    case 'ZodBranded':
      return knownFields(def.type);
    case 'ZodPipeline':
      return knownFields(def.in);
    case 'ZodLazy':
      return knownFields((def.getter as () => unknown)());
    case 'ZodIntersection':
      return union([knownFields(def.left), knownFields(def.right)]);
    case 'ZodUnion':
    case 'ZodDiscriminatedUnion':
      return union((def.options as unknown[]).map(knownFields));
    default:
      return null;
  }
}

function union(sets: (Set<string> | null)[]): Set<string> | null {
  if (sets.some((s) => s === null)) return null;
  return new Set(sets.flatMap((s) => [...(s as Set<string>)]));
}

const topName = (name: string) => name.replace(/\[\]$/, '').split(/[.[]/)[0];

/** Names of a JSON object body or a multipart form (nothing for other JSON values: the schema refuses them). */
export function bodyFieldNames(body: unknown): string[] {
  if (body instanceof FormData) return [...new Set(body.keys())];
  if (body && typeof body === 'object' && !Array.isArray(body)) return Object.keys(body);
  return [];
}

/**
 * Refuses (422, one error per field) a JSON object or multipart body none of whose fields the operation
 * knows: such a body is a wrong one, not an empty one, and is never read as "nothing to change". Extra
 * fields beside known ones are left out by the schema as before (clients send back what they read).
 * A multipart name `a.b` or `a[0]` counts as `a`; `files` are the file fields the operation reads
 * besides its schema's.
 */
export function refuseUnknownFields(schema: unknown, body: unknown, files: readonly string[] = []): void {
  const known = knownFields(schema);
  if (!known) return;
  const names = bodyFieldNames(body);
  if (!names.length || names.some((n) => known.has(topName(n)) || files.includes(topName(n)))) return;
  throw new ValidationFailed(names.map((key) => ({ key, message: msg('validation.unknown_field') })));
}

/** For a multipart body read without a schema: refuses a form carrying none of `names`. */
export function refuseFieldsOtherThan(form: FormData, names: readonly string[]): void {
  refuseUnknownFields(NO_FIELDS, form, names);
}
