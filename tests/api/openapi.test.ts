/**
 * The OpenAPI document (/api/openapi.json) and its page (/api/docs): every call of the route table has
 * its answer shape (generated from the routers' types by scripts/openapi-answers.mjs), and real answers
 * fit the shapes the document gives for them.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { api } from '../../workers/api';
import { callsWithoutAnswer } from '../../workers/api/openapi';
import { apiToken, call } from '../support/api';
import { DEMO_ACCOUNTS, seedUk, SETUP_TIMEOUT_MS } from '../support/world';

vi.mock('@remix-run/cloudflare', () => import('../support/remix-stub'));

type Schema = {
  $ref?: string;
  type?: string;
  nullable?: boolean;
  enum?: unknown[];
  anyOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  additionalProperties?: Schema;
};
type Doc = {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: Schema }> }> }>
  >;
  components: { schemas: Record<string, Schema> };
};

let doc: Doc;
let admin: string;

beforeAll(async () => {
  await seedUk();
  admin = await apiToken(DEMO_ACCOUNTS.admin);
  const answer = await call<Doc>('/api/openapi.json');
  expect(answer.status).toBe(200);
  doc = answer.body;
}, SETUP_TIMEOUT_MS);

const deref = (schema: Schema): Schema =>
  schema.$ref ? deref(doc.components.schemas[schema.$ref.split('/').pop()!]) : schema;

/** Where a value does not fit a schema (an empty list: it fits). Enough JSON Schema for our shapes. */
function misfits(value: unknown, schema: Schema, at = '$'): string[] {
  if (schema.$ref) return misfits(value, deref(schema), at);
  if (value === null) return schema.nullable || !schema.type ? [] : [`${at} is null`];
  if (schema.anyOf) {
    const each = schema.anyOf.map((s) => misfits(value, s, at));
    return each.some((m) => m.length === 0) ? [] : each.flat();
  }
  if (schema.enum && !schema.enum.includes(value))
    return [`${at} = ${JSON.stringify(value)} is not in the enum`];
  switch (schema.type) {
    case 'string':
    case 'number':
    case 'boolean':
      return typeof value === schema.type ? [] : [`${at} is not a ${schema.type}`];
    case 'array':
      return Array.isArray(value)
        ? value.flatMap((v, i) => (schema.items ? misfits(v, schema.items, `${at}[${i}]`) : []))
        : [`${at} is not an array`];
    case 'object': {
      if (typeof value !== 'object' || Array.isArray(value)) return [`${at} is not an object`];
      const record = value as Record<string, unknown>;
      const missing = (schema.required ?? [])
        .filter((k) => !(k in record))
        .map((k) => `${at}.${k} is missing`);
      const inner = Object.entries(record).flatMap(([k, v]) => {
        const s = schema.properties?.[k] ?? schema.additionalProperties;
        return s && v !== undefined ? misfits(v, s, `${at}.${k}`) : [];
      });
      return [...missing, ...inner];
    }
    default:
      return [];
  }
}

describe('the OpenAPI document', () => {
  it('has an answer shape for every call of the route table', () => {
    expect(callsWithoutAnswer(api)).toEqual([]);
    const ops = Object.values(doc.paths).flatMap((methods) => Object.values(methods));
    expect(ops.length).toBeGreaterThan(300);
    for (const op of ops) expect(Object.keys(op.responses).some((s) => s < '400')).toBe(true);
  });

  it('gives the users list its items and paging, and files a binary answer', () => {
    const list =
      doc.paths['/api/company/users/company/list'].get.responses['200'].content!['application/json'];
    const data = deref(deref(deref(list.schema).properties!.data).properties!.users);
    expect(deref(data.properties!.items).type).toBe('array');
    expect(data.required).toEqual(expect.arrayContaining(['items', 'meta']));
    const pdf = doc.paths['/api/company/invoices/{id}/pdf'].get.responses['200'].content!;
    expect(Object.keys(pdf)).toEqual(['application/octet-stream']);
  });

  it('documents a day as a date (YYYY-MM-DD), the only form the API reads', () => {
    type Op = { parameters?: { name: string; schema: { format?: string } }[] };
    const list = doc.paths['/api/company/policies'].get as unknown as Op;
    expect(list.parameters?.find((p) => p.name === 'start_from')?.schema.format).toBe('date');
    const invoices = doc.paths['/api/company/invoices'].get as unknown as Op;
    expect(invoices.parameters?.find((p) => p.name === 'due_to')?.schema.format).toBe('date');
  });

  it.each([
    '/api/company/users/company/list?status=all',
    '/api/company/users/school/list',
    '/api/company/roles/company/list',
    '/api/company/roles',
    '/api/company/api-keys',
    '/api/company/auth/get',
    '/api/company/countries/list',
    '/api/countries',
    '/api/company/clients',
    '/api/company/invoices',
  ])('the real answer of GET %s fits its shape', async (path) => {
    const answer = await call(path, { token: admin });
    expect(answer.status).toBe(200);
    const template = path.split('?')[0].replace('/roles/company/', '/roles/{family}/');
    const schema = doc.paths[template].get.responses['200'].content!['application/json'].schema;
    expect(misfits(answer.body, schema)).toEqual([]);
  });

  it('/api/docs shows each call with its answer, and the shared shapes', async () => {
    const page = await call<string>('/api/docs');
    expect(page.status).toBe(200);
    expect(page.body).toContain('Answer 200 OK (application/json)');
    expect(page.body).toContain('id="schema-Shape1"');
    expect(page.body).toContain('href="#schema-Shape1"');
  });
});
