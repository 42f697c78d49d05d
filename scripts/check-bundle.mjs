// Checks the two bundles the build makes. Run after `npm run build`.
//
// The Worker (what `wrangler deploy` uploads): builds it as a dry run into a temporary folder, exactly as
// deployed (minified, with wrangler.toml's aliases), and fails when
// - its upload is over the limit, gzipped as wrangler measures it (all modules together, in KiB):
//   1500 KiB, or BUNDLE_GZIP_LIMIT_KIB=<n> to try a lower one. It prints the figure, the startup module's
//   own and what weighs most in it (a cold start parses the whole startup module);
// - a heavy library (the PDF library, fontkit, exceljs) or a translation file is in the startup module's
//   static imports: they are reached through `import()` only (workers/platform/pdf.ts, xlsx.ts) or read
//   from the static assets (workers/platform/i18n.ts), so no cold start runs their set-up.
//
// The browser chunks (public/build/**): fails when one carries server-only code: a server package (drizzle-orm,
// exceljs, hono, ...), a Node or Cloudflare built-in, or one of our own server modules. Reads the
// metafile the Remix compiler writes next to the server build (build/metafile.js.json), whose inputs are
// exactly what esbuild put in each chunk, and prints for each offender the import chain that brought it,
// so the fix (a `.server.ts` module, or a pure module split off) is plain.
//
// It also fails when zod or @conform-to/zod is in the STATIC import closure of a route module or the
// client entry (the chunks a page loads before any `import()`): a form's schema is reached only through a
// dynamic import (useSchemaForm), schemas for loaders and actions through `~/lib/schemas.server`
// (docs/page-kit.md, "What a route imports"). This catches zod under any module name, which the lint rule
// (modules named `schema`) cannot.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';

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

// ------------------------------------------------------------------------------------------ the Worker

/** The most the Worker's upload may weigh, gzipped, in KiB (wrangler's "Total Upload … gzip" figure). */
export const WORKER_GZIP_LIMIT_KIB = 1500;

/** Packages whose set-up must not run at the Worker's start: reached through `import()` only. */
const LAZY_SERVER_PACKAGES = ['@cantoo/pdf-lib', '@cantoo/fontkit', 'exceljs'];

const kib = (bytes) => bytes / 1024;

/** Wrangler's own measure: every module's bytes, one after another, gzipped as one stream. */
export function gzipKib(contents) {
  return kib(gzipSync(Buffer.concat(contents.map((c) => Buffer.from(c)))).length);
}

/** The verdict on a measured size: `{ ok, message }`. */
export function judgeWorkerSize(gzipKibMeasured, limitKib) {
  const figure = `${gzipKibMeasured.toFixed(1)} KiB gzipped`;
  return gzipKibMeasured <= limitKib
    ? { ok: true, message: `${figure}, within the ${limitKib} KiB limit` }
    : { ok: false, message: `${figure}, over the ${limitKib} KiB limit` };
}

/** Inputs reached from the output's entry through static imports only: what a cold start evaluates. */
function staticClosure(metafile, output) {
  const entry = metafile.outputs[output].entryPoint;
  const seen = new Set([entry]);
  const queue = [entry];
  while (queue.length) {
    for (const { path, kind } of metafile.inputs[queue.shift()]?.imports ?? []) {
      if (kind === 'dynamic-import' || seen.has(path) || !metafile.inputs[path]) continue;
      seen.add(path);
      queue.push(path);
    }
  }
  return seen;
}

/** What the startup module must not load statically: `[{ what, input }]`. */
export function findEagerHeavyCode(metafile, output) {
  const found = [];
  const seen = new Set();
  for (const input of staticClosure(metafile, output)) {
    const pkg = packageOf(input);
    const what = LAZY_SERVER_PACKAGES.includes(pkg)
      ? pkg
      : /(^|\/)app\/locales\/[^/]+\/[^/]+\.json$/.test(input)
        ? 'translations (app/locales/*/*.json)'
        : null;
    if (what && !seen.has(what)) {
      seen.add(what);
      found.push({ what, input });
    }
  }
  return found;
}

