// Fails when a browser chunk (public/build/**) carries server-only code: a server package (drizzle-orm,
// exceljs, hono, ...), a Node or Cloudflare built-in, or one of our own server modules. Reads the
// metafile the Remix compiler writes next to the server build (build/metafile.js.json), whose inputs are
// exactly what esbuild put in each chunk, and prints for each offender the import chain that brought it,
// so the fix (a `.server.ts` module, or a pure module split off) is plain. Run after `npm run build`.
//
// It also fails when zod or @conform-to/zod is in the STATIC import closure of a route module or the
// client entry (the chunks a page loads before any `import()`): a form's schema is reached only through a
// dynamic import (useSchemaForm), schemas for loaders and actions through `~/lib/schemas.server`
// (docs/page-kit.md, "What a route imports"). This catches zod under any module name, which the lint rule
// (modules named `schema`) cannot.
import { readFileSync } from 'node:fs';

/** Packages that must never reach the browser. */
const SERVER_PACKAGES = [
  'drizzle-orm',
  'drizzle-kit',
  'exceljs',
  '@cantoo/',
  'client-zip',
  'hono',
  '@hono/',
  '@cloudflare/',
  'zod-to-json-schema',
  'miniflare',
  'wrangler',
  '@remix-run/cloudflare',
  '@remix-run/node',
];
/** Our own modules that are server-only by place: tables, adapters, the JSON door, jobs, seed data. */
const SERVER_MODULES = [
  /^drizzle\/schema\.ts$/,
  /^drizzle\/seed\//,
  /^workers\/(platform|api|jobs)\//,
  /^workers\/(entry|http)\.ts$/,
  /\.server\.tsx?$/,
];

function packageOf(input) {
  const i = input.lastIndexOf('node_modules/');
  if (i < 0) return null;
  const parts = input.slice(i + 'node_modules/'.length).split('/');
  return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
}

export function serverOnlyReason(input) {
  if (/^(node|cloudflare|workerd):/.test(input)) return input;
  const pkg = packageOf(input);
  if (pkg) return SERVER_PACKAGES.some((p) => (p.endsWith('/') ? pkg.startsWith(p) : pkg === p)) ? pkg : null;
  return SERVER_MODULES.some((re) => re.test(input)) ? input : null;
}

/**
 * The shortest import chain from `from` to `to` through modules that are really in the browser build
 * (the metafile's graph also keeps imports that tree shaking dropped, such as a loader's services);
 * inside packages every module counts, since their barrels leave no input of their own.
 */
function chain(metafile, from, to, bundled) {
  const prev = new Map([[from, null]]);
  const queue = [from];
  while (queue.length) {
    const at = queue.shift();
    if (at === to) break;
    for (const { path } of metafile.inputs[at]?.imports ?? []) {
      if (!prev.has(path) && (bundled.has(path) || path.includes('node_modules/'))) {
        prev.set(path, at);
        queue.push(path);
      }
    }
  }
  if (!prev.has(to)) return [to];
  const path = [];
  for (let at = to; at; at = prev.get(at)) path.unshift(at);
  return path;
}

/** Offences per chunk: `[{ chunk, reason, input }]`, one per chunk and reason. */
export function findServerCode(metafile) {
  const found = [];
  for (const [chunk, output] of Object.entries(metafile.outputs)) {
    if (!chunk.endsWith('.js')) continue;
    const seen = new Set();
    for (const input of Object.keys(output.inputs)) {
      const reason = serverOnlyReason(input);
      if (reason && !seen.has(reason)) {
        seen.add(reason);
        found.push({ chunk, reason, input });
      }
    }
  }
  return found;
}

/** Packages a page may reach only through a dynamic import (useSchemaForm loads them on first use). */
const LAZY_PACKAGES = ['zod', '@conform-to/zod'];

/** A route module's or the client entry's output: where a page's static loading starts. */
function isPageRoot(entryPoint) {
  return entryPoint.startsWith('browser-route-module:') || /(^|\/)entry\.client\.[jt]sx?$/.test(entryPoint);
}

/** The readable name of a page root: `routes/x.tsx` for a route, the file for the client entry. */
function rootName(entryPoint) {
  return entryPoint.replace(/^browser-route-module:/, '').replace(/\?browser$/, '');
}

