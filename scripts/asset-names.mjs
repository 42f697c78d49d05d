// Gives the browser build's files names that need no encoding in a URL (run by `npm run build` and
// start.mjs after `remix build`).
//
// Remix names a route's chunk after its file: "routes/($lang)._main.clients.$id-HASH.js". The browser asks
// for it with the "$" as it is, but static assets are served under the encodeURIComponent form of each path
// segment ("%24"), so every such request was answered 307 and asked again: one extra round trip for each
// route module of every page, in production as in `wrangler dev` (both use the same asset worker). This
// script renames every file under public/build whose name encodeURIComponent would change ("$" becomes
// "_"), and rewrites the references to it: the client manifest and the chunks (public/build/**/*.js), the
// server build's asset manifest (build/index.js) and the compiler's metafile (build/metafile.js.json).
// Names carry their content hash, so a name is replaced only where it appears whole.
import { existsSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** The name a file gets: characters encodeURIComponent would escape are replaced. */
export function safeName(name) {
  return name.replace(/[^A-Za-z0-9\-_.!~*'()]/g, '_');
}

function filesUnder(dir) {
  const out = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path));
    else out.push(path);
  }
  return out;
}

/**
 * Renames the files of `assetsDir` that need it and rewrites their names in its .js files and in
 * `serverFiles`; returns the renames as [old, new] basenames.
 */
export function renameAssets(assetsDir, serverFiles) {
  const renames = [];
  for (const path of filesUnder(assetsDir)) {
    const name = basename(path);
    const safe = safeName(name);
    if (safe === name) continue;
    if (existsSync(join(dirname(path), safe))) throw new Error(`asset-names: ${safe} exists already`);
    renameSync(path, join(dirname(path), safe));
    renames.push([name, safe]);
  }
  if (!renames.length) return renames;
  const rewrite = (file) => {
    const before = readFileSync(file, 'utf8');
    let after = before;
    for (const [from, to] of renames) after = after.split(from).join(to);
    if (after !== before) writeFileSync(file, after);
  };
  for (const file of filesUnder(assetsDir)) if (file.endsWith('.js')) rewrite(file);
  for (const file of serverFiles) if (existsSync(file)) rewrite(file);
  return renames;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const renames = renameAssets('public/build', ['build/index.js', 'build/metafile.js.json']);
  console.log(`asset-names: ${renames.length} browser files renamed to URL-safe names.`);
}
