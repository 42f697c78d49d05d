import type { Hono } from 'hono';
import type { ZodSchema } from 'zod';
import { zodToJsonSchema } from 'zod-to-json-schema';
import { requireAuth } from './context';

/**
 * The OpenAPI document, generated from the routes themselves: `valid()` records which schema guards
 * which input, and this walks the app's routes to find them. No path or schema is written twice.
 */
const recorded = new WeakMap<object, { target: string; schema: ZodSchema }>();

export function recordSchema(handler: object, target: string, schema: ZodSchema) {
  recorded.set(handler, { target, schema });
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

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function openApiDocument(app: Hono<any>, info: { title: string; version: string }) {
  const paths: Record<string, Record<string, unknown>> = {};
  const guarded = (path: string, method: string) =>
    app.routes.some(
      (r) =>
        r.handler === requireAuth &&
        (r.method === method || r.method === 'ALL') &&
        (r.path === path || (r.path.endsWith('/*') && path.startsWith(r.path.slice(0, -1)))),
    );
  for (const route of app.routes) {
    if (route.method === 'ALL' || !route.path.startsWith('/')) continue;
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    const method = route.method.toLowerCase();
    const op = ((paths[`/api${path}`] ??= {})[method] ??= {
      responses: {
        '200': { description: 'OK: { data, message? }' },
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
    const entry = recorded.get(route.handler);
    if (!entry) continue;
    const schema = zodToJsonSchema(entry.schema, { target: 'openApi3', $refStrategy: 'none' });
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
  return {
    openapi: '3.0.3',
    info,
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    paths,
  };
}