/** The chunks an output loads before any dynamic import: itself and its static imports, transitively. */
function staticChunks(metafile, output) {
  const seen = new Set([output]);
  const queue = [output];
  while (queue.length) {
    for (const { path, kind } of metafile.outputs[queue.shift()]?.imports ?? []) {
      if (kind === 'import-statement' && !seen.has(path) && metafile.outputs[path]) {
        seen.add(path);
        queue.push(path);
      }
    }
  }
  return seen;
}

/** The shortest chain of static imports from `from` to `to` among `allowed` inputs (and packages'). */
function staticChain(metafile, from, to, allowed) {
  const prev = new Map([[from, null]]);
  const queue = [from];
  while (queue.length) {
    const at = queue.shift();
    if (at === to) break;
    for (const { path, kind } of metafile.inputs[at]?.imports ?? []) {
      if (kind === 'dynamic-import' || prev.has(path)) continue;
      if (allowed.has(path) || path.includes('node_modules/')) {
        prev.set(path, at);
        queue.push(path);
      }
    }
  }
  if (!prev.has(to)) return [from, '…', to];
  const path = [];
  for (let at = to; at; at = prev.get(at)) path.unshift(at);
  return path;
}

/**
 * Pages that load zod or @conform-to/zod with their scripts: `[{ route, pkg, chain }]`, one per page root
 * and package, with the import chain from the route module (or client entry) to the package.
 */
export function findStaticZod(metafile) {
  const found = [];
  for (const [output, { entryPoint }] of Object.entries(metafile.outputs)) {
    if (!entryPoint || !isPageRoot(entryPoint)) continue;
    const inputs = new Set();
    for (const chunk of staticChunks(metafile, output)) {
      for (const [input, { bytesInOutput }] of Object.entries(metafile.outputs[chunk].inputs)) {
        if (bytesInOutput > 0) inputs.add(input);
      }
    }
    for (const pkg of LAZY_PACKAGES) {
      const input = [...inputs].find((i) => packageOf(i) === pkg);
      if (!input) continue;
      // The chain ends at the package's first module reached from our code.
      const chain = staticChain(metafile, entryPoint, input, inputs);
      const cut = chain.findIndex((p) => packageOf(p) === pkg);
      found.push({ route: rootName(entryPoint), pkg, chain: cut > 0 ? chain.slice(0, cut + 1) : chain });
    }
  }
  return found.sort((a, b) => a.route.localeCompare(b.route));
}

function main() {
  const file = process.argv[2] ?? 'build/metafile.js.json';
  let metafile;
  try {
    metafile = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    console.error(`check-bundle: cannot read ${file} (run npm run build first): ${e.message}`);
    process.exit(2);
  }
  const chunks = Object.keys(metafile.outputs).filter((o) => o.endsWith('.js'));
  const found = findServerCode(metafile);
  const zod = findStaticZod(metafile);
  if (zod.length) {
    console.error(
      `check-bundle: ${new Set(zod.map((z) => z.route)).size} page(s) load zod with their scripts:`,
    );
    for (const { route, pkg, chain } of zod) {
      console.error(`\n  ${route}: ${pkg}`);
      console.error(`    via ${chain.map(rootName).join('\n      -> ')}`);
    }
    console.error(
      '\nImport schemas through ~/lib/schemas.server, validate in the browser with useSchemaForm (its schema' +
        '\nis loaded by import()), and read value lists from zod-free modules (docs/page-kit.md).\n',
    );
  }
  if (!found.length) {
    if (zod.length) process.exit(1);
    console.log(`check-bundle: ${chunks.length} browser chunks, no server-only code, no zod on page load.`);
    return;
  }
  // The routes and the client entry are where chains start.
  const roots = Object.values(metafile.outputs)
    .map((o) => o.entryPoint)
    .filter(Boolean);
  const bundled = new Set();
  for (const output of Object.values(metafile.outputs)) {
    for (const input of Object.keys(output.inputs)) bundled.add(input);
  }
  console.error(
    `check-bundle: server-only code in ${new Set(found.map((f) => f.chunk)).size} browser chunk(s):`,
  );
  for (const { chunk, reason, input } of found) {
    console.error(`\n  ${chunk}: ${reason}`);
    const start = roots.find((r) => chain(metafile, r, input, bundled).length > 1);
    if (start) console.error(`    via ${chain(metafile, start, input, bundled).join('\n      -> ')}`);
  }
  console.error(
    '\nMove the server import behind a `.server.ts` module (the compiler leaves those out of the browser),' +
      '\nor split the pure part (zod schemas, constants, types) into a module that imports no server code.',
  );
  process.exit(1);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
