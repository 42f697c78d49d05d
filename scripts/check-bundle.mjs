// Fails when a browser chunk (public/build/**) carries server-only code: a server package (drizzle-orm,
// exceljs, hono, ...), a Node or Cloudflare built-in, or one of our own server modules. Reads the
// metafile the Remix compiler writes next to the server build (build/metafile.js.json), whose inputs are
// exactly what esbuild put in each chunk, and prints for each offender the import chain that brought it,
// so the fix (a `.server.ts` module, or a pure module split off) is plain. Run after `npm run build`.
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
  if (!found.length) {
    console.log(`check-bundle: ${chunks.length} browser chunks, no server-only code.`);
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
