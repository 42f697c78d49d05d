// `npm run bench:weight`: the gzipped JavaScript each main page makes the browser load, from the build's
// Remix manifest (public/build/manifest-*.js): the client entry and its imports, then every route module of
// the page's match (root, layouts, the page) and their imports, each file counted once. Run after
// `npm run build`. Prints a table with the page-weight targets (sign-in at most 100 KB, every other page
// at most 150 KB) and marks the pages over them; record the figures in docs/performance.md.
//
// A page one of whose routes says `handle = withoutScripts` (`{ hydrate: false }`, app/lib/hydrate.ts) is
// served with no script at all (the root leaves out <Scripts/>): it counts 0 KB, 0 scripts. The flag is
// read from the route modules' source, as the manifest does not carry handles.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const PUBLIC = 'public';
const KB = 1024;
const SIGN_IN_TARGET = 100 * KB;
const PAGE_TARGET = 150 * KB;

/** The main pages: a name, the route ids of the page (its leaf; the layouts above it are added). */
export const PAGES = [
  { name: 'sign-in: email', route: '($lang).auth.login', signIn: true },
  { name: 'sign-in: password', route: '($lang).auth.login-pwd', signIn: true },
  { name: 'sign-in: PIN', route: '($lang).auth.pin-otp', signIn: true },
  { name: 'forgot password', route: '($lang).auth.forgot-password', signIn: true },
  { name: 'reset password PIN', route: '($lang).auth.reset-password', signIn: true },
  { name: 'home', route: '($lang)._main.home' },
  { name: 'clients list', route: '($lang)._main.clients._index' },
  { name: 'client detail', route: '($lang)._main.clients.$id._tabs._index' },
  { name: 'campus detail', route: '($lang)._main.clients.$id.campuses.$campusId._index' },
  { name: 'products list', route: '($lang)._main.products._index' },
  { name: 'product detail', route: '($lang)._main.products.$id._index' },
  { name: 'order', route: '($lang)._main.insureds.order' },
  { name: 'import', route: '($lang)._main.insureds.new.import' },
  { name: 'match columns', route: '($lang)._main.insureds.match-columns' },
  { name: 'review applicants', route: '($lang)._main.insureds.review-applicants' },
  { name: 'cart', route: '($lang)._main.cart._index' },
  { name: 'checkout', route: '($lang)._main.cart_.checkout' },
  { name: 'confirmation', route: '($lang)._main.insureds_.$id.confirmation' },
  { name: 'companies', route: '($lang)._main.manage-company._index' },
  { name: 'countries', route: '($lang)._main.manage-countries._index' },
  { name: 'insurers', route: '($lang)._main.manage-insurers' },
  { name: 'insureds list', route: '($lang)._main.insureds._index' },
  { name: 'insured detail', route: '($lang)._main.insureds_.$id.insured_details._index' },
  { name: 'user privileges', route: '($lang)._main.user-privileges._index' },
  { name: 'audit trail', route: '($lang)._main.audit-trail._index' },
  { name: 'users list', route: '($lang)._main.manage-users._index' },
  { name: 'user page', route: '($lang)._main.manage-users_.school.$id' },
];

export function readManifest(dir = PUBLIC) {
  const build = join(dir, 'build');
  const file = readdirSync(build).find((f) => /^manifest-[A-Z0-9]+\.js$/.test(f));
  if (!file) throw new Error(`No Remix manifest in ${build}: run npm run build first`);
  const text = readFileSync(join(build, file), 'utf8');
  return JSON.parse(text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1));
}

/** The files (URLs under /build) a page loads: entry, then each route from root down to the leaf. */
export function pageFiles(manifest, leafRouteId) {
  const chain = [];
  for (let id = `routes/${leafRouteId}`; id; id = manifest.routes[id]?.parentId) {
    const route = manifest.routes[id];
    if (!route) throw new Error(`No route ${id} in the manifest`);
    chain.unshift(route);
  }
  const files = new Set([manifest.entry.module, ...manifest.entry.imports]);
  for (const route of chain) {
    files.add(route.module);
    for (const f of route.imports ?? []) files.add(f);
  }
  return [...files];
}

/** The route ids of a page's match, root first. */
function routeChain(manifest, leafRouteId) {
  const chain = [];
  for (let id = `routes/${leafRouteId}`; id; id = manifest.routes[id]?.parentId) chain.unshift(id);
  return chain;
}

/** Whether a route module says the page is served without scripts (`handle = withoutScripts`). */
export function withoutScripts(routeId, appDir = 'app') {
  const file = ['.tsx', '.ts', '.jsx', '.js'].map((ext) => join(appDir, routeId + ext)).find(existsSync);
  if (!file) return false;
  const source = readFileSync(file, 'utf8');
  return /export const handle\s*=\s*(withoutScripts\b|\{[^}]*\bhydrate:\s*false\b)/.test(source);
}

/** The files a page really makes the browser load: none when a route of its match turns scripts off. */
export function loadedFiles(manifest, leafRouteId) {
  if (routeChain(manifest, leafRouteId).some((id) => withoutScripts(id))) return [];
  return pageFiles(manifest, leafRouteId);
}

const gzipCache = new Map();
export function gzippedSize(url, dir = PUBLIC) {
  if (!gzipCache.has(url)) gzipCache.set(url, gzipSync(readFileSync(join(dir, url)), { level: 9 }).length);
  return gzipCache.get(url);
}

function main() {
  const manifest = readManifest();
  const rows = PAGES.map((page) => {
    const files = loadedFiles(manifest, page.route);
    const bytes = files.reduce((sum, f) => sum + gzippedSize(f), 0);
    const target = page.signIn ? SIGN_IN_TARGET : PAGE_TARGET;
    return {
      page: page.name,
      files: files.length,
      kb: (bytes / KB).toFixed(1),
      target: target / KB,
      over: bytes > target,
    };
  });
  const w = Math.max(...rows.map((r) => r.page.length));
  console.log(`${'page'.padEnd(w)}  scripts  gzipped KB  target KB`);
  for (const r of rows) {
    console.log(
      `${r.page.padEnd(w)}  ${String(r.files).padStart(7)}  ${r.kb.padStart(10)}  ${String(r.target).padStart(9)}${r.over ? '  OVER' : ''}`,
    );
  }
  const over = rows.filter((r) => r.over);
  if (over.length) {
    console.log(`\n${over.length} of ${rows.length} pages over their target.`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) main();
