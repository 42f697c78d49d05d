/**
 * Writes workers/api/openapi-answers.json: the answer shape (success body) of every API call, read by the
 * TypeScript compiler from the routers themselves. Each area router is one chained Hono app, so its type
 * carries, per path and method, what the handler answers (`c.json(...)`, already as JSON: dates are
 * strings); this turns those types into JSON Schema. Nothing is written by hand: change a handler or
 * the domain type it returns, run `npm run openapi:answers`, and the document follows.
 *
 *   node scripts/openapi-answers.mjs          write the file
 *   node scripts/openapi-answers.mjs --check  fail when the file is not what the code answers now
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import prettier from 'prettier';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(root, 'workers/api/openapi-answers.json');

const config = ts.getParsedCommandLineOfConfigFile(
  join(root, 'tsconfig.json'),
  {},
  {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  },
);
const apiDir = join(root, 'workers/api');
const rootNames = config.fileNames.filter((f) => f.startsWith(apiDir) && f.endsWith('.ts'));
const program = ts.createProgram({ rootNames, options: { ...config.options, noEmit: true } });
const checker = program.getTypeChecker();

const F = ts.TypeFlags;
const MAX_DEPTH = 14;

/** A TypeScript type (of a JSON answer) as JSON Schema (OpenAPI 3.0: `nullable` for null). */
function toSchema(type, depth = 0, stack = new Set()) {
  if (depth > MAX_DEPTH) return {};
  const f = type.flags;
  if (f & (F.Any | F.Unknown)) return {};
  if (f & F.Never) return { not: {} };
  if (f & F.StringLiteral) return { type: 'string', enum: [type.value] };
  if (f & F.NumberLiteral) return { type: 'number', enum: [type.value] };
  if (f & F.BooleanLiteral) return { type: 'boolean', enum: [checker.typeToString(type) === 'true'] };
  if (f & (F.String | F.TemplateLiteral)) return { type: 'string' };
  if (f & F.Number) return { type: 'number' };
  if (f & F.Boolean) return { type: 'boolean' };
  if (f & F.Null) return { nullable: true };
  if (f & F.Union) return unionSchema(type, depth, stack);
  if (stack.has(type)) return {};
  stack.add(type);
  try {
    if (checker.isTupleType(type))
      return {
        type: 'array',
        items: anyOf(checker.getTypeArguments(type).map((t) => toSchema(t, depth + 1, stack))),
      };
    if (checker.isArrayType(type))
      return { type: 'array', items: toSchema(checker.getTypeArguments(type)[0], depth + 1, stack) };
    if (f & (F.Object | F.Intersection)) return objectSchema(type, depth, stack);
    return {};
  } finally {
    stack.delete(type);
  }
}

function objectSchema(type, depth, stack) {
  const properties = {};
  const required = [];
  for (const prop of checker.getPropertiesOfType(type)) {
    const decl = prop.valueDeclaration ?? prop.declarations?.[0];
    const propType = checker.getTypeOfSymbol(prop);
    if (propType.getCallSignatures().length) continue; // methods do not reach JSON
    const optional =
      (prop.flags & ts.SymbolFlags.Optional) !== 0 ||
      (propType.flags & F.Union && propType.types.some((t) => t.flags & F.Undefined));
    const schema = toSchema(propType, depth + 1, stack);
    const doc = ts.displayPartsToString(prop.getDocumentationComment(checker)).trim();
    properties[prop.name] = doc && decl ? { ...schema, description: doc } : schema;
    if (!optional) required.push(prop.name);
  }
  const schema = { type: 'object', properties };
  if (required.length) schema.required = required;
  const index = checker.getIndexInfosOfType(type)[0];
  if (index) schema.additionalProperties = toSchema(index.type, depth + 1, stack);
  return schema;
}

function unionSchema(type, depth, stack) {
  let nullable = false;
  const parts = [];
  const literals = { string: [], number: [] };
  let booleans = 0;
  for (const t of type.types) {
    if (t.flags & (F.Undefined | F.Void)) continue;
    if (t.flags & F.Null) nullable = true;
    else if (t.flags & F.StringLiteral) literals.string.push(t.value);
    else if (t.flags & F.NumberLiteral) literals.number.push(t.value);
    else if (t.flags & F.BooleanLiteral) booleans++;
    else parts.push(toSchema(t, depth + 1, stack));
  }
  // Sorted: TypeScript orders a union's members by when it made their types, which a change elsewhere in
  // the program can move.
  if (literals.string.length) parts.push({ type: 'string', enum: literals.string.sort() });
  if (literals.number.length) parts.push({ type: 'number', enum: literals.number.sort((a, b) => a - b) });
  if (booleans) parts.push({ type: 'boolean' });
  const schema = anyOf(parts);
  return nullable ? { ...schema, nullable: true } : schema;
}

/** One schema, or `anyOf` the distinct ones in a fixed order (see unionSchema). */
function anyOf(parts) {
  const unique = [...new Map(parts.map((p) => [JSON.stringify(p), p])).entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, p]) => p);
  if (unique.length === 0) return {};
  if (unique.length === 1) return unique[0];
  return { anyOf: unique };
}

