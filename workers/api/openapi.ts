import type { Hono } from 'hono';
import type { ZodSchema } from 'zod';
import { zodToJsonSchema, type PostProcessCallback } from 'zod-to-json-schema';
import { isoDate } from '../domain/validation';
import { requireAuth } from './context';
import { IDEMPOTENCY_HEADER, idempotent } from './idempotency';
import generated from './openapi-answers.json';

/**
 * The OpenAPI document, generated from the routes themselves: `valid()` records which schema guards
 * which input, and this walks the app's routes to find them. No path or schema is written twice.
 */
const recorded = new WeakMap<object, { target: string; schema: ZodSchema }>();

export function recordSchema(handler: object, target: string, schema: ZodSchema) {
  recorded.set(handler, { target, schema });
}

/** A day (`isoDate`) is documented as one: `format: date`, YYYY-MM-DD, the only form the API reads. */
const postProcess: PostProcessCallback = (json, def) =>
  json && def === isoDate._def ? ({ ...json, format: 'date' } as typeof json) : json;

/** A success answer: its status, media type (none for an empty answer or a redirect) and schema. */
export interface AnswerShape {
  status: number;
  media: string | null;
  schema?: Record<string, unknown>;
}

/**
 * The answer shapes of the calls, by `METHOD /path` as the route table writes it: generated from the
 * routers' types by scripts/openapi-answers.mjs (`npm run openapi:answers`), shared shapes under
 * `schemas`. The API's two self-descriptions are declared here, as they are not in an area router.
 */
export const ANSWERS: Record<string, Record<string, AnswerShape>> = {
  ...(generated.calls as Record<string, Record<string, AnswerShape>>),
  'GET /openapi.json': {
    200: {
      status: 200,
      media: 'application/json',
      schema: { type: 'object', description: 'This OpenAPI 3.0 document.' },
    },
  },
  'GET /docs': { 200: { status: 200, media: 'text/html', schema: { type: 'string' } } },
};

/** The route table's calls that have no answer shape (a test keeps this empty). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function callsWithoutAnswer(app: Hono<any>): string[] {
  return app.routes
    .filter((r) => r.method !== 'ALL' && r.path.startsWith('/'))
    .map((r) => `${r.method} ${r.path}`)
    .filter((key, i, all) => all.indexOf(key) === i && !ANSWERS[key]);
}

const DESCRIPTIONS: Record<string, string> = {
  '200': 'OK',
  '201': 'Created',
  '202': 'Accepted',
  '204': 'No content',
  '302': 'Redirect',
};

function successResponses(key: string) {
  const answers = ANSWERS[key] ?? {};
  return Object.fromEntries(
    Object.entries(answers).map(([status, a]) => [
      status,
      {
        description: a.media === 'application/octet-stream' ? 'The file' : (DESCRIPTIONS[status] ?? 'OK'),
        ...(a.media ? { content: { [a.media]: { schema: a.schema ?? {} } } } : {}),
      },
    ]),
  );
}

const ERROR = {
  type: 'object',
  properties: {
    message: { type: 'string' },
    errors: {
      type: 'array',
      items: { type: 'object', properties: { key: { type: 'string' }, message: { type: 'string' } } },
    },
  },
};

/** The header of the calls that move money (workers/api/idempotency.ts). */
const IDEMPOTENCY_PARAMETER = {
  name: IDEMPOTENCY_HEADER,
  in: 'header',
  required: false,
  description:
    'A unique key (1 to 255 printable ASCII characters) that makes the request safe to retry: the same key ' +
    'with the same request answers the first answer again (header Idempotent-Replayed: true) and records ' +
    'nothing more; with another request it is refused (409). Kept 24 hours per API key or user.',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function openApiDocument(app: Hono<any>, info: { title: string; version: string }) {
  const paths: Record<string, Record<string, unknown>> = {};
  const idempotentOps: Record<string, unknown>[] = [];
  const guarded = (path: string, method: string) =>
    app.routes.some(
      (r) =>
        r.handler === requireAuth &&
        (r.method === method || r.method === 'ALL') &&
        (r.path === path || (r.path.endsWith('/*') && path.startsWith(r.path.slice(0, -1)))),
    );
  for (const route of app.routes) {
    if (route.method === 'ALL' || !route.path.startsWith('/')) continue;
    const path = route.path.replace(/:(\w+)(\{[^}]*\})?/g, '{$1}');
    const method = route.method.toLowerCase();
    const op = ((paths[`/api${path}`] ??= {})[method] ??= {
      responses: {
        ...successResponses(`${route.method} ${route.path}`),
        '401': { description: 'Unauthenticated', content: { 'application/json': { schema: ERROR } } },
        '422': { description: 'Invalid input', content: { 'application/json': { schema: ERROR } } },
      },
      security: guarded(route.path, route.method) ? [{ bearer: [] }] : [],
    }) as Record<string, unknown>;
    const params = [...route.path.matchAll(/:(\w+)/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    if (params.length) op.parameters = params;
    if (route.handler === idempotent) {
      idempotentOps.push(op);
      continue;
    }
    const entry = recorded.get(route.handler);
    if (!entry) continue;
    const schema = zodToJsonSchema(entry.schema, { target: 'openApi3', $refStrategy: 'none', postProcess });
    if (entry.target === 'json')
      op.requestBody = { required: true, content: { 'application/json': { schema } } };
    if (entry.target === 'query') {
      const props = (schema as { properties?: Record<string, unknown> }).properties ?? {};
      op.parameters = [
        ...params,
        ...Object.entries(props).map(([name, s]) => ({ name, in: 'query', schema: s })),
      ];
    }
  }
  // After the walk: a call's later handlers set its parameters again.
  for (const op of idempotentOps) {
    op.parameters = [...((op.parameters as unknown[]) ?? []), IDEMPOTENCY_PARAMETER];
    (op.responses as Record<string, unknown>)['409'] = {
      description:
        'The Idempotency-Key was used with another request, or its first request is still being processed',
      content: { 'application/json': { schema: ERROR } },
    };
  }
  return {
    openapi: '3.0.3',
    info,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: generated.schemas,
    },
    paths,
  };
}