/** Bytes in the output per package (or our own top folder), largest first. */
function heaviest(metafile, output, count) {
  const by = new Map();
  for (const [input, { bytesInOutput }] of Object.entries(metafile.outputs[output].inputs)) {
    const key = packageOf(input) ?? input.split('/').slice(0, 2).join('/');
    by.set(key, (by.get(key) ?? 0) + bytesInOutput);
  }
  return [...by].sort((a, b) => b[1] - a[1]).slice(0, count);
}

function filesUnder(dir) {
  return readdirSync(dir, { recursive: true })
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile());
}

/** Builds the Worker as `wrangler deploy` would (a dry run) and checks it; returns whether it passed. */
function checkWorker() {
  const limit = Number(process.env.BUNDLE_GZIP_LIMIT_KIB || WORKER_GZIP_LIMIT_KIB);
  const out = mkdtempSync(join(tmpdir(), 'worker-bundle-'));
  try {
    const run = spawnSync(
      'node_modules/.bin/wrangler',
      ['deploy', '--dry-run', '--env', 'uk', '--outdir', out, '--metafile', join(out, 'meta.json')],
      {
        encoding: 'utf8',
        env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false' },
      },
    );
    if (run.status !== 0) {
      console.error(`check-bundle: wrangler deploy --dry-run failed:\n${run.stdout}\n${run.stderr}`);
      return false;
    }
    const reported = /Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/.exec(run.stdout);
    const modules = filesUnder(out).filter(
      (f) => !f.endsWith('.map') && !f.endsWith('.md') && !f.endsWith('meta.json'),
    );
    const ours = gzipKib(modules.map((f) => readFileSync(f)));
    // Wrangler's printed figure is the one the issue and the dashboard speak of; ours is the same sum.
    const measured = reported ? Number(reported[2]) : ours;
    const metafile = JSON.parse(readFileSync(join(out, 'meta.json'), 'utf8'));
    const main = Object.keys(metafile.outputs).find(
      (o) => o.endsWith('.js') && metafile.outputs[o].entryPoint,
    );
    const mainFile = join(process.cwd(), main);
    const mainBytes = readFileSync(mainFile);
    const lines = [
      `check-bundle: the Worker's upload (wrangler deploy --dry-run --env uk): ${reported ? `${reported[1]} KiB, ` : ''}` +
        `${judgeWorkerSize(measured, limit).message}; ${modules.length} module(s).`,
      `  startup module ${relative(out, mainFile)}: ${kib(mainBytes.length).toFixed(1)} KiB, ` +
        `${gzipKib([mainBytes]).toFixed(1)} KiB gzipped. Heaviest parts (KiB of it):`,
      ...heaviest(metafile, main, 8).map(([k, b]) => `    ${kib(b).toFixed(0).padStart(6)}  ${k}`),
    ];
    const verdict = judgeWorkerSize(measured, limit);
    // The limit can fail: the same figure against a limit just below it must be refused.
    if (judgeWorkerSize(measured, measured - 0.1).ok)
      throw new Error('check-bundle: the size verdict cannot fail');
    const eager = findEagerHeavyCode(metafile, main);
    // The Remix compiler bundled our code first (build/index.js): its metafile names the files inside.
    const server = JSON.parse(readFileSync('build/metafile.server.json', 'utf8'));
    for (const output of Object.keys(server.outputs).filter((o) => server.outputs[o].entryPoint))
      eager.push(...findEagerHeavyCode(server, output));
    (verdict.ok && !eager.length ? console.log : console.error)(lines.join('\n'));
    for (const { what, input } of eager)
      console.error(
        `check-bundle: the Worker loads ${what} at its start (${input}); reach it through import().`,
      );
    return verdict.ok && !eager.length;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------- the browser chunks

function main() {
  const workerOk = checkWorker();
  checkBrowser();
  if (!workerOk) process.exit(1);
}

function checkBrowser() {
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