const prop = (type, name) => {
  const symbol = checker.getPropertyOfType(type, name);
  return symbol ? checker.getTypeOfSymbol(symbol) : undefined;
};
const members = (type) => (type.flags & F.Union ? type.types : [type]);
const literal = (type) => (type && type.flags & (F.StringLiteral | F.NumberLiteral) ? type.value : undefined);

/**
 * One call's answer: per success status (every 2xx or redirect the handler can give, e.g. 200 with a ZIP
 * and 202 with a job), its media type and schema. Hono types a handler that answers a Response of its own
 * (a file) with an unknown output and format: that is a download; `fileAnswer` (workers/api/context.ts)
 * types one as `file` where the same call can also answer JSON, so the union keeps both answers.
 */
function answerOf(endpoint) {
  const answers = {};
  for (const member of members(endpoint)) {
    const statusType = prop(member, 'status');
    const known = (statusType ? members(statusType).map(literal) : []).filter((s) => typeof s === 'number');
    // `c.json(x)` without a status is typed as any status (the whole StatusCode union): that is a 200.
    const statuses = known.length && known.length <= 4 ? known : [200];
    const format = literal(prop(member, 'outputFormat'));
    const output = prop(member, 'output');
    for (const status of statuses) {
      if (status >= 400) continue;
      let answer;
      if (status === 204 || format === 'body') answer = { status, media: null };
      else if (format === 'json') answer = { status, media: 'application/json', schema: toSchema(output) };
      else if (format === 'text') answer = { status, media: 'text/plain', schema: { type: 'string' } };
      else if (format === 'redirect') answer = { status: status === 200 ? 302 : status, media: null };
      else
        answer = { status, media: 'application/octet-stream', schema: { type: 'string', format: 'binary' } };
      const key = String(answer.status);
      const before = answers[key];
      if (before?.schema && answer.schema && before.media === answer.media)
        answers[key] = { ...answer, schema: anyOf([before.schema, answer.schema]) };
      else answers[key] ??= answer;
    }
  }
  return answers;
}

const out = {};
for (const file of program.getSourceFiles()) {
  if (!rootNames.includes(file.fileName)) continue;
  const moduleSymbol = checker.getSymbolAtLocation(file);
  if (!moduleSymbol) continue;
  for (const exported of checker.getExportsOfModule(moduleSymbol)) {
    const type = checker.getTypeOfSymbol(exported);
    if (type.symbol?.name !== 'Hono') continue;
    const schema = checker.getTypeArguments(type)[1];
    if (!schema) continue;
    for (const path of checker.getPropertiesOfType(schema)) {
      const byMethod = checker.getTypeOfSymbol(path);
      for (const method of checker.getPropertiesOfType(byMethod)) {
        if (!method.name.startsWith('$') || method.name === '$all') continue;
        const key = `${method.name.slice(1).toUpperCase()} ${path.name}`;
        out[key] = answerOf(checker.getTypeOfSymbol(method));
      }
    }
  }
}

/**
 * Shapes that answer many calls (a client, a campus, an invoice, a list's `meta`) are written once under
 * `components` and referred to (`$ref`), most used first; the rest stay inline.
 */
function shareRepeated(calls) {
  const counts = new Map();
  const walk = (node) => {
    if (!node || typeof node !== 'object') return;
    if (node.type === 'object') {
      const key = JSON.stringify(node);
      if (key.length > 300) counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    Object.values(node).forEach(walk);
  };
  Object.values(calls).forEach(walk);
  const shared = [...counts].filter(([, n]) => n > 1).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const names = new Map(shared.map(([key], i) => [key, `Shape${i + 1}`]));
  const replace = (node, top) => {
    if (!node || typeof node !== 'object') return node;
    if (!top && node.type === 'object') {
      const name = names.get(JSON.stringify(node));
      if (name) return { $ref: `#/components/schemas/${name}` };
    }
    if (Array.isArray(node)) return node.map((n) => replace(n, false));
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, replace(v, false)]));
  };
  const schemas = Object.fromEntries(shared.map(([key]) => [names.get(key), replace(JSON.parse(key), true)]));
  return { schemas, calls: replace(calls, true) };
}

const sorted = shareRepeated(Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b))));
const text = await prettier.format(JSON.stringify(sorted), {
  ...(await prettier.resolveConfig(OUT)),
  filepath: OUT,
});
if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(OUT, 'utf8');
  } catch {
    /* missing: stale */
  }
  if (current !== text) {
    console.error('workers/api/openapi-answers.json is stale: run `npm run openapi:answers`.');
    process.exit(1);
  }
  console.log(`openapi-answers.json is current (${Object.keys(sorted.calls).length} calls).`);
} else {
  writeFileSync(OUT, text);
  console.log(`Wrote ${Object.keys(sorted.calls).length} answer shapes to workers/api/openapi-answers.json.`);
}
